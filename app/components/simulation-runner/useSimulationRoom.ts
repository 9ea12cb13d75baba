// The browser side of a live simulation: the room socket (reconnecting), the server clock
// (offset from several ping round trips, fastest kept) and the answer autosave with acks.
// Time is always performance.now() + offset: the device's wall clock is never used.
// Messages are the zod schemas of app/lib/simulation-protocol.ts, shared with the room.
import { useCallback, useEffect, useRef, useState } from "react";
import {
  blipFlushAt,
  firstResyncMs,
  PINGS_PER_SYNC,
  RESYNC_MS,
  ReconnectBackoff,
  syncsOnOpen,
} from "~/lib/runner-timing";
import { estimateClockOffset, type ClockSample } from "~/lib/simulation";
import {
  encodeClientMessage,
  parseFrame,
  ROOM_MOVED_CODE,
  ServerMessage,
  type HelloMessage,
  type SavedAnswers,
} from "~/lib/simulation-protocol";
import { type KeyAnswer, RoomKeyBox } from "./room-keys";

export type SaveState = "saved" | "pending" | "rejected";
export type { KeyAnswer };

export type RoomEvents = {
  /** Avvia: the start instant, with this candidate's accommodation and the room's last end (when the room says). */
  onStart: (startTime: number, extraTimePct?: number, roomEndsAt?: number) => void;
  onHello: (hello: HelloMessage) => void;
  /** The room closed subjects [0, closedThrough) for good: answers to them are refused from now on. */
  onSubjectClosed: (closedThrough: number) => void;
  /** The room has graded everybody: the attempt can be fetched now. */
  onEnd: () => void;
};

type PendingAnswer = { seq: number; subjectId: number; questionId: number; value: string };

