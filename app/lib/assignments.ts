// Compiti (issue 32): a teacher's practice set for a class, with an opening and a due date (Rome time). The pure half,
// shared by the server and the screens: the Italian texts, the input schemas, a pupil's status and the CSV export.
import { z } from "zod";
import { MAX_QUESTIONS, MIN_QUESTIONS } from "./constants";
import { toCsv } from "./csv";
import { instant } from "./forms/rush-event";
import { formatRomeDateTime } from "./rush";
import { withLabels } from "./validation";

export const ASSIGNMENT_TITLE_MAX = 120;

/** Every Italian word of the feature: a copy fix is a one-line change. */
export const ASSIGNMENT_TEXT = {
  nav: "Compiti",
  pageTitle: "Compiti",
  pageIntro: "I compiti assegnati dai docenti delle tue classi. Si svolgono come un test di pratica.",
  none: "Nessun compito per ora: quando un docente ne assegna uno alla tua classe, lo trovi qui.",
  start: "Inizia",
  resume: "Riprendi",
  seeResult: "Vedi il risultato",
  dueOn: (at: number) => `Scadenza: ${formatRomeDateTime(at)}`,
  opensOn: (at: number) => `Si apre il ${formatRomeDateTime(at)}`,
  overdue: "Scaduto: puoi ancora consegnarlo, risulterà in ritardo.",
  reminderTitle: "Compiti da consegnare",
  reminderAll: "Tutti i compiti",
  withTimer: (sec: number) => `timer ${Math.round(sec / 60)} min`,
  noTimer: "senza timer",
  questions: (n: number) => `${n} ${n === 1 ? "domanda" : "domande"}`,
  targeted: "Test mirato",
  status: { fatto: "Fatto", in_ritardo: "In ritardo", non_fatto: "Non fatto" },
  // The teacher's tab
  tabTitle: "Compiti",
  tabIntro: "Assegna a una classe un test di pratica con una scadenza; vedi chi l'ha fatto e dove sbaglia la classe.",
  noClasses: "Crea prima una classe nella scheda Classi.",
  newTitle: "Nuovo compito",
  fieldClass: "Classe",
  fieldTitle: "Titolo",
  fieldSubject: "Materia",
  fieldCount: "Numero di domande",
  fieldTimer: "Timer",
  timerEdition: "Timer dell'edizione",
  timerNone: "Nessun timer",
  fieldMode: "Domande",
  modeCommon: "Le stesse per tutta la classe",
  modeTargeted: "Test mirato per ogni studente",
  fieldUnits: "Unità del programma (nessuna scelta: tutta la materia)",
  fieldOpens: "Apertura (ora di Roma)",
  fieldDue: "Scadenza (ora di Roma)",
  create: "Assegna",
  created: "Compito assegnato.",
  createError: "Compito non assegnato.",
  list: "Compiti assegnati",
  noAssignments: "Nessun compito assegnato a questa classe.",
  open: "Apri",
  report: (title: string) => `Compito: ${title}`,
  perPupil: "Per studente",
  perQuestion: "Per domanda",
  colStudent: "Studente",
  colStatus: "Stato",
  colScore: "Punteggio",
  colTime: "Tempo",
  colSubmitted: "Consegnato il",
  colQuestion: "Domanda",
  colAnswered: "Risposte",
  colRight: "Corrette",
  colWrong: "Errore più scelto",
  noWrong: "—",
  sealedRow: "Domanda di una simulazione in corso: dati nascosti fino alla fine.",
  noAnswersYet: "Nessuno studente ha ancora consegnato.",
  counts: (done: number, late: number, notDone: number) =>
    `Fatto: ${done} · In ritardo: ${late} · Non fatto: ${notDone}`,
  exportCsv: "Esporta CSV",
  closeNow: "Chiudi ora (scadenza adesso)",
  closedNow: "Scadenza spostata ad adesso: chi consegna ora risulta in ritardo.",
  remove: "Elimina compito",
  removed: "Compito eliminato.",
  saveError: "Modifica non salvata.",
  // Refusals
  notFound: "Compito non trovato.",
  notMember: "Questo compito è di una classe di cui non fai parte.",
  notOpenYet: (at: number) => `Il compito non è ancora aperto: si apre il ${formatRomeDateTime(at)}.`,
  dueBeforeOpen: "La scadenza deve venire dopo l'apertura.",
  unknownSubject: "Materia non trovata.",
  unknownUnits: (units: number[]) => `Unità non presenti nel programma di questa materia: ${units.join(", ")}.`,
  noEditionTimer: "L'edizione d'esame non prevede questa materia: scegli «Nessun timer».",
  noQuestions: "Nessuna domanda disponibile per questa materia e queste unità.",
  nothingToChange: "Indica la nuova apertura o scadenza.",
} as const;

export const ASSIGNMENT_STATUSES = ["fatto", "in_ritardo", "non_fatto"] as const;
export type AssignmentStatus = (typeof ASSIGNMENT_STATUSES)[number];

/** A pupil's status: submitted by the due date (fatto), after it (in ritardo), or not submitted (non fatto). */
export function assignmentStatus(
  attempt: { status: string | null; finishedAt: number | null } | null,
  dueAt: number,
): AssignmentStatus {
  if (attempt?.status !== "completed" || attempt.finishedAt == null) return "non_fatto";
  return attempt.finishedAt <= dueAt ? "fatto" : "in_ritardo";
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
