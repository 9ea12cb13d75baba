// Exam editions (issue 29): the real exam of an academic year as data an admin corrects in minutes, never
// constants. The pure shape and its rules (split, minutes, breaks, scoring, the grade out of 30 with its rounding,
// the pass mark, the sittings); the zod schemas are in edition-schema.ts. Facts and how sure we are: ../shared/spec/exam-format.md.
// Persistence: app/server/editions.server.ts (one read per isolate and version).
import { TZDate } from "@date-fns/tz";
import type { z } from "zod";
import { SHEET_GAP_BOXES, TIME_ZONE } from "./constants.ts";
import { ITALIAN_MONTHS } from "./days.ts";
import type {
  editionFormatSchema,
  editionInputSchema,
  editionSittingSchema,
  editionSubjectSchema,
  editionUnitSchema,
} from "./edition-schema.ts";

export const EDITION_STATUSES = ["provvisorio", "confermato"] as const;
export type EditionStatus = (typeof EDITION_STATUSES)[number];

/** Credits of every semestre filtro course (each exam is a 6-CFU course). */
export const EDITION_SUBJECT_CREDITS = 6;

/** The grade rule of exam-format.md: from the pass mark up, round to the nearest unit (x,5 up); below, unrounded. */
export const ROUNDING_RULES = ["nearest-from-pass"] as const;

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
  sittingDate: "Data dell'appello non valida: scrivi un giorno che esiste, nel formato AAAA-MM-GG (es. 2026-09-03).",
} as const;

// The shapes are the schemas' (edition-schema.ts, imported by the server and the admin's form only: the pages that
// show an edition do not ship zod).
export type EditionSubject = z.infer<typeof editionSubjectSchema>;
export type EditionUnit = z.infer<typeof editionUnitSchema>;
export type EditionSitting = z.infer<typeof editionSittingSchema>;
export type EditionFormat = z.infer<typeof editionFormatSchema>;
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

/** "Primo appello: 10 dicembre, tra 15 giorni" (dashboard). */
export function nextSittingText(next: NextSitting): string {
  const [, m, d] = next.sitting.date.split("-").map(Number) as [number, number, number];
  const when = next.daysLeft === 0 ? "oggi" : next.daysLeft === 1 ? "domani" : `tra ${next.daysLeft} giorni`;
  return `${next.sitting.label}: ${d} ${ITALIAN_MONTHS[m - 1]}, ${when}`;
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
