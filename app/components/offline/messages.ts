// Every Italian string of the installable, offline app (issue 47), so a copy fix is a one-line change. The static
// page the service worker shows for a screen never opened keeps its own copy (public/offline.html).
import { OFFLINE_QUIZZES_KEPT } from "~/lib/constants";

export const O = {
  // An attempt taken offline, wherever it is listed (Tentativi, dashboard, review of mistakes).
  takenOffline: "Svolto offline",
  takenOfflineHint: "Svolto senza connessione: la data e il tempo sono quelli del dispositivo.",
  wrongOffline: "da un quiz offline",
  dashboardOffline: (n: number) =>
    n === 1
      ? "1 tentativo svolto offline: il suo tempo è quello del dispositivo."
      : `${n} tentativi svolti offline: il loro tempo è quello del dispositivo.`,

  // Screens shown from the copy on this device.
  offlineData: (when: string) => `Offline · dati ${when}`,
  refresh: "Aggiorna i dati",
  offlineTitle: "Sei offline",
  offlineScreen:
    "Questa pagina non è salvata su questo dispositivo: si aprirà quando torna la connessione. Intanto puoi usare:",
  offlineQuizzesLink: "I quiz scaricati per l'offline",
  offlineSavedScreens: "Le pagine già aperte, con gli ultimi dati salvati:",
  offlineSignOut:
    "Sei offline: per uscire serve la connessione. I tuoi dati restano su questo dispositivo finché non esci.",
  signOutPending: (n: number) =>
    `${n === 1 ? "C'è 1 quiz svolto offline non ancora inviato" : `Ci sono ${n} quiz svolti offline non ancora inviati`}: uscendo verrà cancellato da questo dispositivo. Uscire comunque?`,

  // "Scarica per l'offline" on /test/nuovo and the list of downloaded quizzes.
  downloadTitle: "Allenati senza connessione",
  downloadHint: `Scarica fino a ${OFFLINE_QUIZZES_KEPT} quiz con le impostazioni scelte sopra: li svolgi anche senza connessione e vengono inviati e corretti appena torna il segnale.`,
  download: "Scarica per l'offline",
  downloading: "Download in corso…",
  downloaded: "Quiz scaricato: lo trovi qui sotto, anche offline.",
  downloadFull: `Hai già ${OFFLINE_QUIZZES_KEPT} quiz scaricati: svolgine uno prima di scaricarne un altro.`,
  downloadNeedsSubject: "Scegli una materia qui sopra per scaricare un quiz.",
  downloadOffline: "Sei offline: per scaricare un quiz serve la connessione.",
  downloadedList: "Scaricati su questo dispositivo",
  noneDownloaded: "Nessun quiz scaricato su questo dispositivo.",
  questions: (n: number) => (n === 1 ? "1 domanda" : `${n} domande`),
  downloadedOn: (when: string) => `scaricato ${when}`,
  expiresOn: (when: string) => `da consegnare entro ${when}`,
  startOffline: "Avvia",
  resumeOffline: "Riprendi",
  remove: "Elimina",
  removeConfirm: "Eliminare questo quiz da questo dispositivo? Le risposte date andranno perse.",
  statusNew: "Da svolgere",
  statusStarted: "Iniziato",
  statusQueued: "In attesa di connessione per l'invio",
  statusSent: "Inviato e corretto",
  statusRefused: "Non accettato",
  seeSummary: "Vedi il riepilogo",
  seeAnswers: "Vedi le risposte",

  // The runner of a downloaded quiz.
  runnerBadge: "Quiz scaricato · funziona anche offline",
  runnerNotFound: "Questo quiz non è su questo dispositivo: scaricane uno da Nuovo test.",
  queued:
    "Consegnato su questo dispositivo: verrà inviato e corretto appena torna la connessione. Puoi chiudere la pagina.",
  sentNow: "Inviato e corretto.",
  refusedTitle: "Il server non ha accettato questo quiz",
  refusedKept: "Le tue risposte restano qui sotto.",
  reportOffline: "Per segnalare una domanda serve la connessione.",

  // The update of the app.
  updateReady: "È disponibile una nuova versione di Unicum.",
  updateNow: "Aggiorna",
  updateLater: "Più tardi",
} as const;
