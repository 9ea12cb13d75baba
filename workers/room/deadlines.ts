// The room's alarm: at each opening it pushes the subject's key, at each deadline it closes, for each candidate, every
// subject whose own time (plus the grace) is over and tells them; once the last candidate's last subject is over, it
// grades. Safe to run twice: what happened since its last run is stored (`alarmRanAt`), so a retried or late alarm does
// each thing once. `closedThrough` counts the subjects closed for everybody.
import type { RoomPlan } from "../../app/lib/room-plan";
import { encodeServerMessage } from "../../app/lib/simulation-protocol";
import { d1UsageEnabled } from "../../app/server/db/d1-usage.server";
import type { RoomGrading } from "./grading";
import type { RoomKeys } from "./keys";
import type { RoomPlans } from "./plan";
import { type RoomSockets, sendTo } from "./sockets";
import type { StaffView } from "./staff-view";
import type { RoomStore } from "./store";

type DeadlineParts = {
  env: Env;
  store: RoomStore;
  plans: RoomPlans;
  sockets: RoomSockets;
  keys: RoomKeys;
  staff: StaffView;
  grading: RoomGrading;
};

export async function runAlarm(room: DeadlineParts): Promise<void> {
  const { store, plans, sockets, staff } = room;
  const plan = plans.current();
  if (!plan) return;
  const now = Date.now();
  // What happened since the last run (an opening, a deadline, or both at once).
  const since = store.alarmRanAt;
  const candidates = () => sockets.candidates().map((ws) => ({ ws, userId: sockets.data(ws).userId }));
  await room.keys.push(plan, candidates(), since, now);
  const closed = Math.max(store.closedThrough, plan.closedForAll(now));
  if (closed > store.closedThrough) store.closedThrough = closed;
  if (plan.deadlines.some((d) => d > since && d <= now)) {
    tellClosed(plan, store.closedThrough, candidates(), now);
    // At each deadline the staff get the state again: who is closed where, and the scores of subjects closed for
    // everybody (the last one's come with the grading).
    if (closed < plan.windows.length) staff.tellState();
  }
  if (closed >= plan.windows.length) {
    await room.grading.finalize();
    store.alarmRanAt = now;
    return;
  }
  store.alarmRanAt = now;
  await plans.scheduleNextAlarm(plan.config);
  // The national bench's server (BENCH_D1_USAGE) says when each opening and deadline ran, and for how long.
  if (d1UsageEnabled(room.env))
    console.warn(
      `room ${plan.config.shard ?? 0}: alarm at +${now - plan.config.startTime} ms took ${Date.now() - now} ms (closed ${closed})`,
    );
}

/** Tells every connected candidate how many of THEIR subjects are closed (accommodations differ per candidate). */
function tellClosed(
  plan: RoomPlan,
  closedForAll: number,
  candidates: readonly { ws: WebSocket; userId: number }[],
  now: number,
) {
  for (const { ws, userId } of candidates) {
    const closedThrough = Math.max(closedForAll, plan.closedFor(userId, now));
    sendTo(ws, encodeServerMessage({ type: "subject-closed", closedThrough })); // closing: its next hello says it
  }
}
