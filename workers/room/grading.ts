// The room's end: it grades its own participants once (idempotent on retry), writes their attempts to D1 (the grading
// write, app/server/simulation/grading.server.ts), and the room whose write completes the simulation tells the students
// of every room. Also the HTTP attempt call (POST /api/simulations/{id}/attempt), which saves and, at the end, grades.
import { SIMULATION_GRACE_MS } from "../../app/lib/constants";
import { gradeSimulation, memoJudge } from "../../app/lib/simulation";
import { encodeServerMessage, type SavedAnswers } from "../../app/lib/simulation-protocol";
import { getDb } from "../../app/server/db/client.server";
import { d1UsageEnabled } from "../../app/server/db/d1-usage.server";
import { roomFor } from "../../app/server/simulation/door.server";
import { writeGradedAttempts } from "../../app/server/simulation/grading.server";
import { attemptOf, resultOf } from "../../app/server/simulation/results.server";
import { answerVerdict, type AnswerBatch } from "./answers";
import type { RoomPlans } from "./plan";
import { type RoomSockets, sendEach } from "./sockets";
import type { StaffView } from "./staff-view";
import type { RoomStore } from "./store";
import { type AttemptOutcome, ROOM_TEXT } from "./text";

/** Rooms do not all write to D1 in the same instant at the end: room k waits k × this (capped). */
const GRADE_STAGGER_MS = 150;
const GRADE_STAGGER_MAX_MS = 6000;
/**
 * The longest an attempt call waits for the room's last deadline before answering "pending": a candidate done while an
 * accommodated one still writes gets the result at simulation-end (the runner submits again then).
 */
const SUBMIT_WAIT_MAX_MS = 15_000;
/** Mid-exam the attempt call is the HTTP autosave: it sets no time taken until this close to the candidate's end. */
const SUBMIT_NEAR_END_MS = 10_000;

type GradingParts = {
  env: Env;
  store: RoomStore;
  plans: RoomPlans;
  answers: AnswerBatch;
  sockets: RoomSockets;
  staff: StaffView;
};

export class RoomGrading {
  private finalizing: Promise<void> | null = null;

  constructor(private readonly room: GradingParts) {}

  /** Grades every participant of this room and writes their attempts to D1 once (idempotent on retry). */
  async finalize(): Promise<void> {
    const { store, staff } = this.room;
    if (store.graded) return;
    staff.tell(this.room.answers.flush());
    this.finalizing ??= this.gradeAndWrite();
    try {
      await this.finalizing;
    } finally {
      this.finalizing = null;
    }
  }

  private async gradeAndWrite() {
    const { env, store, plans, staff } = this.room;
    const plan = plans.current();
    if (!plan) return;
    const { config } = plan;
    const shard = config.shard ?? 0;
    const participants = store.participants();
    const began = Date.now();
    // Every answer of the room in one read (a query per participant was half a second of a 1,000-student room).
    const answersBy = store.savedByUser();
    // Each distinct answer to a question is judged once, for the grades and for the question memories alike.
    const judge = memoJudge();
    const graded = participants.map((p) => {
      const answers = answersBy.get(p.user_id) ?? {};
      // A candidate's own duration: their accommodation included, breaks included.
      const durationSec = Math.round(
        ((plan.windowsOf(p.user_id).at(-1)?.endsAt ?? plan.end) - config.startTime) / 1000,
      );
      return {
        userId: p.user_id,
        answers,
        result: gradeSimulation(config.subjects, answers, judge),
        timeSec: Math.min(p.time_sec ?? durationSec, durationSec),
      };
    });
    // A small per-room delay so that 60 rooms do not all write in the same instant.
    const stagger = Math.min(shard * GRADE_STAGGER_MS, GRADE_STAGGER_MAX_MS);
    if (stagger > 0) await new Promise((r) => setTimeout(r, stagger));
    const wrote = Date.now();
    await writeGradedAttempts(env.DB, config.simulationId, shard, graded, Date.now(), config.subjects, judge);
    // The national bench's server (BENCH_D1_USAGE) says where a room's grading time goes.
    if (d1UsageEnabled(env))
      console.warn(
        `room ${shard}: graded ${graded.length} in ${wrote - began} ms, wrote them in ${Date.now() - wrote} ms (stagger ${stagger} ms)`,
      );
    store.closedThrough = config.flow.length;
    store.markGraded(Date.now());
    staff.tellState();
    await this.announceIfAllGraded(config.simulationId, shard);
  }

