// One candidate of the room bench's day, as the browser's runner sits it (SimulationRunner.tsx over the socket of
// socket-client.ts): the lobby (the page, the flow with every subject sealed, the socket and its clock sync), at each
// of its own openings (accommodation included: studentWindows) the key the room pushes, asked for when none came in
// time, the HTTP call only as the last fallback; answers on a seeded schedule at the pace's rate (right or wrong by the
// candidate's ability, first each question in its order, then changes); at the end, once the room has graded
// (simulation-end), the attempt and the ranking at a random instant of the runner's spread. A deploy's check compares
// the answers acknowledged before it with the restarted room's hello, and later with the graded attempt.
import { SIMULATION_GRACE_MS } from "../../app/lib/constants.ts";
import {
  END_WAIT_MAX_MS,
  endSubmitSpreadMs,
  KEY_AFTER_OPEN_MS,
  KEY_SPREAD_MS,
  QUESTIONS_FALLBACK_SPREAD_MS,
} from "../../app/lib/runner-timing.ts";
import { openSealedSubject, type SealedSubject } from "../../app/lib/sealed-subject.ts";
import type { FlowSubject } from "../../app/lib/simulation.ts";
import { studentWindows } from "../../app/lib/simulation-day.ts";
import type { Key } from "../national.ts";
import { nextAnswerInMs, type Pace, realRatePerCandidate, sleep } from "./pace.ts";
import { type Hello, RoomSocket, type SavedAnswers } from "./socket-client.ts";

type Flow = {
  flow: (FlowSubject & { questions: { id: number }[] })[];
  startTime: number | null;
  sealed?: SealedSubject[];
};
type Window = { startsAt: number; endsAt: number };

/** The value a saved-answers map holds for a question, whatever its subject. */
function savedValue(saved: SavedAnswers | undefined, questionId: number): string | undefined {
  for (const answers of Object.values(saved ?? {})) if (String(questionId) in answers) return answers[questionId];
  return undefined;
}

export type Day = { keys: Record<string, Key>; pace: Pace; rooms: number };

export class Candidate extends RoomSocket {
  flow: Flow["flow"] = [];
  /** Each subject's question ids (by flow index), once open. */
  readonly questions = new Map<number, number[]>();
  /** Every answer given, as the attempt call sends them. */
  readonly answers: SavedAnswers = {};
  graded = false;
  rankingBytes?: number;
  /** Set at a deploy: what was acknowledged then; at the restarted room's first hello, when and how much it lacked. */
  deploy?: { acked: Map<number, { seq: number; value: string }>; backAt?: number; lost: number };
  private sealed = new Map<number, SealedSubject>();
  private windows: Window[] = [];
  private progress = new Map<number, number>();
  private answerTimer?: ReturnType<typeof setTimeout>;
  private readonly ability: number;
  private started: Promise<void>;

  constructor(...args: ConstructorParameters<typeof RoomSocket>) {
    super(...args);
    this.ability = 0.2 + 0.7 * ((this.random() + this.random() + this.random()) / 3);
    this.started = new Promise((resolve) => (this.onStart = resolve));
    this.onHello = (hello, at) => this.checkDeploy(hello, at);
  }

  /** The page, the flow and the socket, as a student opening /simulazione before Avvia. */
  async lobby(page = true): Promise<boolean> {
    if (page) await (await this.http(`/simulazione?id=${this.simulationId}`))?.arrayBuffer();
    return (await this.loadFlow()) && (await this.connectAndSync(120_000));
  }

  private async loadFlow(): Promise<boolean> {
    const response = await this.http(`/api/simulations/${this.simulationId}`);
    if (!response?.ok) return false;
    const view = (await response.json()) as Flow;
    this.flow = view.flow;
    this.sealed = new Map((view.sealed ?? []).map((s) => [s.subject, s]));
    for (const [i, s] of view.flow.entries())
      if (s.questions.length)
        this.questions.set(
          i,
          s.questions.map((q) => q.id),
        );
    if (view.startTime) this.startTime = view.startTime;
    return true;
  }

  /** The day from Avvia: each opening, the answers at the pace, and (unless `finish` is false) the end. */
  async sit(day: Day, finish = true) {
    // A candidate who never got in hears no start: it sits nothing.
    if (!(await Promise.race([this.started.then(() => true), sleep(180_000).then(() => false)]))) return;
    this.windows = studentWindows(this.flow, this.startTime!, this.extraPct);
    const openings = this.windows.map((w, i) => this.open(i, w));
    this.reschedule(day);
    await Promise.all(openings);
    if (finish) await this.finish(day);
  }

