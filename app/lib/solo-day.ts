// The exam day alone (issue 46, point 2), pure: the default edition's whole day for one student, run by the live
// simulation's machinery (a simulation whose audience is that student: the room, the runner, the seal, the grading).
// Here: what the day is (dayTemplate's rows: the edition's papers in its order, its minutes and breaks), the break the
// student may cut short (and so how far the rest of their timeline moves earlier), where the day stands among the days
// other students have done, and every Italian word of it.
import { AGGREGATE_MIN_STUDENTS } from "./sitting-results.ts";
import { type FlowSubject, phaseAt } from "./simulation.ts";
import { studentFlow } from "./simulation-day.ts";

/** Other students' days a day is compared with before its percentile is shown (as the grades' aggregates). */
export const SOLO_DAY_MIN_PEERS = AGGREGATE_MIN_STUDENTS;

/** The days alone /giornata lists (the most recent). */
export const SOLO_DAYS_LISTED = 20;

/**
 * How much of the candidate's current break is left at `now` (ms, their own timeline: every subject extended by their
 * extra time, the breaks as they are), or null outside a break. Skipping it moves the whole rest of the day that much
 * earlier (shiftedTimeline), so the next paper opens now.
 */
export function breakLeft(
  flow: readonly FlowSubject[],
  startTime: number,
  extraPct: number,
  now: number,
): { index: number; ms: number } | null {
  const phase = phaseAt(studentFlow(flow, extraPct), startTime, now);
  if (phase.kind !== "break") return null;
  return { index: phase.index, ms: phase.endsAt - now };
}

/** The day's place among the days other students have done: shown only over SOLO_DAY_MIN_PEERS of them. */
export type SoloStanding = {
  /** Other students' graded days of the same edition. */
  peers: number;
  /** The share of them with a strictly lower ranking key (percentileOf), or null below SOLO_DAY_MIN_PEERS. */
  percentile: number | null;
};

/** The percentile over the others' days (the ranking's percentileOf, this day counted in), or null below the minimum. */
export function soloStanding(peers: number, percentile: number): SoloStanding {
  return { peers, percentile: peers < SOLO_DAY_MIN_PEERS ? null : percentile };
}

const minutesText = (n: number) => `${n} min`;

export const SOLO_TEXT = {
  pageTitle: "La giornata d'esame, da solo",
  intro: (edition: string) =>
    `Le prove di ${edition} nell'ordine e con i tempi della giornata vera, pause comprese. L'ora è quella del server, le risposte si salvano da sole e puoi ricaricare la pagina o chiuderla e riprendere. Le soluzioni restano sigillate fino alla fine della giornata.`,
  dayTitle: (edition: string) => `Giornata d'esame ${edition}`,
  paper: (name: string, minutes: number) => `${name}: ${minutesText(minutes)}`,
  pause: (minutes: number) => `Pausa: ${minutesText(minutes)} (puoi accorciarla)`,
  extraTime: (pct: number) => `Con il tuo tempo aggiuntivo: +${pct} % su ogni prova.`,
  total: (minutes: number) => `Durata complessiva: ${minutesText(minutes)}`,
  start: "Inizia la giornata d'esame",
  starting: "Avvio in corso…",
  startFailed: "Avvio non riuscito: controlla la connessione e riprova.",
  resume: "Riprendi la giornata in corso",
  running: "Hai una giornata d'esame in corso.",
  pastTitle: "Le tue giornate",
  noPast: "Nessuna giornata conclusa finora.",
  sectionOf: (section: number, key: number) => `Sezione ${section} · ${key.toLocaleString("it-IT")} punti`,
  notGraded: "In correzione",
  notSat: "Non svolta: nessuna risposta data",
  result: "Vedi il risultato",
  resultOf: (when: string) => `Vedi il risultato della giornata del ${when}`,
  openDay: "Giornata d'esame da solo",
  openDayHint: "Le tre prove dell'edizione in corso di seguito, con le pause: quando vuoi, da solo.",
  openDayGo: "Vai alla giornata",
  // The runner
  skipBreak: "Salta la pausa",
  skipBreakHint: "La prossima prova inizia subito; il resto della giornata si sposta prima.",
  skipping: "Un momento…",
  // The result
  standingTitle: "Rispetto alle giornate degli altri studenti",
  standing: (percentile: number, peers: number) =>
    `Hai fatto meglio del ${percentile}% delle ${peers.toLocaleString("it-IT")} giornate svolte da altri studenti.`,
  standingHidden: (min: number, peers: number) =>
    `Il confronto compare con almeno ${min} giornate svolte da altri studenti (finora ${peers}).`,
  errors: {
    edition: "Puoi svolgere solo la giornata dell'edizione in corso: ricarica la pagina.",
    running: "Hai già una giornata d'esame in corso: riprendila da «Riprendi la giornata in corso».",
    noEdition: "Nessuna edizione dell'esame è impostata: la giornata non si può avviare.",
    notYours: "Giornata d'esame non trovata.",
    notInBreak: "Non sei in pausa: puoi saltare solo una pausa in corso.",
    moved: "La giornata è cambiata mentre saltavi la pausa: riprova.",
    short: (name: string) => `Domande insufficienti per ${name}: la giornata non si può avviare.`,
  },
} as const;
