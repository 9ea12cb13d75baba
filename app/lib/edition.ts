// Exam editions (issue 29): the real exam of an academic year as data an admin corrects in minutes, never
// constants. The pure shape, its zod schema and its rules (split, minutes, breaks, scoring, the grade out of
// 30 with its rounding, the pass mark, the sittings). Facts and how sure we are: ../shared/spec/exam-format.md.
// Persistence: app/server/editions.server.ts (one read per isolate and version).
import { TZDate } from "@date-fns/tz";
import { z } from "zod";
import { GAP_ANSWER_MAX_CHARS, SHEET_GAP_BOXES, TIME_ZONE } from "./constants.ts";

export const EDITION_STATUSES = ["provvisorio", "confermato"] as const;
export type EditionStatus = (typeof EDITION_STATUSES)[number];

/** Credits of every semestre filtro course (each exam is a 6-CFU course). */
export const EDITION_SUBJECT_CREDITS = 6;

export const EDITION_TEXT = {
  provisional: (year: string) =>
    `Formato ${year} da fonti non ufficiali: lo aggiorniamo appena il Ministero pubblica le linee guida`,
  countsMismatch: (name: string, total: number) =>
    `${name}: scelta multipla e completamento devono sommare ${total} domande.`,
  creditsMismatch: (subjectId: number) =>
    `Le unità della materia ${subjectId} devono sommare ${EDITION_SUBJECT_CREDITS} crediti.`,
  unitOfMissingSubject: (subjectId: number) => `Unità di una materia (${subjectId}) che l'edizione non ha.`,
  repeatedSubject: "Ogni materia compare una sola volta.",
  repeatedUnit: "Numero di unità ripetuto nella stessa materia.",
  sittingsOrder: "Gli appelli vanno in ordine di data.",
} as const;

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
export type EditionSubject = z.infer<typeof editionSubjectSchema>;

export const editionUnitSchema = z.object({
  subjectId: int("Materia dell'unità", 1, 1000),
  number: int("Numero dell'unità", 1, 30),
  title: z.string().trim().min(1, "Titolo dell'unità mancante.").max(200, "Titolo dell'unità troppo lungo."),
  credits: z.number({ error: "Crediti: serve un numero." }).min(0.05, "Crediti: almeno 0,05.").max(6),
});
export type EditionUnit = z.infer<typeof editionUnitSchema>;

export const editionSittingSchema = z.object({
  /** Rome calendar date and time of the start. */
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Data dell'appello nel formato AAAA-MM-GG."),
  time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Ora dell'appello nel formato HH:MM."),
  label: z.string().trim().min(1, "Nome dell'appello mancante.").max(60),
});
export type EditionSitting = z.infer<typeof editionSittingSchema>;

/** The grade rule of exam-format.md: from the pass mark up, round to the nearest unit (x,5 up); below, unrounded. */
export const ROUNDING_RULES = ["nearest-from-pass"] as const;

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
  });
export type EditionFormat = z.infer<typeof editionFormatSchema>;

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
export type EditionInput = z.infer<typeof editionInputSchema>;

export type ExamEdition = EditionInput & {
  id: number;
  isDefault: boolean;
  /** Raised by every change: what a per-isolate cache compares. */
  version: number;
  updatedAt: number;
};

/** The edition's subject row for a subject, or undefined (a subject the edition does not examine). */
/** The completamento boxes of an edition's sheet (the 2025 sheet's 16 when there is no edition). */
export function editionGapBoxes(edition: Pick<ExamEdition, "format"> | null | undefined): number {
  return edition?.format.gapBoxes ?? SHEET_GAP_BOXES;
}

export function editionSubject(edition: Pick<ExamEdition, "format">, subjectId: number): EditionSubject | undefined {
  return edition.format.subjects.find((s) => s.subjectId === subjectId);
}

/**
 * The exact mc/gap split of a full paper of this subject in this edition; a subject with syllabus units that
 * the edition does not list (one an admin added) takes the edition's first subject's split.
 */
export function paperSplit(
  edition: Pick<ExamEdition, "format">,
  subjectId: number,
): { mc: number; gap: number } | null {
  const s = editionSubject(edition, subjectId) ?? edition.format.subjects[0];
  return s ? { mc: s.mc, gap: s.gap } : null;
}

/** Raw score of one exam: right × (+1) + wrong × (−0,1) + blank × 0. */
export function rawScore(
  edition: Pick<ExamEdition, "format">,
  counts: { right: number; wrong: number; blank: number },
) {
  const { right, wrong, blank } = edition.format.scoring;
  return counts.right * right + counts.wrong * wrong + counts.blank * blank;
}

export type ExamGrade = {
  /** The grade as recorded: rounded from the pass mark up, unrounded below (17,8 stays 17,8). */
  grade: number;
  passed: boolean;
  lode: boolean;
  /** "30 e lode", "24/30", "17,8/30". */
  label: string;
};

