// Quiz Rush: texts, time formatting (Europe/Rome) and the small pure rules shared by the server
// and the /rush screen.
import { TZDate } from "@date-fns/tz";
import { DEFAULT_RUSH_QUESTION_COUNT, MAX_QUESTIONS, MIN_QUESTIONS, SCORE_SCALE, TIME_ZONE } from "./constants";
import { isCalendarDay, isClockTime, italianClock } from "./days";

export const RUSH_TEXT = {
  title: "Quiz Rush",
  tagline: "Vinci il tempo: completa più materie possibili.",
  reset: "Reset",
  resetTooltip: "Svuota punteggi locali",
  resetDone: "Punteggi locali svuotati",
  countdownTitle: "Tempo rimanente Quiz Rush",
  noEvent: "Nessun evento Rush attivo",
  subjects: "Materie",
  maxScore: "Max 31",
  start: "Avvia quiz",
  completed: "Completato",
  started: "Iniziato, non consegnato",
  perSubject: "Classifica per materia",
  overall: "Posizione totale",
  overallNote: "La posizione totale potrebbe aggiornarsi dopo la convalida del sistema.",
  estimate: "stima",
  duplicate: "Hai già completato il quiz per questa materia nella sessione Rush attiva.",
  preparing: "Preparazione quiz…",
} as const;

/** Local storage keys of spec section 3 (caches of server state only). */
export const RUSH_STORAGE = {
  results: "unicum_qr_results",
  start: "unicum_qr_start",
  end: "unicum_qr_end",
  sessionSubject: "qr_subject",
  sessionEvent: "qr_event",
} as const;

/** Remaining time as 'days g HH:MM:SS' (never negative). */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const days = Math.floor(total / 86400);
  const h = Math.floor((total % 86400) / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${days} g ${pad(h)}:${pad(m)}:${pad(s)}`;
}

/** Share of the event window already elapsed, 0-100 (whole percent). */
export function elapsedPercent(startsAt: number, endsAt: number, now: number): number {
  const span = endsAt - startsAt;
  if (span <= 0) return 100;
  return Math.min(100, Math.max(0, Math.round(((now - startsAt) / span) * 100)));
}

/** An instant shown in Italian, in Europe/Rome: 22/11/2026, 09:15. */
export function formatRomeDateTime(at: number | Date): string {
  const c = italianClock(at);
  return `${c.dd}/${c.MM}/${c.yyyy}, ${c.HH}:${c.mm}`;
}

/** The value of an <input type="datetime-local"> for an instant, read in Europe/Rome. */
export function toRomeInputValue(at: number | Date): string {
  const c = italianClock(at);
  return `${c.yyyy}-${c.MM}-${c.dd}T${c.HH}:${c.mm}`;
}

const LOCAL_DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}(?::\d{2})?)$/;

/**
 * Reads a wall-clock time entered in Europe/Rome ('2026-11-22T09:15') as an instant (epoch ms).
 * Returns null when the text is not such a time, or names a day or a time that does not exist (2026-02-31, 10:75).
 */
export function fromRomeInputValue(value: string): number | null {
  const m = LOCAL_DATE_TIME.exec(value.trim());
  if (!m || !isCalendarDay(m[1]!) || !isClockTime(m[2]!)) return null;
  const [y, mo, d] = m[1]!.split("-").map(Number) as [number, number, number];
  const [h, mi, s] = m[2]!.split(":").map(Number) as [number, number, number?];
  const t = new TZDate(y, mo - 1, d, h, mi, s ?? 0, TIME_ZONE).getTime();
  return Number.isNaN(t) ? null : t;
}

/** A rush score read from anywhere outside the server's records is only ever clamped to 0-31. */
export function clampRushScore(score: number): number {
  if (!Number.isFinite(score)) return 0;
  return Math.min(SCORE_SCALE, Math.max(0, score));
}

/** Spec section 9: fallback overall position estimate when the server cannot answer. */
export function estimatedOverallPosition(score: number): number {
  return Math.max(1, 200 - Math.round((clampRushScore(score) / SCORE_SCALE) * 180));
}

/** Which icon a subject card shows, from the subject's name. */
export type SubjectIconKind = "biology" | "chemistry" | "physics" | "maths" | "logic" | "book";

export function subjectIconKind(name: string): SubjectIconKind {
  const n = name.toLowerCase();
  if (n.includes("biolog")) return "biology";
  if (n.includes("chimic")) return "chemistry";
  if (n.includes("fisic")) return "physics";
  if (n.includes("matemat")) return "maths";
  if (n.includes("logic") || n.includes("ragionament")) return "logic";
  return "book";
}

/** Query of /test for a rush quiz (spec: /quiz-rush/start), or null when the request is unusable. */
export function rushTestQuery(input: {
  subject: string | null;
  topic?: string | null;
  q?: string | null;
  time?: string | null;
  eventId: number;
}): string | null {
  const positive = (v: string | null | undefined) => (v != null && /^\d+$/.test(v) && Number(v) > 0 ? Number(v) : null);
  const subject = positive(input.subject);
  if (!subject) return null;
  const params = new URLSearchParams({ subject: String(subject) });
  if (input.topic != null && input.topic !== "") {
    const topic = positive(input.topic);
    if (!topic) return null;
    params.set("topic", String(topic));
  }
  const q = positive(input.q);
  params.set("q", String(q ? Math.min(MAX_QUESTIONS, Math.max(MIN_QUESTIONS, q)) : DEFAULT_RUSH_QUESTION_COUNT));
  if (input.time != null && input.time !== "") {
    const time = positive(input.time);
    if (!time) return null;
    params.set("time", String(time));
  }
  params.set("rushEventId", String(input.eventId));
  return params.toString();
}
