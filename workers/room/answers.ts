// Answers on their way in: whether one may be stored (its subject open for this candidate, its value valid), and the
// batch that writes those arriving within a few ms in one storage commit and acknowledges each only once written (an
// ack means "stored": a crash or a release after it loses nothing; before it, the browser still holds and resends it).
import { SIMULATION_GRACE_MS } from "../../app/lib/constants";
import type { RoomPlan } from "../../app/lib/room-plan";
import {
  type AnswerMessage,
  encodeServerMessage,
  MAX_ANSWER_CHARS,
  type SavedAnswers,
} from "../../app/lib/simulation-protocol";
import { sendTo } from "./sockets";
import { ANSWER_WRITE_ROWS, type AnswerRow, type RoomStore, type StoredAnswer } from "./store";
import { ROOM_TEXT } from "./text";

/**
 * How long an accepted answer waits for others to share its storage commit (and one write statement): a national
 * sitting's room takes hundreds of answers a second, and a commit per answer was a fifth of its time.
 */
export const ANSWER_BATCH_MS = 20;

/**
 * Whether an answer arriving at `now` may be stored: its subject is open for this candidate (their own window,
 * accommodation included, plus the grace) and not closed for everybody (`closedThrough`), its value valid. True, or
 * the refusal's text. The hot path: map lookups on the in-memory plan.
 */
export function answerVerdict(
  plan: RoomPlan,
  closedThrough: number,
  userId: number,
  answer: StoredAnswer,
  now: number,
): true | string {
  const { value } = answer;
  if (value.length > MAX_ANSWER_CHARS) return ROOM_TEXT.badValue;
  const question = plan.questions.get(answer.questionId);
  if (!question || question.subjectId !== answer.subjectId) return ROOM_TEXT.unknownQuestion;
  const window = plan.windowsOf(userId)[question.subjectIndex]!;
  if (now < window.startsAt) return ROOM_TEXT.notYet;
  if (question.subjectIndex < closedThrough || now > window.endsAt + SIMULATION_GRACE_MS) return ROOM_TEXT.closed;
  if (value.trim() !== "" && question.key.type === "mc" && !(question.key.options ?? []).includes(value))
    return ROOM_TEXT.badValue;
  return true;
}

type Waiting = AnswerRow & { ws: WebSocket; seq: number | null; ack: string };

export class AnswerBatch {
  /** How long the first answer of a batch waits for others (a test may hold a batch longer). */
  batchMs = ANSWER_BATCH_MS;
  /** Answers accepted but not yet written: flushed within batchMs, or before grading. */
  private waiting: Waiting[] = [];

  constructor(private readonly store: RoomStore) {}

  /**
   * Takes an accepted answer. The first of a batch waits inside its own event (a timer outside an event may not fire)
   * while the next messages are delivered and join it; then it writes and acknowledges them all. Resolves to the
   * candidates whose answers were written by this call (none when another event writes them).
   */
  async take(ws: WebSocket, userId: number, answer: AnswerMessage, at: number): Promise<number[]> {
    const ref = { seq: answer.seq ?? null, subjectId: answer.subjectId, questionId: answer.questionId };
    this.waiting.push({ ws, userId, answer, at, seq: ref.seq, ack: encodeServerMessage({ type: "ack", ...ref }) });
    if (this.waiting.length > 1) return [];
    await new Promise((resolve) => setTimeout(resolve, this.batchMs));
    return this.flush();
  }

  /**
   * A candidate's saved answers with their answers still waiting here laid over them, in order (a blank one clears).
   * The batch is not flushed for this: a reconnect wave would otherwise commit once per socket. Those waiting answers
   * are acknowledged to the old socket, so the runner sends them again anyway.
   */
  overlay(userId: number, saved: SavedAnswers): SavedAnswers {
    for (const { userId: owner, answer } of this.waiting) {
      if (owner !== userId) continue;
      const subject = (saved[String(answer.subjectId)] ??= {});
      if (answer.value.trim() === "") delete subject[String(answer.questionId)];
      else subject[String(answer.questionId)] = answer.value;
    }
    for (const [subject, questions] of Object.entries(saved))
      if (Object.keys(questions).length === 0) delete saved[subject];
    return saved;
  }

  /**
   * Writes the waiting answers and acknowledges them: a run of answers with a value goes in one multi-row upsert (in
   * order, so a later answer to the same question wins), a cleared one is its own delete, in its place in the order.
   * An answer that cannot be written is refused to its sender (never acknowledged, never lost in silence). Returns the
   * candidates whose answers were written.
   */
  flush(): number[] {
    const batch = this.waiting;
    this.waiting = [];
    const failed = new Set<Waiting>();
    const writeOne = (b: Waiting) => {
      try {
        this.store.writeAnswer(b.userId, b.answer, b.at);
      } catch (error) {
        console.warn("room: could not store an answer", error);
        failed.add(b);
      }
    };
    let run: Waiting[] = [];
    const writeRun = () => {
      for (let i = 0; i < run.length; i += ANSWER_WRITE_ROWS) {
        const rows = run.slice(i, i + ANSWER_WRITE_ROWS);
        try {
          this.store.writeAnswers(rows);
        } catch (error) {
          // One at a time then: a row that cannot be written is refused, the others are stored.
          console.warn("room: a batch of answers could not be written at once", error);
          for (const b of rows) writeOne(b);
        }
      }
      run = [];
    };
    for (const b of batch) {
      if (b.answer.value.trim() === "") {
        writeRun();
        writeOne(b);
      } else run.push(b);
    }
    writeRun();
    for (const b of batch) {
      const { seq, answer } = b;
      const refusal = { type: "rejected" as const, seq, subjectId: answer.subjectId, questionId: answer.questionId };
      // closed meanwhile: the answer is stored, the client reads it back in its next hello
      sendTo(b.ws, failed.has(b) ? encodeServerMessage({ ...refusal, error: ROOM_TEXT.notStored }) : b.ack);
    }
    return [...new Set(batch.map((b) => b.userId))];
  }

  /** Drops what waits (the simulation was deleted). */
  clear() {
    this.waiting = [];
  }
}
