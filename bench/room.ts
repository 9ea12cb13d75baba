// BENCH_ONLY=room npm run bench: one room as Cloudflare runs it (issue 45, point 4). On Cloudflare each room is one
// Durable Object on a thread of its own, and the Worker runs on many machines; here the served workerd is pinned to one
// core and the bench's clients to the other (bench/room/rig.ts, `taskset`), and the suite measures one room of
// ROOM_CLIENTS candidates (default 1,000) sitting the real day's shape:
//   - the day (bench/room/day.ts): the default edition's 3 × 31 questions, ROOM_SUBJECT_MIN minutes each (default 2),
//     5 % of the candidates at +30 % and 2 % at +50 % (set on the users, as an admin does); each candidate makes the
//     browser's HTTP calls (the page, the flow with every subject sealed, the attempt, the ranking), opens each subject
//     with the key the room pushes, and answers on a seeded random schedule at ROOM_RATE (default 10) times the real
//     day's rate (each candidate's 93 answers over 3 × 50 minutes), whatever the subjects' length;
//   - mid-subject 2, a deploy (bench/room/rig.ts): the next version, started before the lobby on the same state, takes
//     over as the running one is stopped at once (every socket drops, the room loses its memory, its SQLite storage
//     stays); the candidates come back by the runner's rules (app/lib/runner-timing.ts), and what the room had
//     acknowledged is checked in their hellos and graded attempts;
//   - after the day, the headroom (bench/room/headroom.ts): ROOM_STEPS multiples of the real rate (default
//     10,20,40,80), ROOM_STEP_S seconds each (default 20);
//   - the reconnect's CPU against the floor room, served as the app is (behind the local runtime's asset router), and
//     against the bare floor (bench/lib/reconnect-cost.ts, as BENCH_ONLY=reconnect).
// Writes `room` in bench/results/latest.json with PASS or FAIL against the goals; docs/capacity.md is built
// from it (`npm run bench:capacity`). ROOM_SEED changes the schedule's draw (default 45).
import { percentile } from "./lib/stats.ts";
import { failedHandshakes, reconnectCost, refused } from "./lib/reconnect-cost.ts";
import { benchServerKind, type LocalServer } from "./lib/server.ts";
import { sitDay } from "./room/day.ts";
import { measureHeadroom } from "./room/headroom.ts";
import { realRoomRate } from "./room/pace.ts";
import { pinRig } from "./room/rig.ts";
import { prepareRoom } from "./room/setup.ts";

const CLIENTS = Number(process.env.ROOM_CLIENTS ?? 1000);
const SUBJECT_MIN = Number(process.env.ROOM_SUBJECT_MIN ?? 2);
const RATE = Number(process.env.ROOM_RATE ?? 10);
const STEPS = (process.env.ROOM_STEPS ?? "10,20,40,80").split(",").map(Number);
const STEP_S = Number(process.env.ROOM_STEP_S ?? 20);
const SEED = Number(process.env.ROOM_SEED ?? 45);
const RECONNECT_ANSWERS = 20;

/** The goals for one room. */
export const ROOM_GOALS = {
  ackP99Ms: 300,
  headroom: 20,
  deployBackWithinS: 10,
  deployLost: 0,
  deployAckP99Ms: 2000,
  gradingS: 5,
  reconnectOverFloor: 1.5,
} as const;

const r2 = (n: number) => (Number.isFinite(n) ? Math.round(n * 100) / 100 : null);

