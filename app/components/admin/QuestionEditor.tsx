// The question editor of 'Apri' (and of the global search): stem, options with the first one correct,
// explanation, difficulty, type. Loaded from /admin/domanda/{id}, saved through the console's action (POST /admin).
import { useEffect, useState } from "react";
import { Modal } from "~/components/ui/Modal";
import { useToast } from "~/components/ui/Toast";
import { useLookup } from "~/lib/use-lookup";
import { succeeded } from "~/lib/forms";
import { useFormAction } from "~/lib/use-form-action";
import { DIFFICULTY_LABELS } from "~/lib/constants";
import { ErrorText, Loading, T, useSave } from "./admin-shared";

export type EditableQuestion = {
  stem: string;
  explanation: string;
  options: { text: string }[];
  difficulty: number;
  type: "mc" | "gap";
};

/** The question to edit, loaded through the console's /admin/domanda/:id (a fetcher), then edited locally. */
export function useQuestion(id: number) {
  const loaded = useLookup<EditableQuestion>(`/admin/domanda/${id}`);
  const [question, setQuestion] = useState<EditableQuestion | null>(null);
  useEffect(() => {
    const q = loaded.data;
    if (q) {
      setQuestion({
        stem: q.stem,
        explanation: q.explanation ?? "",
        options: q.options,
        difficulty: q.difficulty,
        type: q.type,
      });
    }
  }, [loaded.data]);
  return { question, setQuestion, error: loaded.error };
}

/** Saves an edited question through the console's action (POST /admin, intent "save-question"). */
export function useSaveQuestion() {
  const { call } = useFormAction("/admin");
  return async (id: number, q: EditableQuestion) => {
    const options = q.options.map((o) => ({ text: o.text.trim() })).filter((o) => o.text);
    succeeded(await call({ intent: "save-question", id, ...q, options }), T.saveError);
  };
}

/** The editable fields; controlled by the parent. */
export function QuestionFields({
  id,
  value,
  onChange,
}: {
  id: number;
  value: EditableQuestion;
  onChange: (q: EditableQuestion) => void;
}) {
  const set = <K extends keyof EditableQuestion>(key: K, v: EditableQuestion[K]) => onChange({ ...value, [key]: v });
  const setOption = (i: number, text: string) =>
    set(
      "options",
      value.options.map((o, j) => (j === i ? { text } : o)),
    );
  return (
    <fieldset className="adm-form" style={{ border: "none", padding: 0, margin: 0 }}>
      <legend className="sr-only">Domanda {id}</legend>
      <label className="adm-field adm-field--wide">
        <span>Testo della domanda</span>
        <textarea value={value.stem} onChange={(e) => set("stem", e.target.value)} />
      </label>
      <label className="adm-field">
        <span>Tipo</span>
        <select value={value.type} onChange={(e) => set("type", e.target.value as EditableQuestion["type"])}>
          <option value="mc">Scelta multipla</option>
          <option value="gap">Completamento</option>
        </select>
      </label>
      <label className="adm-field">
        <span>Difficoltà</span>
        <select value={value.difficulty} onChange={(e) => set("difficulty", Number(e.target.value))}>
          {[1, 2, 3, 4, 5].map((d) => (
            <option key={d} value={d}>
              {d} – {DIFFICULTY_LABELS[d]}
            </option>
          ))}
        </select>
      </label>
      <div className="adm-field--wide adm-options">
        <p className="muted small" style={{ margin: 0 }}>
          {value.type === "mc"
            ? "La prima opzione è sempre quella corretta."
            : "Risposte accettate (una parola o un valore ciascuna): tutte corrette."}
        </p>
        {value.options.map((o, i) => (
          <div className="adm-option" key={i}>
            <label className="adm-field">
              <span>
                {value.type === "mc"
                  ? i === 0
                    ? "Opzione 1 (corretta)"
                    : `Opzione ${i + 1}`
                  : `Risposta accettata ${i + 1}`}
              </span>
              <input value={o.text} onChange={(e) => setOption(i, e.target.value)} />
            </label>
            <button
              type="button"
              className="btn"
              onClick={() =>
                set(
                  "options",
                  value.options.filter((_, j) => j !== i),
                )
              }
              disabled={value.options.length <= 1}
              aria-label={`Rimuovi opzione ${i + 1}`}
            >
              Rimuovi
            </button>
          </div>
        ))}
        <div>
          <button
            type="button"
            className="btn"
            onClick={() => set("options", [...value.options, { text: "" }])}
            disabled={value.options.length >= 10}
          >
            Aggiungi opzione
          </button>
        </div>
      </div>
      <label className="adm-field adm-field--wide">
        <span>Spiegazione</span>
        <textarea value={value.explanation} onChange={(e) => set("explanation", e.target.value)} />
      </label>
    </fieldset>
  );
}

/** Question-only editor (from the global search). */
export function QuestionEditorDialog({ id, onClose }: { id: number; onClose: () => void }) {
  const { question, setQuestion, error } = useQuestion(id);
  const saving = useSave();
  const saveQuestion = useSaveQuestion();
  const toast = useToast();
  const save = () =>
    saving.run(async () => {
      if (!question) return;
      await saveQuestion(id, question);
      toast("Domanda salvata", "success");
      onClose();
    });
  return (
    <Modal
      title={`Domanda ${id}`}
      onClose={onClose}
      maxWidth={820}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>
            Annulla
          </button>
          <button
            type="button"
            className="btn btn--primary"
            onClick={() => void save()}
            disabled={!question || saving.busy}
          >
            Salva
          </button>
        </>
      }
    >
      {error ? <ErrorText message={error} /> : null}
      {!question && !error ? <Loading /> : null}
      {question ? <QuestionFields id={id} value={question} onChange={setQuestion} /> : null}
      {saving.error ? <ErrorText message={saving.error} /> : null}
    </Modal>
  );
}
