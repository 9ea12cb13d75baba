// Every Italian word of the road to the sitting (issue 46): the plan's card, /piano, the grades after a sitting, and
// the refusals of their writes. One place, so a copy fix is a one-line change.
import { PLAN_MINUTES_MAX, PLAN_MINUTES_MIN } from "./study-plan.ts";

const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

/** "unità 3", "unità 3 e 6". */
export const unitsText = (units: readonly number[]) =>
  units.length ? `unità ${units.slice(0, -1).join(", ")}${units.length > 1 ? " e " : ""}${units.at(-1)}` : "";

/** 95 → "1 h 35 min", 50 → "50 min". */
export function hoursText(minutes: number): string {
  const m = Math.round(minutes);
  const h = Math.floor(m / 60);
  return h ? `${h} h${m % 60 ? ` ${m % 60} min` : ""}` : `${m} min`;
}

export const PLAN_TEXT = {
  // The dashboard's card
  cardTitle: "Il piano di oggi",
  today: "Oggi",
  reviews: (n: number) => `${n} ${plural(n, "ripasso", "ripassi")}`,
  practice: (n: number, subject: string, units: readonly number[]) =>
    `${n} ${plural(n, "domanda", "domande")} di ${subject}${units.length ? ` (${unitsText(units)})` : ""}`,
  paper: (subject: string) => `1 prova completa di ${subject}`,
  examDay: (subjects: readonly string[]) => `1 giornata d'esame completa (${subjects.join(", ")})`,
  progress: (done: number, target: number) => `${done}/${target}`,
  done: "fatto",
  allDone: "Tutto fatto per oggi: ottimo lavoro!",
  restDay: "Oggi è un giorno di riposo nel tuo piano.",
  examToday: "Oggi è il giorno dell'appello: in bocca al lupo!",
  overBudget: (minutes: number) =>
    `La giornata d'esame dura ${hoursText(minutes)}, più del tempo che hai indicato per oggi: liberala se puoi.`,
  daysLeft: (days: number, label: string) => (days === 1 ? `${label}: domani` : `${label}: tra ${days} giorni`),
  minutesToday: (minutes: number, budget: number) => `${hoursText(minutes)} su ${hoursText(budget)}`,
  goReview: "Ripassa",
  goPractice: "Inizia",
  goPaper: "Avvia la prova",
  goExamDay: "Inizia la giornata",
  openPlan: "Apri il piano",
  noPlan: "Scegli l'appello e quanto tempo hai: ogni giorno ti diciamo cosa fare fino alla prova.",
  makePlan: "Crea il piano",
  sittingPassed: "L'appello del tuo piano è passato: inserisci i voti ricevuti e pianifica il prossimo.",
  editionChanged: "Il tuo piano era per un'altra edizione dell'esame: sceglilo di nuovo.",

  // /piano
  pageTitle: "Il piano fino alla prova",
  intro:
    "Il piano si ricalcola ogni giorno da quello che hai fatto: ripassi in scadenza, domande nuove dove sei più debole, prove complete nelle ultime settimane.",
  sitting: "Appello",
  sittingOption: (label: string, date: string) => `${label} · ${date}`,
  noSitting: "Nessun appello in programma per l'edizione in corso.",
  minutes: "Minuti al giorno",
  minutesOther: "Altro (minuti)",
  weekdays: "Giorni con un tempo diverso (facoltativo)",
  weekdayNames: ["Lunedì", "Martedì", "Mercoledì", "Giovedì", "Venerdì", "Sabato", "Domenica"],
  weekdaySame: "Come gli altri giorni",
  weekdayOff: "Riposo",
  save: "Salva il piano",
  saved: "Piano salvato.",
  saveFailed: "Salvataggio non riuscito: riprova.",
  remove: "Elimina il piano",
  removed: "Piano eliminato.",
  calendar: "Calendario fino all'appello",
  calendarSummary: (done: number, missed: number, left: number) =>
    `${done} ${plural(done, "giorno fatto", "giorni fatti")}, ${missed} ${plural(missed, "saltato", "saltati")}, ${left} ${plural(left, "giorno", "giorni")} in programma.`,
  status: {
    fatto: "Fatto",
    parziale: "In parte",
    saltato: "Saltato",
    riposo: "Riposo",
    oggi: "Oggi",
    futuro: "In programma",
    esame: "Giornata d'esame",
    prova: "Prova completa",
  },
  trend: "Probabilità di superare l'esame, giorno per giorno",
  trendSummary: (parts: readonly string[]) => `Oggi: ${parts.join("; ")}.`,
  trendNone: "Servono almeno 30 risposte in una materia per la previsione.",
  upcoming: "I prossimi giorni",

  // After the sitting
  afterTitle: "Dopo la prova",
  afterIntro:
    "Inserisci i voti ricevuti: sono visibili solo a te. Li leggiamo con le regole dell'edizione: sezione, punteggio in graduatoria e cosa puoi ancora migliorare.",
  enterFor: (label: string) => `Voti di ${label}`,
  gradeLabel: (subject: string) => `Voto di ${subject}`,
  gradeHint: (max: number, lode: number) =>
    `Da 0 a ${max}; ${lode} per ${max} e lode. Scegli «non sostenuto» se non l'hai sostenuto.`,
  notSat: "non sostenuto",
  saveGrades: "Salva i voti",
  gradesSaved: "Voti salvati.",
  bestTitle: "Il voto che conta per ogni esame",
  bestFrom: (label: string) => `da ${label}`,
  notValid: "non valido",
  improveTitle: (label: string) => `Cosa può migliorare ${label}`,
  recupero: (gain: number) => `da superare: vale una sezione in più, fino a +${gain} punti`,
  miglioramento: (gain: number) => `superato: un voto più alto vale fino a +${gain} punti`,
  nothingToImprove: "Hai il massimo in ogni esame.",
  planNext: (label: string) => `Pianifica ${label}`,
  planNextHint: "Il piano per il prossimo appello dà più tempo agli esami da recuperare.",
  aggregates: (n: number) => `Tra i ${n} studenti che hanno inserito i voti di questo appello:`,
  aggregatePassed: (subject: string, pct: number) => `${subject}: superato dal ${pct}%`,
  aggregatesHidden: (min: number) => `Le statistiche degli altri studenti compaiono con almeno ${min} voti inseriti.`,

  // Refusals (the API's and the screen's)
  errors: {
    edition: "Puoi pianificare solo un appello dell'edizione in corso: ricarica la pagina e scegli di nuovo.",
    sitting: "Appello non trovato nell'edizione in corso: scegline uno dall'elenco.",
    sittingStarted: "Questo appello è già iniziato: scegli il prossimo.",
    minutes: `Minuti al giorno: un numero intero da ${PLAN_MINUTES_MIN} a ${PLAN_MINUTES_MAX}.`,
    weekday: `Minuti di un giorno: un numero intero da 0 (riposo) a ${PLAN_MINUTES_MAX}.`,
    weekdays: "Servono 7 valori, uno per giorno, da lunedì a domenica.",
    noPlan: "Non hai ancora un piano: creane uno da /piano.",
    gradesEdition: "Voti di un'altra edizione: inserisci quelli dell'edizione in corso.",
    gradesNotYet: "Questo appello non si è ancora svolto: potrai inserire i voti dopo la prova.",
    gradesSubjects: "Inserisci un voto (o «non sostenuto») per ciascun esame dell'appello, una volta sola.",
    grade: (max: number, lode: number) => `Voto non valido: da 0 a ${max}, oppure ${lode} per ${max} e lode.`,
    gradeWhole: (pass: number) => `Da ${pass} in su il voto è un numero intero (ad esempio 24).`,
    gradeDecimals: "Sotto la sufficienza il voto ha al massimo due decimali (ad esempio 17,8).",
  },
} as const;
