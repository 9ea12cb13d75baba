// "Prova completa" on /test/nuovo (issue 29): a full paper of one subject in an exam edition's split and time
// (31 = 21 + 10 in 50 minutes for 2026/27), an older edition chosen in the select. A provisional edition says so.
import { useId, useState } from "react";
import { EDITION_TEXT, type ExamEdition } from "~/lib/edition";
import { T } from "./messages";

export type EditionChoice = {
  id: number;
  label: string;
  academicYear: string;
  isDefault: boolean;
  provisional: string | null;
  questionTotal: number;
  subjects: { subjectId: number; mc: number; gap: number; minutes: number }[];
};

/** What the screen needs of an edition (server side, from editions.server.ts). */
export function editionChoice(e: ExamEdition): EditionChoice {
  return {
    id: e.id,
    label: e.label,
    academicYear: e.academicYear,
    isDefault: e.isDefault,
    provisional: e.status === "provvisorio" ? EDITION_TEXT.provisional(e.academicYear) : null,
    questionTotal: e.format.questionTotal,
    subjects: e.format.subjects.map(({ subjectId, mc, gap, minutes }) => ({ subjectId, mc, gap, minutes })),
  };
}

export function FullPaper({
  editions,
  subject,
  onStart,
}: {
  editions: EditionChoice[];
  subject: { id: number; name: string } | null;
  onStart: (fields: Record<string, string>) => void;
}) {
  const ids = { edition: useId(), hint: useId() };
  const [editionId, setEditionId] = useState<number | null>(
    () => (editions.find((e) => e.isDefault) ?? editions[0])?.id ?? null,
  );
  const edition = editions.find((e) => e.id === editionId);
  if (!edition) return null;
  const row = subject ? edition.subjects.find((s) => s.subjectId === subject.id) : undefined;
  return (
    <section className="practice-card practice-stack" aria-labelledby={ids.hint} data-testid="full-paper">
      <h2 id={ids.hint} className="full-paper__title">
        {T.fullPaperTitle}
      </h2>
      <p className="muted small" style={{ margin: 0 }}>
        {T.fullPaperHint}
      </p>
      <div className="field">
        <label htmlFor={ids.edition}>{T.fullPaperEdition}</label>
        <select
          id={ids.edition}
          className="input"
          value={edition.id}
          onChange={(e) => setEditionId(Number(e.target.value))}
        >
          {editions.map((e) => (
            <option key={e.id} value={e.id}>
              {e.label}
            </option>
          ))}
        </select>
      </div>
      {edition.provisional ? (
        <p className="alert" role="note" data-testid="edition-provisional">
          {edition.provisional}
        </p>
      ) : null}
      {subject && row ? (
        <>
          <p className="summary-line" data-testid="full-paper-summary">
            {`${subject.name} · ${edition.questionTotal} domande (${row.mc} a scelta multipla + ${row.gap} di completamento) · ${row.minutes} minuti`}
          </p>
          <div>
            <button
              type="button"
              className="btn btn--primary"
              onClick={() =>
                onStart({
                  subjectId: String(subject.id),
                  count: String(edition.questionTotal),
                  time: String(row.minutes * 60),
                  edition: String(edition.id),
                })
              }
            >
              {T.fullPaperStart}
            </button>
          </div>
        </>
      ) : (
        <p className="muted small" style={{ margin: 0 }}>
          {T.fullPaperChooseSubject}
        </p>
      )}
    </section>
  );
}