export function useSimulationRoom(
  simulationId: string | null,
  events: RoomEvents,
  httpSave: (subjectId: number, questionId: number, value: string) => Promise<boolean>,
) {
  const [connected, setConnected] = useState(false);
  const [offset, setOffset] = useState<number | null>(null);
  const [saveStates, setSaveStates] = useState<Record<string, SaveState>>({});
  const samples = useRef<ClockSample[]>([]);
  const wsRef = useRef<WebSocket | null>(null);
  const seq = useRef(0);
  /** Latest unacknowledged answer per question: resent after a reconnect. */
  const pending = useRef(new Map<number, PendingAnswer>());
  /**
   * When the open socket dropped, or the comeback the server asked for (null while open, or when it never opened): the
   * blip's grace counts from here.
   */
  const droppedAt = useRef<number | null>(null);
  /** The end of the blip's grace: the answers still waiting then go over HTTP. */
  const blipTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  /** Versions (seq) of answers on their way over HTTP: not sent twice. */
  const sentOverHttp = useRef(new Set<number>());
  const eventsRef = useRef(events);
  eventsRef.current = events;
  const httpSaveRef = useRef(httpSave);
  httpSaveRef.current = httpSave;
  /** Sealed prefetch: the subject keys the room sent, and who waits for one. */
  const keys = useRef(new RoomKeyBox());

  const addSample = useCallback((s: ClockSample) => {
    samples.current = [...samples.current.slice(-11), s];
    const est = estimateClockOffset(samples.current, 3);
    if (est) setOffset(est.offset);
  }, []);

  const mark = (questionId: number, state: SaveState) => setSaveStates((m) => ({ ...m, [questionId]: state }));

  useEffect(() => {
    if (!simulationId) return;
    keys.current.forget();
    // The room's resume token (hello, start): a reconnect sends it and skips the server's session lookups.
    let resume: string | undefined;
    let closed = false;
    // Starts over only once the room has greeted a socket (its hello) or it stayed open a few seconds (app/lib/runner-timing.ts).
    const backoff = new ReconnectBackoff();
    let syncTimer: ReturnType<typeof setTimeout> | undefined;
    // The last pong, over every socket of this sitting: a reconnect with a recent estimate does not sync at once.
    let lastPongAt: number | null = null;
    let reconnectTimer: ReturnType<typeof setTimeout> | undefined;

    const connect = () => {
      const proto = location.protocol === "https:" ? "wss:" : "ws:";
      const query = resume ? `?resume=${encodeURIComponent(resume)}` : "";
      const ws = new WebSocket(
        `${proto}//${location.host}/api/simulations/${encodeURIComponent(simulationId)}/ws${query}`,
      );
      wsRef.current = ws;
      let greeted = false;
      let pingsLeft = 0;
      const ping = () =>
        ws.readyState === WebSocket.OPEN && ws.send(encodeClientMessage({ type: "ping", t0: performance.now() }));
      const sync = () => {
        pingsLeft = PINGS_PER_SYNC;
        ping();
      };
      // Every RESYNC_MS after a first one at this client's own phase: a sitting back together does not ping together.
      const resync = () => {
        sync();
        syncTimer = setTimeout(resync, RESYNC_MS);
      };
      let opened = false;
      ws.onopen = () => {
        opened = true;
        backoff.opened(performance.now());
        droppedAt.current = null;
        clearTimeout(blipTimer.current);
        blipTimer.current = undefined;
        setConnected(true);
        if (syncsOnOpen(lastPongAt, performance.now())) sync();
        syncTimer = setTimeout(resync, firstResyncMs(Math.random()));
        for (const p of pending.current.values()) ws.send(encodeClientMessage({ type: "answer", ...p }));
      };
      ws.onmessage = (event) => {
        const receivedAt = performance.now();
        const m = parseFrame(ServerMessage, typeof event.data === "string" ? event.data : String(event.data));
        if (!m) return;
        switch (m.type) {
          case "pong":
            lastPongAt = receivedAt;
            if (m.t0 !== null) addSample({ sentAt: m.t0, receivedAt, serverTime: m.serverTime });
            if (--pingsLeft > 0) ping();
            break;
          case "hello":
            greeted = true;
            backoff.greet();
            resume = m.resume ?? resume;
            eventsRef.current.onHello(m);
            if (m.closedThrough > 0) eventsRef.current.onSubjectClosed(m.closedThrough);
            if (m.graded) eventsRef.current.onEnd();
            break;
          case "simulation-start":
            resume = m.resume ?? resume;
            if (m.id === simulationId) eventsRef.current.onStart(m.startTime, m.extraTimePct, m.roomEndsAt);
            break;
          case "subject-closed":
            eventsRef.current.onSubjectClosed(m.closedThrough);
            break;
          case "simulation-end":
            eventsRef.current.onEnd();
            break;
          case "subject-key":
            keys.current.received(m.subject, m.key);
            break;
          case "key-refused":
            keys.current.refused(m.subject);
            break;
          case "ack":
          case "rejected": {
            const p = pending.current.get(m.questionId);
            if (p && p.seq === m.seq) {
              pending.current.delete(m.questionId);
              mark(m.questionId, m.type === "ack" ? "saved" : "rejected");
            }
            break;
          }
        }
      };
      ws.onclose = (event) => {
        setConnected(false);
        clearTimeout(syncTimer);
        keys.current.socketClosed();
        if (closed) return;
        // Refused before its hello: the next try goes through the session, not a token the room may not take.
        if (!greeted) resume = undefined;
        // Moved to another room at the start: the token names the room it leaves.
        if (event.code === ROOM_MOVED_CODE) resume = undefined;
        // Always jittered: a sitting dropped together (a blip, a move at Avvia, a release) does not come back together;
        // after a server close, within the window it chose, holding the answers given meanwhile until then.
        const comeback = backoff.afterClose(event.code, event.reason, performance.now());
        if (opened) droppedAt.current = comeback.holdFrom;
        reconnectTimer = setTimeout(connect, comeback.delayMs);
      };
    };
    connect();
    return () => {
      closed = true;
      clearTimeout(syncTimer);
      clearTimeout(reconnectTimer);
      clearTimeout(blipTimer.current);
      blipTimer.current = undefined;
      droppedAt.current = null;
      wsRef.current?.close(1000, "bye");
    };
  }, [simulationId, addSample]);

  /** Sealed prefetch (issue 31): the key the room sends unasked at this candidate's opening (RoomKeyBox.awaitKey). */
  const awaitKey = useCallback(
    (subject: number, timeoutMs: number) => keys.current.awaitKey(subject, timeoutMs, wsRef.current),
    [],
  );

  /** Sealed prefetch (issue 31): asks the room for a subject's key (RoomKeyBox.requestKey). */
  const requestKey = useCallback(
    (subject: number, timeoutMs: number) => keys.current.requestKey(subject, timeoutMs, wsRef.current),
    [],
  );

  /** One pending answer over HTTP, into the same room (once per version of the answer). */
  const saveOverHttp = useCallback((entry: PendingAnswer) => {
    if (sentOverHttp.current.has(entry.seq)) return;
    sentOverHttp.current.add(entry.seq);
    void httpSaveRef.current(entry.subjectId, entry.questionId, entry.value).then((ok) => {
      sentOverHttp.current.delete(entry.seq);
      const p = pending.current.get(entry.questionId);
      if (p && p.seq === entry.seq && ok) {
        pending.current.delete(entry.questionId);
        mark(entry.questionId, "saved");
      }
    });
  }, []);

  /** The socket is still down when the blip's grace is over: every answer still waiting goes over HTTP. */
  const flushOverHttp = useCallback(() => {
    blipTimer.current = undefined;
    if (wsRef.current?.readyState === WebSocket.OPEN) return;
    for (const entry of pending.current.values()) saveOverHttp(entry);
  }, [saveOverHttp]);

  /**
   * Sends one answer now; it is "saved" only once the room acknowledges it. `msLeft`: how long its subject stays open
   * (server time), so that an answer given with the socket down near the end does not wait for the reconnect.
   */
  const saveAnswer = useCallback(
    (subjectId: number, questionId: number, value: string, msLeft?: number) => {
      const entry = { seq: ++seq.current, subjectId, questionId, value };
      pending.current.set(questionId, entry);
      mark(questionId, "pending");
      const ws = wsRef.current;
      if (ws && ws.readyState === WebSocket.OPEN) {
        ws.send(encodeClientMessage({ type: "answer", ...entry }));
        return;
      }
      // An open socket dropped moments ago (a blip, a room restart): the reconnected socket sends the answer (every
      // pending one is resent when it opens), or HTTP once the grace is over. A socket that never opened (blocked), a
      // longer outage, or the subject's last seconds: the same room takes the answer over HTTP at once.
      const now = performance.now();
      const flushAt = blipFlushAt(droppedAt.current, now, msLeft);
      if (flushAt <= now) {
        saveOverHttp(entry);
        return;
      }
      if (blipTimer.current === undefined) blipTimer.current = setTimeout(flushOverHttp, flushAt - now);
    },
    [saveOverHttp, flushOverHttp],
  );

  /** Whether the socket is open right now (a key can be asked for). */
  const isOpen = useCallback(() => wsRef.current?.readyState === WebSocket.OPEN, []);

  const markSaved = useCallback((questionIds: number[]) => {
    setSaveStates((m) => {
      const next = { ...m };
      for (const id of questionIds) next[id] = "saved";
      return next;
    });
  }, []);

  /** Answers still waiting for an ack in subjects the room has closed can no longer be saved. */
  const markClosed = useCallback((questionIds: number[]) => {
    const closedIds = questionIds.filter((id) => pending.current.delete(id));
    if (!closedIds.length) return;
    setSaveStates((m) => {
      const next = { ...m };
      for (const id of closedIds) next[id] = "rejected";
      return next;
    });
  }, []);

  return {
    connected,
    offset,
    addSample,
    saveStates,
    saveAnswer,
    markSaved,
    markClosed,
    requestKey,
    awaitKey,
    isOpen,
    pendingCount: () => pending.current.size,
  };
}

export type { SavedAnswers };
