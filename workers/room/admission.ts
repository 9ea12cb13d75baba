// Who gets into the room, and what they hear first. The Worker's socket route (workers/simulation-socket.ts) checked
// the session or the resume token and says who the socket is in headers only it sets; here the room accepts it: a
// staff socket gets the room's live state, a candidate's gets the hello (the start instant, their closed subjects,
// extra time and saved answers, their resume token), so a late joiner or a reconnect has the whole state at once.
// Avvia (the start RPC) tells every socket the start, each candidate with their own accommodation and token.
import { encodeServerMessage, encodeStaffMessage, ROOM_MOVED_CODE } from "../../app/lib/simulation-protocol";
import type { AnswerBatch } from "./answers";
import type { RoomKeys } from "./keys";
import type { KnownStart, RoomPlans } from "./plan";
import { closeQuietly, type RoomSockets, sendTo } from "./sockets";
import type { StaffView } from "./staff-view";
import type { RoomStore } from "./store";
import { ROOM_TEXT } from "./text";

type AdmissionParts = {
  store: RoomStore;
  plans: RoomPlans;
  sockets: RoomSockets;
  keys: RoomKeys;
  answers: AnswerBatch;
  staff: StaffView;
};

/** The room's answer to the socket route's upgrade request. */
export async function admit(room: AdmissionParts, request: Request): Promise<Response> {
  const { store, plans, sockets, keys, answers, staff } = room;
  if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
    return Response.json({ error: ROOM_TEXT.onlySockets }, { status: 426 });
  }
  const userId = Number(request.headers.get("X-Unicum-User-Id"));
  const role = request.headers.get("X-Unicum-Role") ?? "studente";
  const simulationId = request.headers.get("X-Unicum-Simulation-Id");
  if (simulationId && !store.simulationId) store.name(simulationId, request.headers.get("X-Unicum-Shard") ?? "0");
  const plan = await plans.ensure();
  // A resume token from another sitting under the same id (deleted and made again): the session decides instead.
  const resumedStart = request.headers.get("X-Unicum-Resume-Start");
  if (resumedStart !== null && plan?.config.startTime !== Number(resumedStart)) {
    return Response.json({ error: ROOM_TEXT.staleResume }, { status: 401 });
  }
  const { 0: client, 1: server } = new WebSocketPair();
  if (request.headers.get("X-Unicum-Staff") === "1") {
    // The teacher's live view: the room's state now, then each change (no answers, keys or verdicts).
    sockets.accept(server, { userId, role, staff: true });
    server.send(encodeStaffMessage(staff.state()));
    return new Response(null, { status: 101, webSocket: client });
  }
  sockets.accept(server, { userId, role });
  // A reconnect writes nothing: a write here would commit in this event (one storage commit per socket of a wave).
  if (role !== "admin") store.seat(userId);
  const now = Date.now();
  const resume = plan ? await keys.resumeToken(plan, userId, role) : null;
  const graded = store.graded;
  server.send(
    encodeServerMessage({
      type: "hello",
      serverTime: now,
      id: store.simulationId,
      started: plan != null,
      startTime: plan?.config.startTime ?? null,
      closedThrough: graded
        ? (plan?.config.flow.length ?? store.closedThrough)
        : Math.max(store.closedThrough, plan?.closedFor(userId, now) ?? 0),
      extraTimePct: plan?.extraOf(userId) ?? 0,
      ...(plan ? { roomEndsAt: plan.end } : {}),
      ...(resume ? { resume } : {}),
      answers: answers.overlay(userId, store.answersOf(userId)),
      graded,
    }),
  );
  if (role !== "admin") staff.tell([userId]);
  return new Response(null, { status: 101, webSocket: client });
}

/**
 * Called once the start is written to D1, for every room of the simulation in parallel: loads the exam, schedules
 * the deadlines, tells its students. `startTime` is the one absolute instant of the whole sitting, so a room that
 * hears late still starts on time (clients count on their own offset). Avvia moves nobody who was seated (issue 31):
 * only a member seated now, whose waiting room was full (`leaving`), is told to reconnect; the socket route sends them
 * to their seat.
 */
export async function announceStart(
  room: AdmissionParts,
  known: KnownStart,
  leaving: readonly number[],
): Promise<{ startTime: number } | null> {
  const { store, plans, sockets, keys } = room;
  store.name(known.simulationId, known.shard);
  const plan = await plans.ensure(known);
  if (!plan) return null;
  // Each candidate learns the start with their own accommodation (fixed now), when the room ends, and their resume
  // token (a reconnect during the day then needs no D1).
  const everyone = sockets.all().map((ws) => ({ ws, data: sockets.data(ws) }));
  const tokens = await Promise.all(
    everyone.map(({ data }) => (data.staff ? null : keys.resumeToken(plan, data.userId, data.role))),
  );
  for (const [i, { ws, data }] of everyone.entries()) {
    const resume = tokens[i];
    sendTo(
      ws,
      encodeServerMessage({
        type: "simulation-start",
        id: known.simulationId,
        startTime: plan.config.startTime,
        ...(data.staff ? {} : { extraTimePct: plan.extraOf(data.userId), roomEndsAt: plan.end }),
        ...(resume ? { resume } : {}),
      }),
    );
  }
  for (const userId of new Set(leaving))
    for (const ws of sockets.ofUser(userId)) closeQuietly(ws, ROOM_MOVED_CODE, ROOM_TEXT.moved);
  return { startTime: plan.config.startTime };
}