  /** The subject's questions at its opening: the pushed key opens the sealed copy; else asked for; else HTTP. */
  private async open(index: number, window: Window) {
    await sleep(window.startsAt - 50 - this.serverNow());
    const sealed = this.sealed.get(index);
    if (sealed && !this.questions.has(index)) {
      const wait = window.startsAt + KEY_AFTER_OPEN_MS + this.random() * KEY_SPREAD_MS - this.serverNow();
      let key = await this.key(index, Math.max(0, wait));
      if (typeof key === "string") this.rec.keys.pushed++;
      else {
        key = await this.requestKey(index);
        if (typeof key === "string") this.rec.keys.requested++;
        else if (key === null) this.rec.keys.refused++;
      }
      const questions = typeof key === "string" ? await openSealedSubject(key, sealed) : null;
      if (questions)
        this.questions.set(
          index,
          questions.map((q) => q.id),
        );
    }
    if (this.questions.has(index)) return;
    this.rec.keys.fallback++;
    await sleep(this.random() * QUESTIONS_FALLBACK_SPREAD_MS);
    for (let wait = 500; !this.questions.has(index) && this.serverNow() < window.endsAt; wait *= 2) {
      if (!(await this.loadFlow()) || !this.questions.has(index)) await sleep(wait);
    }
  }

  /** Starts the answer schedule again at the pace's current rate (a Poisson process has no memory). */
  reschedule(day: Day) {
    clearTimeout(this.answerTimer);
    if (this.done) return;
    const wait = nextAnswerInMs(this.random, realRatePerCandidate(this.extraPct) * day.pace.multiplier);
    if (!Number.isFinite(wait)) return;
    this.answerTimer = setTimeout(() => {
      this.answerOne(day.keys);
      this.reschedule(day);
    }, wait);
  }

  private answerOne(keys: Record<string, Key>) {
    const now = this.serverNow();
    const index = this.windows.findIndex((w) => now >= w.startsAt && now < w.endsAt - 500);
    const ids = this.questions.get(index);
    if (index < 0 || !ids?.length) return;
    const done = this.progress.get(index) ?? 0;
    this.progress.set(index, done + 1);
    const questionId = done < ids.length ? ids[done]! : ids[Math.floor(this.random() * ids.length)]!;
    const key = keys[String(questionId)];
    if (!key) return;
    const wrong = key.wrong.length ? key.wrong[Math.floor(this.random() * key.wrong.length)]! : "0";
    const value = this.random() < this.ability ? key.correct : wrong;
    const subjectId = this.flow[index]!.id;
    (this.answers[String(subjectId)] ??= {})[String(questionId)] = value;
    this.saveAnswer(subjectId, questionId, value, this.windows[index]!.endsAt - now);
  }

  /** At the end, as the runner: wait for the room's grading, then the attempt and the ranking, spread. */
  private async finish(day: Day) {
    const end = this.windows.at(-1)!.endsAt;
    await sleep(end - this.serverNow());
    clearTimeout(this.answerTimer);
    const waitLimit = (this.roomEndsAt ?? end) + SIMULATION_GRACE_MS + END_WAIT_MAX_MS;
    if (this.pendingCount() === 0 && this.isOpen()) {
      while (this.endReceivedAt === undefined && this.serverNow() < waitLimit && this.isOpen()) await sleep(100);
      await sleep(this.random() * endSubmitSpreadMs(day.rooms));
    }
    const timeTaken = Math.round((end - this.startTime!) / 1000);
    for (let attempt = 0; attempt <= 4 && !this.graded; attempt++) {
      const response = await this.http(`/simulazione.data?id=${this.simulationId}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ answers: this.answers, timeTaken }),
      });
      const text = response ? await response.text() : "";
      if (response?.ok && text.includes("attemptId")) this.graded = true;
      else if (response && response.status >= 400 && response.status < 500) break;
      else await sleep(1000 * 2 ** attempt);
    }
    const ranking = this.graded ? await this.http(`/api/simulations/${this.simulationId}/ranking`) : null;
    if (ranking?.ok) this.rankingBytes = (await ranking.arrayBuffer()).byteLength;
    this.close();
  }

  override close() {
    clearTimeout(this.answerTimer);
    super.close();
  }

  /** A deploy now: what the room acknowledged so far must be in the restarted room's first hello. */
  markDeploy() {
    this.deploy = { acked: new Map(this.acked), lost: 0 };
  }

  private checkDeploy(hello: Hello, at: number) {
    if (!this.deploy || this.deploy.backAt !== undefined) return;
    this.deploy.backAt = at;
    this.deploy.lost = this.missing(this.deploy.acked, hello.answers).length;
  }

  /**
   * The acknowledged answers of `acked` that `saved` does not hold: neither that value nor a later version of the same
   * question (changed since, and written before its own ack could come).
   */
  missing(acked: Map<number, { seq: number; value: string }>, saved: SavedAnswers | undefined): number[] {
    return [...acked].flatMap(([questionId, { seq, value }]) => {
      const held = savedValue(saved, questionId);
      const later = (this.versions.get(questionId) ?? []).some((v) => v.seq > seq && v.value === held);
      return held === value || later ? [] : [questionId];
    });
  }
}
