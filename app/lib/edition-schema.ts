// The zod schemas of an exam edition (issue 29): what the server accepts from an admin and reads back from D1, and
// what the admin's form checks before saving. The shapes and the rules live in edition.ts.
import { z } from "zod";
import { GAP_ANSWER_MAX_CHARS, SHEET_GAP_BOXES } from "./constants.ts";
import { isCalendarDay, isClockTime } from "./days.ts";
import {
  EDITION_STATUSES,
  EDITION_SUBJECT_CREDITS,
  EDITION_TEXT,
  type EditionUnit,
  ROUNDING_RULES,
} from "./edition.ts";

const int = (label: string, min: number, max: number) =>
  z
    .number({ error: `${label}: serve un numero intero.` })
    .int(`${label}: serve un numero intero.`)
    .min(min, `${label}: almeno ${min}.`)
    .max(max, `${label}: al massimo ${max}.`);

export const editionSubjectSchema = z.object({
  subjectId: int("Materia", 1, 1000),
  /** Shown in the admin's messages; the subjects table holds the real name. */
  name: z.string().trim().max(80).optional(),
  mc: int("Domande a scelta multipla", 0, 100),
  gap: int("Domande di completamento", 0, 100),
  minutes: int("Minuti", 1, 600),
});

export const editionUnitSchema = z.object({
  subjectId: int("Materia dell'unità", 1, 1000),
  number: int("Numero dell'unità", 1, 30),
  title: z.string().trim().min(1, "Titolo dell'unità mancante.").max(200, "Titolo dell'unità troppo lungo."),
  credits: z.number({ error: "Crediti: serve un numero." }).min(0.05, "Crediti: almeno 0,05.").max(6),
});

export const editionSittingSchema = z.object({
  /** Rome calendar date and time of the start. */
  date: z.string().refine(isCalendarDay, EDITION_TEXT.sittingDate),
  time: z.string().refine((t) => t.length === 5 && isClockTime(t), "Ora dell'appello nel formato HH:MM."),
  label: z.string().trim().min(1, "Nome dell'appello mancante.").max(60),
});

/** What an edition says about its exam day (stored as one JSON value; the row holds year, label, status). */
export const editionFormatSchema = z
  .object({
    questionTotal: int("Domande per esame", 1, 100),
    subjects: z.array(editionSubjectSchema).min(1, "Serve almeno una materia.").max(5, "Al massimo 5 materie."),
    breakMin: int("Pausa tra gli esami (minuti)", 0, 240),
    /**
     * Boxes of a completamento answer on the sheet, one character each (16 in the 2025 rules). A format stored
     * before the field existed reads as the 2025 sheet; the migration writes it into the seeded editions.
     */
    gapBoxes: int("Caselle del completamento", 1, GAP_ANSWER_MAX_CHARS).default(SHEET_GAP_BOXES),
    scoring: z.object({
      right: z.number().min(0).max(10),
      blank: z.number().min(-10).max(10),
      wrong: z.number().min(-10).max(0),
    }),
    maxGrade: int("Voto massimo", 1, 100),
    passMark: int("Voto minimo per superare", 1, 100),
    /** 31 = 30 e lode. */
    lode: int("Voto con lode", 1, 101),
    rounding: z.enum(ROUNDING_RULES),
    /**
     * The ranking's sections (2026/27: three exams passed = 300 + the sum of their grades, two = 200, one = 100): the
     * points of the section per exam passed. A format stored before the field existed reads as 100 (both editions).
     */
    sectionPoints: int("Punti della sezione per esame superato", 0, 10000).default(100),
    sittings: z.array(editionSittingSchema).max(6, "Al massimo 6 appelli."),
    units: z.array(editionUnitSchema).max(200),
  })
  .superRefine((f, ctx) => {
    const issue = (message: string) => ctx.addIssue({ code: "custom", message });
    for (const s of f.subjects)
      if (s.mc + s.gap !== f.questionTotal)
        issue(EDITION_TEXT.countsMismatch(s.name ?? `Materia ${s.subjectId}`, f.questionTotal));
    const ids = f.subjects.map((s) => s.subjectId);
    if (new Set(ids).size !== ids.length) issue(EDITION_TEXT.repeatedSubject);
    const bySubject = new Map<number, EditionUnit[]>();
    for (const u of f.units) bySubject.set(u.subjectId, [...(bySubject.get(u.subjectId) ?? []), u]);
    for (const [subjectId, list] of bySubject) {
      if (!ids.includes(subjectId)) issue(EDITION_TEXT.unitOfMissingSubject(subjectId));
      if (new Set(list.map((u) => u.number)).size !== list.length) issue(EDITION_TEXT.repeatedUnit);
      const credits = list.reduce((sum, u) => sum + u.credits, 0);
      if (Math.abs(credits - EDITION_SUBJECT_CREDITS) > 1e-6) issue(EDITION_TEXT.creditsMismatch(subjectId));
    }
    const stamps = f.sittings.map((s) => `${s.date}T${s.time}`);
    if (stamps.some((s, i) => i > 0 && s <= stamps[i - 1]!)) issue(EDITION_TEXT.sittingsOrder);
    if (f.passMark > f.maxGrade) issue("Il voto minimo non può superare il voto massimo.");
    if (f.lode <= f.maxGrade) issue("Il voto con lode deve superare il voto massimo.");
    // A higher section always ranks first (rankKey): its points must exceed any sum of the exams' grades.
    if (f.sectionPoints <= f.subjects.length * f.lode)
      issue(
        `I punti della sezione devono superare la somma più alta dei voti (${f.subjects.length} esami × ${f.lode} = ${f.subjects.length * f.lode}).`,
      );
  });

export const editionInputSchema = z.object({
  academicYear: z
    .string()
    .trim()
    .regex(/^\d{4}\/\d{2}$/, "Anno accademico nel formato 2026/27."),
  label: z.string().trim().min(1, "Nome dell'edizione mancante.").max(120, "Nome troppo lungo."),
  status: z.enum(EDITION_STATUSES, { error: "Stato: provvisorio o confermato." }),
  source: z.string().trim().max(2000, "Fonte troppo lunga.").nullable().optional(),
  format: editionFormatSchema,
});