export async function benchRoom(server: LocalServer) {
  const began = performance.now();
  if (benchServerKind() !== "direct") throw new Error("room: its deploy runs workerd itself (BENCH_SERVER=direct)");
  console.log(
    `One room: ${CLIENTS} candidates, 3 subjects × ${SUBJECT_MIN} min at ${RATE}× the real day's answer rate, a deploy ` +
      `mid-subject 2; then the headroom (${STEPS.join(", ")}× for ${STEP_S} s each) and the reconnect's cost`,
  );
  const rig = pinRig(server);
  try {
    const setup = await prepareRoom(server.baseUrl, CLIENTS, SEED);
    const day = await sitDay(server, setup, rig, { subjectMin: SUBJECT_MIN, multiplier: RATE, seed: SEED });
    console.log("day:", JSON.stringify(day));
    const headroom = await measureHeadroom(server, setup, {
      steps: STEPS,
      stepS: STEP_S,
      goalMs: ROOM_GOALS.ackP99Ms,
      seed: SEED,
    });
    const cost = await reconnectCost(server, { clients: CLIENTS, answers: RECONNECT_ANSWERS }, { pin: rig.pinServer });
    if (refused.size) console.log("reconnect waves: answers refused", Object.fromEntries(refused));
    const cpuMsPerReconnect = percentile(cost.appMs, 50);
    const floorCpuMsPerReconnect = percentile(cost.floorMs, 50);
    const bareFloorCpuMsPerReconnect = percentile(cost.bareFloorMs, 50);
    const result = {
      clients: CLIENTS,
      subjectMin: SUBJECT_MIN,
      rate: RATE,
      realAnswersPerSecond: r2(realRoomRate(setup.users.map((u) => u.extraPct))),
      pinned: rig.pinned,
      answersPerSecond: day.answersPerSecond,
      ackP50Ms: day.ackP50Ms,
      ackP99Ms: day.ackP99Ms,
      deploy: day.deploy,
      gradingS: day.gradingS,
      cpuMsPerAnswer: day.cpuMsPerAnswer,
      cpuMsPerAnswerMarginal: headroom.cpuMsPerAnswerMarginal,
      cpuMsPerSecondAtRest: headroom.cpuMsPerSecondAtRest,
      pingsPerSecond: day.pingsPerSecond,
      cpuMsPerReconnect: r2(cpuMsPerReconnect),
      floorCpuMsPerReconnect: r2(floorCpuMsPerReconnect),
      reconnectOverFloor: r2(cpuMsPerReconnect / floorCpuMsPerReconnect),
      bareFloorCpuMsPerReconnect: r2(bareFloorCpuMsPerReconnect),
      reconnectOverBareFloor: r2(cpuMsPerReconnect / bareFloorCpuMsPerReconnect),
      reconnectWaves: {
        app: cost.appMs.map(r2),
        floor: cost.floorMs.map(r2),
        bareFloor: cost.bareFloorMs.map(r2),
        failedHandshakes,
      },
      headroom: headroom.headroom,
      headroomCapped: headroom.capped,
      headroomSteps: headroom.steps,
      connected: day.connected,
      connectS: day.connectS,
      graded: day.graded,
      gradedMismatch: day.gradedMismatch,
      answersSent: day.answersSent,
      acked: day.acked,
      rejected: day.rejected,
      keys: day.keys,
      httpCallsPerClient: day.httpCallsPerClient,
      httpSaves: day.httpSaves,
      httpSavesFailed: day.httpSavesFailed,
      httpErrors: day.httpErrors,
      rankingBytesP95: day.rankingBytesP95,
      d1: day.d1,
      durationS: 0,
    };
    const checks = {
      ackP99Ms: (result.ackP99Ms ?? Number.POSITIVE_INFINITY) <= ROOM_GOALS.ackP99Ms,
      headroom: result.headroom >= ROOM_GOALS.headroom,
      deployBackWithinS: (result.deploy.backWithinS ?? Number.POSITIVE_INFINITY) <= ROOM_GOALS.deployBackWithinS,
      deployLost: result.deploy.lost === ROOM_GOALS.deployLost,
      deployAckP99Ms: (result.deploy.ackP99Ms ?? Number.POSITIVE_INFINITY) <= ROOM_GOALS.deployAckP99Ms,
      gradingS: (result.gradingS ?? Number.POSITIVE_INFINITY) <= ROOM_GOALS.gradingS,
      reconnectOverFloor: (result.reconnectOverFloor ?? Number.POSITIVE_INFINITY) <= ROOM_GOALS.reconnectOverFloor,
      connected: result.connected === CLIENTS,
      graded: result.graded === result.connected && result.gradedMismatch === 0,
    };
    const failed = Object.entries(checks).flatMap(([k, ok]) => (ok ? [] : [k]));
    result.durationS = Math.round((performance.now() - began) / 1000);
    const { deploy, headroomSteps, d1, httpErrors, reconnectWaves, ...table } = result;
    console.log("\nOne room as Cloudflare runs it:");
    console.table([table]);
    console.table([{ ...deploy, closeCodes: JSON.stringify(deploy.closeCodes) }]);
    console.table(headroomSteps);
    console.log("D1 queries by phase:", d1, Object.keys(httpErrors).length ? { httpErrors } : "");
    console.log(
      `reconnect waves (ms of workerd CPU): app ${reconnectWaves.app.join(", ")}; floor ${reconnectWaves.floor.join(", ")}; ` +
        `bare floor ${reconnectWaves.bareFloor.join(", ")}` +
        (failedHandshakes ? ` (${failedHandshakes} handshakes tried again)` : ""),
    );
    console.log(`room: ${result.durationS} s in all${rig.pinned ? "" : " (not pinned)"}`);
    console.log(
      failed.length
        ? `FAIL room: ${failed.join(", ")} (goals: ack p99 ≤ ${ROOM_GOALS.ackP99Ms} ms at ${RATE}×, headroom ≥ ${ROOM_GOALS.headroom}×, after the deploy everyone back within ${ROOM_GOALS.deployBackWithinS} s, no acknowledged answer lost, its ack p99 ≤ ${ROOM_GOALS.deployAckP99Ms} ms; grading ≤ ${ROOM_GOALS.gradingS} s; reconnect CPU ≤ ${ROOM_GOALS.reconnectOverFloor}× the floor served as the app is)`
        : "PASS room",
    );
    return { ...result, pass: failed.length === 0, failed };
  } finally {
    rig.restore();
  }
}