  /**
   * simulation-end goes out once the whole simulation is graded (every room has written: its ranking is final), to the
   * students of every room at once: the room whose write completes it tells them all. So nobody asks for a result or a
   * ranking while other rooms still write to D1, and the ranking they ask for is final. A room that sees the simulation
   * not graded yet says nothing: the last room will (a runner still asks, late, if that word never comes).
   */
  private async announceIfAllGraded(simulationId: string, shard: number) {
    const row = await this.room.env.DB.prepare("SELECT graded_at AS gradedAt, shards FROM simulations WHERE id = ?")
      .bind(simulationId)
      .first<{ gradedAt: number | null; shards: number }>();
    if (!row) return this.announceEnd(simulationId); // deleted meanwhile: this room's students at least
    if (row.gradedAt == null) return;
    await Promise.all(
      Array.from({ length: row.shards }, (_, other) =>
        other === shard
          ? this.announceEnd(simulationId)
          : roomFor(this.room.env, simulationId, other)
              .announceEnd(simulationId)
              .catch((error: unknown) => console.warn(`room: could not tell room ${other} the end`, error)),
      ),
    );
  }

  /** Tells this room's students the simulation is graded (called by the room whose write completed it). */
  announceEnd(simulationId: string) {
    // Not graded here yet (its write is landing): this room announces itself right after it.
    if (!this.room.store.graded) return;
    sendEach(this.room.sockets.all(), encodeServerMessage({ type: "simulation-end", id: simulationId }));
  }

  /**
   * POST /api/simulations/{id}/attempt: merges the submitted answers with the autosaved ones (only for subjects still
   * open), and once the exam is over grades and returns the stored result. Idempotent: a repeated submission returns
   * the same attempt.
   */
  async submit(userId: number, answers: SavedAnswers, timeTaken: number): Promise<AttemptOutcome> {
    const { env, store, plans, staff } = this.room;
    const plan = await plans.ensure();
    if (!plan) return { ok: false, status: 409, error: ROOM_TEXT.notStarted };
    const { config, end } = plan;
    const ownEnd = plan.windowsOf(userId).at(-1)?.endsAt ?? end;
    let now = Date.now();
    if (store.graded || now > end + SIMULATION_GRACE_MS) {
      const stored = await attemptOf(getDb(env.DB), config.simulationId, userId);
      if (stored) return { ok: true, attemptId: stored.id, result: resultOf(stored) };
      if (store.graded) return { ok: false, status: 409, error: ROOM_TEXT.finished };
    }
    store.seat(userId);
    let saved = 0;
    for (const [subjectId, byQuestion] of Object.entries(answers)) {
      for (const [questionId, value] of Object.entries(byQuestion)) {
        const answer = { subjectId: Number(subjectId), questionId: Number(questionId), value };
        if (answerVerdict(plan, store.closedThrough, userId, answer, now) !== true) continue;
        store.writeAnswer(userId, answer, now);
        saved++;
      }
    }
    // Mid-exam this call is the HTTP autosave (no WebSocket): it must not set the time taken.
    if (now < ownEnd - SUBMIT_NEAR_END_MS) {
      staff.tell([userId]);
      return { ok: true, pending: true, saved };
    }
    store.setTimeTaken(userId, Math.max(0, Math.round(timeTaken)));
    staff.tell([userId]);
    // Close to the room's last deadline (device clocks are estimates): wait out the grace, then grade everybody.
    // Further from it (an accommodated candidate still writes): pending, the result comes at simulation-end.
    now = Date.now();
    const wait = end + SIMULATION_GRACE_MS - now;
    if (wait > SUBMIT_WAIT_MAX_MS) return { ok: true, pending: true, saved };
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    await this.finalize();
    const stored = await attemptOf(getDb(env.DB), config.simulationId, userId);
    if (!stored) return { ok: false, status: 409, error: ROOM_TEXT.finished };
    return { ok: true, attemptId: stored.id, result: resultOf(stored) };
  }
}
