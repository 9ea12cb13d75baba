// Compiti (issue 32): a teacher's practice set for a class, with an opening and a due date (Rome time). The pure half,
// shared by the server and the screens: the Italian texts, the input schemas, a pupil's status and the CSV export.
import { z } from "zod";
import { ASSIGNMENT_TEXT } from "./assignment-texts";
import { MAX_QUESTIONS, MIN_QUESTIONS } from "./constants";
import { toCsv } from "./csv";
import { instant } from "./forms/rush-event";
import { formatRomeDateTime } from "./rush";
import { withLabels } from "./validation";

export const ASSIGNMENT_TITLE_MAX = 120;

/** Every Italian word of the feature (app/lib/assignment-texts.ts, apart so a screen can take the words alone). */
export { ASSIGNMENT_TEXT };

export const ASSIGNMENT_STATUSES = ["fatto", "in_ritardo", "non_fatto"] as const;
export type AssignmentStatus = (typeof ASSIGNMENT_STATUSES)[number];

/**
 * Whether a submission at `at` is on time (the due date itself included). It decides "fatto" against "in ritardo", and
 * how long a common set stays sealed for the pupils who have not submitted it (simulation/seal.server.ts).
 */
export function assignmentOnTime(at: number, dueAt: number): boolean {
  return at <= dueAt;
}

/** assignmentOnTime as a SQL expression over two columns or values (milliseconds). */
export function assignmentOnTimeSql(at: string, dueAt: string): string {
  return `(${at} <= ${dueAt})`;
}

/** A pupil's status: submitted by the due date (fatto), after it (in ritardo), or not submitted (non fatto). */
export function assignmentStatus(
  attempt: { status: string | null; finishedAt: number | null } | null,
  dueAt: number,
): AssignmentStatus {
  if (attempt?.status !== "completed" || attempt.finishedAt == null) return "non_fatto";
  return assignmentOnTime(attempt.finishedAt, dueAt) ? "fatto" : "in_ritardo";
}

const int = (label: string, min: number, max: number) =>
  z
    .number({ error: `${label}: serve un numero intero.` })
    .int(`${label}: serve un numero intero.`)
    .min(min, `${label}: almeno ${min}.`)
    .max(max, `${label}: al massimo ${max}.`);

/** POST /api/classes/:id/assignments and the Compiti tab's "create". */
export const AssignmentInput = withLabels(
  z
    .object({
      title: z
        .string({ error: "Il titolo è obbligatorio." })
        .trim()
        .min(1, "Il titolo è obbligatorio.")
        .max(ASSIGNMENT_TITLE_MAX, `Il titolo può avere al massimo ${ASSIGNMENT_TITLE_MAX} caratteri.`),
      subjectId: int("Materia", 1, 1_000_000),
      count: int("Numero di domande", MIN_QUESTIONS, MAX_QUESTIONS),
      timer: z.enum(["edizione", "nessuno"], { error: "Timer: «edizione» o «nessuno»." }),
      mode: z.enum(["comune", "mirato"], { error: "Domande: «comune» o «mirato»." }).default("comune"),
      units: z
        .array(int("Unità", 1, 30))
        .max(30, "Al massimo 30 unità.")
        .default([]),
      opensAt: instant("Apertura"),
      dueAt: instant("Scadenza"),
    })
    .refine((v) => v.dueAt > v.opensAt, { message: ASSIGNMENT_TEXT.dueBeforeOpen, path: ["dueAt"] }),
  {
    title: "Titolo",
    subjectId: "Materia",
    count: "Numero di domande",
    timer: "Timer",
    mode: "Domande",
    units: "Unità",
    opensAt: "Apertura",
    dueAt: "Scadenza",
  },
);
export type AssignmentInputValue = z.output<typeof AssignmentInput>;

/** PATCH /api/assignments/:id: a new opening or due date, or the due date moved to now ("Chiudi ora"). */
export const AssignmentDatesInput = withLabels(
  z
    .object({
      opensAt: instant("Apertura").optional(),
      dueAt: instant("Scadenza").optional(),
      dueNow: z.literal(true, { error: "Scadenza adesso: atteso true." }).optional(),
    })
    .refine((v) => v.opensAt != null || v.dueAt != null || v.dueNow, { message: ASSIGNMENT_TEXT.nothingToChange }),
  { opensAt: "Apertura", dueAt: "Scadenza", dueNow: "Scadenza adesso" },
);

export type AssignmentSummary = {
  id: number;
  classId: number;
  className: string;
  title: string;
  subjectId: number;
  subjectName: string;
  questionCount: number;
  timeLimitSec: number | null;
  mode: "comune" | "mirato";
  units: number[] | null;
  opensAt: number;
  dueAt: number;
};

export type PupilRow = {
  userId: number;
  name: string;
  email: string;
  status: AssignmentStatus;
  score: number | null;
  correct: number | null;
  total: number | null;
  timeSec: number | null;
  finishedAt: number | null;
};

export type QuestionRow = {
  questionId: number;
  position: number | null;
  stem: string;
  answered: number;
  right: number;
  /** Share right, 0-100 (null before any answer). */
  rightPct: number | null;
  /** The wrong answer chosen most often (option text or typed text) and how many chose it. */
  topWrong: { answer: string; count: number } | null;
  /** A question of a live simulation: its figures are withheld until it ends. */
  sealed: boolean;
};

export type AssignmentReport = { assignment: AssignmentSummary; pupils: PupilRow[]; questions: QuestionRow[] };

/** One CSV row per pupil of the class (like the class results of a simulation). */
export function assignmentCsv(report: AssignmentReport): string {
  const T = ASSIGNMENT_TEXT;
  const rows = report.pupils.map((p) => ({
    name: p.name,
    email: p.email,
    status: T.status[p.status],
    score: p.score,
    correct: p.correct,
    total: p.total,
    timeSec: p.timeSec,
    finishedAt: p.finishedAt == null ? null : formatRomeDateTime(p.finishedAt),
  }));
  return toCsv(rows, [
    { key: "name", label: "Studente" },
    { key: "email", label: "Email" },
    { key: "status", label: "Stato" },
    { key: "score", label: "Punteggio (0-31)" },
    { key: "correct", label: "Corrette" },
    { key: "total", label: "Domande" },
    { key: "timeSec", label: "Tempo (s)" },
    { key: "finishedAt", label: "Consegnato il (ora di Roma)" },
  ]);
}

/** The file name of the export: compito-<title>.csv, ASCII only. */
export function assignmentCsvName(title: string): string {
  const slug = title
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
  return `compito-${slug || "classe"}.csv`;
}
