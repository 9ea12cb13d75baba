// The teacher's live view (issue 32), pure over the plan and what the store holds: each pupil's row (connected, handed
// in, how many answers per subject, how many of their subjects are closed) and, once a subject is closed for everybody,
// each participant's scores in the closed subjects. Counts and scores only: never an answer, a key or a verdict.
// StaffView sends them to the staff sockets (tag "staff"): the whole state on opening and at each deadline, one
// pupil's row whenever it changes.
import { gradeSimulation } from "../../app/lib/simulation";
import type { RoomPlan } from "../../app/lib/room-plan";
import {
  encodeStaffMessage,
  type LivePupil,
  type LiveStateMessage,
  type SavedAnswers,
} from "../../app/lib/simulation-protocol";
import type { RoomPlans } from "./plan";
import { type RoomSockets, sendEach } from "./sockets";
import type { ParticipantRow, RoomStore } from "./store";

/** What the view needs of the room besides its plan. */
export type RoomFacts = { shard: number; closedThrough: number; graded: boolean };

/** How many of each flow position's questions are answered (a subject may appear twice in a hand-made flow). */
export function answeredBySubject(plan: RoomPlan | null, questionIds: Iterable<number>): number[] {
  const counts = new Array<number>(plan?.config.flow.length ?? 0).fill(0);
  for (const questionId of questionIds) {
    const index = plan?.questions.get(questionId)?.subjectIndex;
    if (index != null) counts[index]!++;
  }
  return counts;
}

/** How many of a pupil's subjects are closed: all once graded, else the room's count or their own deadlines. */
function closedFor(plan: RoomPlan | null, facts: RoomFacts, userId: number, now: number): number {
  if (facts.graded) return plan?.config.flow.length ?? facts.closedThrough;
  return Math.max(facts.closedThrough, plan?.closedFor(userId, now) ?? 0);
}

/** One pupil's row. */
export function pupilRow(
  plan: RoomPlan | null,
  facts: RoomFacts,
  pupil: { userId: number; connected: boolean; timeSec: number | null | undefined; answered: Iterable<number> },
  now: number,
): LivePupil {
  return {
    userId: pupil.userId,
    connected: pupil.connected,
    submitted: facts.graded || pupil.timeSec != null,
    answered: answeredBySubject(plan, pupil.answered),
    closedThrough: closedFor(plan, facts, pupil.userId, now),
  };
}

/** The whole state: every candidate seen (connected or not) and the scores of subjects closed for everybody. */
export function liveState(
  plan: RoomPlan | null,
  facts: RoomFacts,
  room: { participants: ParticipantRow[]; answers: Map<number, SavedAnswers>; connected: Set<number> },
  now: number,
): LiveStateMessage {
  const closed = facts.graded ? (plan?.config.flow.length ?? facts.closedThrough) : facts.closedThrough;
  const pupils = room.participants.map((p) =>
    pupilRow(
      plan,
      { ...facts, closedThrough: closed },
      {
        userId: p.user_id,
        connected: room.connected.has(p.user_id),
        timeSec: p.time_sec,
        answered: Object.values(room.answers.get(p.user_id) ?? {}).flatMap((q) => Object.keys(q).map(Number)),
      },
      now,
    ),
  );
  // Scores only for subjects closed for everybody: no candidate can still change them.
  const scores =
    plan && closed > 0
      ? room.participants.map((p) => {
          const result = gradeSimulation(plan.config.subjects.slice(0, closed), room.answers.get(p.user_id) ?? {});
          return { userId: p.user_id, scores: result.subjects.map((s) => s.score31) };
        })
      : [];
  return {
    type: "live-state",
    shard: facts.shard,
    serverTime: now,
    started: plan != null,
    startTime: plan?.config.startTime ?? null,
    closedThrough: closed,
    graded: facts.graded,
    pupils,
    scores,
  };
}

export class StaffView {
  constructor(
    private readonly store: RoomStore,
    private readonly sockets: RoomSockets,
    private readonly plans: RoomPlans,
  ) {}

  private facts(): RoomFacts {
    return { shard: this.store.shard, closedThrough: this.store.closedThrough, graded: this.store.graded };
  }

  /** The room's state for the staff now. */
  state(): LiveStateMessage {
    return liveState(
      this.plans.current(),
      this.facts(),
      {
        participants: this.store.participants(),
        answers: this.store.savedByUser(),
        connected: this.sockets.connectedCandidates(),
      },
      Date.now(),
    );
  }

  /** Tells the staff sockets these candidates' rows (`closing`: a socket of theirs on its way out). */
  tell(userIds: Iterable<number>, closing?: WebSocket) {
    const staff = this.sockets.staff();
    if (!staff.length) return;
    const plan = this.plans.current();
    const facts = this.facts();
    for (const userId of userIds) {
      const row = pupilRow(
        plan,
        facts,
        {
          userId,
          connected: this.sockets.isConnected(userId, closing),
          timeSec: this.store.timeSecOf(userId),
          answered: this.store.answeredQuestionIds(userId),
        },
        Date.now(),
      );
      sendEach(staff, encodeStaffMessage({ type: "live-pupil", pupil: row })); // closing: it gets the state again
    }
  }

  /** Sends the whole state to every staff socket (a subject closed, the room graded). */
  tellState() {
    const staff = this.sockets.staff();
    if (staff.length) sendEach(staff, encodeStaffMessage(this.state()));
  }
}
