// What the room says to people (Italian, one place) and the shapes of its answers to the Worker's calls.
import type { SimulationResult } from "../../app/lib/simulation";

export const ROOM_TEXT = {
  badMessage: "Messaggio non valido.",
  notStarted: "La simulazione non è ancora iniziata.",
  closed: "Tempo scaduto per questa materia: la risposta non è stata salvata.",
  notYet: "Questa materia non è ancora iniziata.",
  unknownQuestion: "Domanda non presente in questa simulazione.",
  badValue: "Risposta non valida.",
  finished: "Tempo scaduto: la simulazione è già stata corretta.",
  unknownSubject: "Materia inesistente in questa simulazione.",
  keyNotForStaff: "Le domande delle materie si aprono solo per i candidati.",
  noKey: "Chiave della materia non disponibile: le domande arrivano dal server.",
  notStored: "Risposta non salvata per un errore del server: inviala di nuovo.",
  staleResume: "Accesso alla simulazione scaduto: ricollegati.",
  onlySockets: "Questo indirizzo accetta solo connessioni WebSocket.",
  deleted: "Simulazione eliminata",
  moved: "Cambio stanza",
} as const;

export type AttemptOutcome =
  | { ok: true; attemptId: number; result: SimulationResult; pending?: false }
  | { ok: true; pending: true; saved: number }
  | { ok: false; status: number; error: string };

export type RoomStats = { shard: number; connected: number; answered: number; answers: number; graded: boolean };
