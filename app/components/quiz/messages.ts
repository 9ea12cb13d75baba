import { TIME_ZONE } from "~/lib/constants";

// Every Italian string of the practice screens, so a copy fix is a one-line change.
// Texts quoted by the spec are used to the letter.
export const T = {
  newTestTitle: "Nuovo test",
  fullPaperTitle: "Prova completa",
  fullPaperEdition: "Formato dell'esame",
  fullPaperHint: "Una prova d'esame vera: 31 domande di una materia, nella proporzione e nel tempo del formato scelto.",
  fullPaperStart: "Avvia la prova completa",
  fullPaperChooseSubject: "Scegli Chimica, Fisica o Biologia qui sopra per la prova completa.",
  subject: "Materia",
  chooseSubject: "Scegli una materia",
  topic: "Sotto-argomento",
  allTopics: "Tutti i sotto-argomenti",
  questionCount: "Numero di domande",
  questionCountSlider: "Numero di domande (cursore)",
  countHint: "Seleziona tra 1 e 31",
  decrease: "Diminuisci il numero di domande",
  increase: "Aumenta il numero di domande",
  timer: "Timer",
  start: "Avvia test",
  loading: "Caricamento…",
  loadError: "Errore caricamento quiz",
  noRedo: "Nessuna domanda per il ripasso",
  quizTitle: "QUIZ",
  // A /test link that does not start by itself (issue 28): its settings and one button.
  confirmTitle: "Avvia il quiz",
  confirmRushTitle: "Avvia il quiz Rush",
  confirmNote: "Controlla le impostazioni: il quiz parte quando premi Avvia.",
  confirmRushNote:
    "È il tuo unico tentativo Quiz Rush in questa materia: controlla le impostazioni, il quiz e il tempo partono quando premi Avvia.",
  confirmStart: "Avvia",
  confirmCancel: "Annulla",
  settingsLabel: "Impostazioni del quiz",
  kind: "Tipo",
  kindPractice: "Esercitazione",
  kindRush: "Quiz Rush",
  kindRedo: "Ripasso delle domande sbagliate",
  questions: "Domande",
  noTimer: "Nessuno",
  targeted: "Test mirato",
  remaining: "Tempo residuo",
  previous: "Domanda precedente",
  next: "Domanda successiva",
  submit: "Consegna",
  submitting: "Invio in corso…",
  submitError: "Errore invio tentativo",
  report: "Segnala",
  alreadyReported: "già segnalata",
  reportTitle: "Segnala domanda all'amministratore",
  reportMessage: "Descrivi il problema (facoltativo)",
  reportSend: "Invia segnalazione",
  reportSent: "Segnalazione inviata. Grazie!",
  reportFailedPrefix: "Errore: ",
  reportFailedDefault: "Invio fallito",
  gapHint: "Scrivi solo la parola o il numero (senza unità di misura)",
  summaryGrade: "Voto dell'esame",
  summaryGradePassed: "superato",
  summaryGradeFailed: "non superato",
  summaryEdition: (label: string) => `Formato: ${label}`,
  summaryFullPaper:
    "Prova completa: il voto segue le regole dell'esame (da 18 si arrotonda all'unità, 31 è 30 e lode).",
  gapSheetRule: "Come sul foglio d'esame: stampatello, un carattere per casella.",
  gapBoxLabel: (i: number, boxes: number) => `Casella ${i} di ${boxes}`,
  gapBoxesLeft: (left: number, boxes: number) =>
    left === 0 ? `Nessuna casella libera (${boxes} su ${boxes})` : `Caselle libere: ${left} su ${boxes}`,
  navigator: "Naviga",
  summaryTitle: "Riepilogo tentativo",
  notFound: "Tentativo non trovato",
  loadFailed: "Errore caricamento",
  summaryReportTitle: "Segnala domanda",
  sealedChip: "Soluzione nascosta",
  sealedNote:
    "Questa domanda fa parte di una simulazione in corso, di un Quiz Rush, di un compito o di un quiz scaricato per l'offline che non hai ancora consegnato: la soluzione, la spiegazione e la tua risposta saranno visibili quando saranno conclusi.",
  sealedAnswer: "Nascosta fino al termine",
  partialBySimulation: "Risultato parziale fino al termine della simulazione",
  partialByRush: "Risultato parziale fino alla consegna del tuo Quiz Rush",
  partialByAssignment: "Risultato parziale fino alla consegna o alla scadenza del tuo compito",
  partialByOffline: "Risultato parziale fino alla consegna del tuo quiz scaricato per l'offline",
  partialShort: "parziale",
  summaryReason: "Motivo (facoltativo)",
  summaryReportSent: "Segnalazione inviata ✓",
  summaryReportFailedPrefix: "Errore invio segnalazione: ",
  summaryReportFailedDefault: "Risposta non valida",
  attemptsTitle: "Tentativi passati",
  attemptsEmpty: "Nessun tentativo trovato con i filtri correnti.",
  search: "Cerca",
  searchPlaceholder: "Argomento, materia o numero del tentativo",
  from: "Dal",
  to: "Al",
  completed: "Completati",
  abandoned: "Interrotti",
  sort: "Ordina per",
  repeat: "Ripeti",
  reportsTitle: "Le tue segnalazioni",
  reportsEmpty: "Nessuna segnalazione trovata.",
  reviewTitle: "RIPASSO – DOMANDE SBAGLIATE",
  reviewEmptyFilters: "Nessuna domanda corrisponde ai filtri.",
  paused: "in pausa",
  reviewCount: "Numero di domande",
  reviewStart: "Avvia ripasso",
  staleNotice:
    "Sei offline o il server non risponde: questi dati sono l'ultima copia salvata su questo dispositivo e potrebbero non essere aggiornati.",
} as const;

/** Why a result is partial: what seals the questions it leaves out (simulation/seal.server.ts SealReason). */
export function partialReason(reason: "simulation" | "rush" | "assignment" | "offline"): string {
  const texts = {
    simulation: T.partialBySimulation,
    rush: T.partialByRush,
    assignment: T.partialByAssignment,
    offline: T.partialByOffline,
  };
  return texts[reason];
}

/** What a partial result leaves out (after partialReason). */
export function partialDetail(hidden: number): string {
  return hidden === 1
    ? "il risultato non conta 1 domanda, la cui soluzione è ancora nascosta."
    : `il risultato non conta ${hidden} domande, la cui soluzione è ancora nascosta.`;
}

export const TYPE_LABELS = { mc: "Risposta multipla", gap: "Completamento" } as const;

export const LETTERS = ["A", "B", "C", "D", "E", "F", "G", "H"];

export function formatDuration(totalSec: number): string {
  const s = Math.max(0, Math.round(totalSec));
  const m = Math.floor(s / 60);
  const sec = s % 60;
  if (m === 0) return `${sec} s`;
  return `${m} min ${String(sec).padStart(2, "0")} s`;
}

// Made at the first call, not when the module loads: every student screen imports this module, most never format a
// date, and the first Intl.DateTimeFormat with a time zone costs the browser its locale and zone data (110–150 ms of a
// 4x-throttled main thread before hydration in bench/phone-profile.ts, issue 47).
let attemptDate: Intl.DateTimeFormat | undefined;

/** An ISO instant as "22 nov 2026, 10:15", in Italy's time. */
export function formatDateTime(at: string | null): string {
  if (!at) return "—";
  attemptDate ??= new Intl.DateTimeFormat("it-IT", { dateStyle: "medium", timeStyle: "short", timeZone: TIME_ZONE });
  return attemptDate.format(new Date(at));
}
