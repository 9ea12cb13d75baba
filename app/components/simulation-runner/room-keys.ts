// Sealed prefetch (issue 31), the browser's side: the subject keys the room sent (at each opening, unasked, or in answer
// to a request) and who waits for one. One per runner (useSimulationRoom), no React in it.
import { encodeClientMessage } from "~/lib/simulation-protocol";

/** The room's answer to a key request: the key, null when refused, undefined when none came (no socket, too late). */
export type KeyAnswer = string | null | undefined;

type Waiters<T> = Map<number, ((value: T | undefined) => void)[]>;

/** Resolves everybody waiting for `subject`'s key. */
function settle<T>(waiters: Waiters<T>, subject: number, value: T | undefined) {
  const waiting = waiters.get(subject) ?? [];
  waiters.delete(subject);
  for (const resolve of waiting) resolve(value);
}

/** Waits for `subject`'s key at most `timeoutMs` (undefined then). */
function waitFor<T>(waiters: Waiters<T>, subject: number, timeoutMs: number): Promise<T | undefined> {
  return new Promise((resolve) => {
    const done = (value: T | undefined) => {
      clearTimeout(timer);
      resolve(value);
    };
    const timer = setTimeout(() => {
      const waiting = waiters.get(subject);
      if (waiting?.includes(done)) waiting.splice(waiting.indexOf(done), 1);
      resolve(undefined);
    }, timeoutMs);
    waiters.set(subject, [...(waiters.get(subject) ?? []), done]);
  });
}

export class RoomKeyBox {
  private keys = new Map<number, string>();
  /** Who asked the room for a key (the key; null when refused; undefined when no answer came). */
  private asked: Waiters<string | null> = new Map();
  /** Who waits for a key the room sends unasked (the key; undefined when the socket closes or time is up). */
  private listening: Waiters<string> = new Map();

  /** Another simulation: no key is known. */
  forget() {
    this.keys = new Map();
  }

  received(subject: number, key: string) {
    this.keys.set(subject, key);
    settle(this.listening, subject, key);
    settle(this.asked, subject, key);
  }

  refused(subject: number) {
    settle(this.asked, subject, null);
  }

  /** The socket closed: no answer is coming. */
  socketClosed() {
    for (const subject of [...this.asked.keys()]) settle(this.asked, subject, undefined);
    for (const subject of [...this.listening.keys()]) settle(this.listening, subject, undefined);
  }

  /**
   * The key the room sends unasked at this candidate's opening of `subject`; undefined when none came within
   * `timeoutMs` or the socket is down (the runner then asks, request, or the server).
   */
  awaitKey(subject: number, timeoutMs: number, ws: WebSocket | null): Promise<string | undefined> {
    const known = this.keys.get(subject);
    if (known !== undefined) return Promise.resolve(known);
    if (!ws || ws.readyState !== WebSocket.OPEN) return Promise.resolve(undefined);
    return waitFor(this.listening, subject, timeoutMs);
  }

  /**
   * Asks the room for a subject's key (its index in the flow). Null on a refusal (not open yet for this candidate);
   * undefined without an open socket or an answer within `timeoutMs`: the runner then asks the server over HTTP.
   */
  requestKey(subject: number, timeoutMs: number, ws: WebSocket | null): Promise<KeyAnswer> {
    const known = this.keys.get(subject);
    if (known !== undefined) return Promise.resolve(known);
    if (!ws || ws.readyState !== WebSocket.OPEN) return Promise.resolve(undefined);
    const answer = waitFor(this.asked, subject, timeoutMs);
    ws.send(encodeClientMessage({ type: "key", subject }));
    return answer;
  }
}