/**
 * The grade of one exam from its raw score (exam-format.md): a full paper scores at most questionTotal (31 = 30 e
 * lode); from the pass mark up the score is rounded to the nearest unit (18,3 → 18; 18,5 → 19); below it stays
 * as it is and fails. A paper of another length is scaled to the edition's total first.
 */
export function examGrade(edition: Pick<ExamEdition, "format">, raw: number, questions?: number): ExamGrade {
  const f = edition.format;
  const scaled = questions && questions !== f.questionTotal ? (raw / questions) * f.questionTotal : raw;
  const value = Math.max(0, Math.round(scaled * 100) / 100);
  if (value + 1e-9 < f.passMark)
    return { grade: value, passed: false, lode: false, label: `${formatGrade(value)}/${f.maxGrade}` };
  const rounded = Math.min(f.lode, Math.floor(value + 0.5 + 1e-9));
  const lode = rounded >= f.lode;
  const grade = lode ? f.lode : Math.min(rounded, f.maxGrade);
  return { grade, passed: true, lode, label: lode ? `${f.maxGrade} e lode` : `${grade}/${f.maxGrade}` };
}

/**
 * The grade of a practice attempt that is a full paper of the edition (as many questions as the exam: the
 * edition's split of one subject), or null for a shorter quiz, which is no exam and has no grade.
 */
export function fullPaperGrade(
  edition: Pick<ExamEdition, "format">,
  counts: { correct: number; wrong: number; total: number },
): ExamGrade | null {
  if (counts.total !== edition.format.questionTotal) return null;
  const blank = Math.max(0, counts.total - counts.correct - counts.wrong);
  return examGrade(edition, rawScore(edition, { right: counts.correct, wrong: counts.wrong, blank }));
}

function formatGrade(value: number): string {
  return value.toLocaleString("it-IT", { maximumFractionDigits: 2 });
}

/** Epoch ms of a sitting's start: its date and time on Rome's clock (CET or CEST, as that day has it). */
export function sittingStartsAt(sitting: EditionSitting): number {
  const [y, m, d] = sitting.date.split("-").map(Number) as [number, number, number];
  const [hh, mm] = sitting.time.split(":").map(Number) as [number, number];
  return new TZDate(y, m - 1, d, hh, mm, TIME_ZONE).getTime();
}

export type NextSitting = { sitting: EditionSitting; index: number; startsAt: number; daysLeft: number };

/** The first sitting that has not started yet at `now`, with whole Rome calendar days until it, or null. */
export function nextSitting(edition: Pick<ExamEdition, "format">, now: number): NextSitting | null {
  const list = edition.format.sittings;
  for (let index = 0; index < list.length; index++) {
    const sitting = list[index]!;
    const startsAt = sittingStartsAt(sitting);
    if (startsAt <= now) continue;
    return { sitting, index, startsAt, daysLeft: romeDayNumber(startsAt) - romeDayNumber(now) };
  }
  return null;
}

/** Days since the epoch of the Rome calendar date of an instant. */
function romeDayNumber(at: number): number {
  const rome = new TZDate(at, TIME_ZONE);
  return Math.round(Date.UTC(rome.getFullYear(), rome.getMonth(), rome.getDate()) / 86_400_000);
}

const MONTHS = [
  "gennaio",
  "febbraio",
  "marzo",
  "aprile",
  "maggio",
  "giugno",
  "luglio",
  "agosto",
  "settembre",
  "ottobre",
  "novembre",
  "dicembre",
];

/** "Primo appello: 10 dicembre, tra 15 giorni" (dashboard). */
export function nextSittingText(next: NextSitting): string {
  const [, m, d] = next.sitting.date.split("-").map(Number) as [number, number, number];
  const when = next.daysLeft === 0 ? "oggi" : next.daysLeft === 1 ? "domani" : `tra ${next.daysLeft} giorni`;
  return `${next.sitting.label}: ${d} ${MONTHS[m - 1]}, ${when}`;
}

/** The edition's exam day as the simulation form's rows: its subjects in order, full papers, its minutes and breaks. */
export type DayTemplate = {
  title: string;
  rows: Array<{ subjectId: number; timeMin: number; questionCount: number; breakAfterMin: number }>;
};

export function dayTemplate(edition: Pick<ExamEdition, "format" | "label">): DayTemplate {
  const { subjects, breakMin, questionTotal } = edition.format;
  return {
    title: edition.label,
    rows: subjects.map((s, i) => ({
      subjectId: s.subjectId,
      timeMin: s.minutes,
      questionCount: questionTotal,
      breakAfterMin: i < subjects.length - 1 ? breakMin : 0,
    })),
  };
}
