// The room bench's headroom (BENCH_ONLY=room): after the day, one room of the same candidates with one subject open,
// answering at stepped multiples of the real day's rate in short steady windows (the first at 0: clock syncs only,
// the room's CPU at rest). The headroom is the largest multiple at which ack p99 stays within the goal, every step
// below it within too; workerd's CPU against the answer rate gives the marginal cost of an answer.
import { cpuSeconds, workerdUnder } from "../lib/workerd-process.ts";
import type { LocalServer } from "../lib/server.ts";
import { answerKeys } from "../national.ts";
import { Candidate, type Day } from "./candidate.ts";
import { inPool, Recorder, seeded, sleep, sleepUntil } from "./pace.ts";
import { createSimulation, deleteSimulation, type RoomSetup, startSimulation } from "./setup.ts";

/** Before each step's window, at its rate; after it, at the same rate, for its last answers' acks. */
const WARM_MS = 3000;
const SETTLE_MS = 2000;

const r2 = (n: number) => (Number.isFinite(n) ? Math.round(n * 100) / 100 : null);

/** The least-squares line through (x, y): its slope and intercept. */
export function fitLine(points: readonly { x: number; y: number }[]) {
  const n = points.length;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const sxx = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  const slope = sxx > 0 ? points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0) / sxx : Number.NaN;
  return { slope, intercept: my - slope * mx };
}

export async function measureHeadroom(
  server: LocalServer,
  setup: RoomSetup,
  shape: { steps: number[]; stepS: number; goalMs: number; seed: number },
) {
  const { baseUrl } = server;
  const simId = await createSimulation(baseUrl, setup, `room-headroom-${Date.now()}`, 60, 1);
  const rec = new Recorder();
  const day: Day = { keys: answerKeys(simId), pace: { multiplier: 0 }, rooms: 1 };
  const clients = setup.users.map((u) => new Candidate(u, server, simId, seeded(shape.seed * 104_729 + u.id), rec));
  try {
    let inLobby = 0;
    await inPool(clients, 25, async (c) => void ((await c.lobby(false)) && inLobby++));
    if (inLobby < clients.length) console.log(`headroom: ${inLobby} of ${clients.length} in the room`);
    const sitting = Promise.all(clients.map((c) => c.sit(day, false)));
    const start = await startSimulation(baseUrl, setup, simId);
    await sleepUntil(start.startTime);
    await sitting; // every candidate has opened the subject
    const workerd = workerdUnder(server.pid!)[0]!;
    const steps: {
      multiplier: number;
      answersPerSecond: number | null;
      ackP50Ms: number | null;
      ackP99Ms: number | null;
      cpuMsPerSecond: number | null;
    }[] = [];
    for (const multiplier of [0, ...shape.steps]) {
      day.pace.multiplier = multiplier;
      for (const c of clients) c.reschedule(day);
      await sleep(WARM_MS);
      const [from, cpuFrom] = [performance.now(), cpuSeconds(workerd)];
      await sleep(shape.stepS * 1000);
      const [to, cpu] = [performance.now(), cpuSeconds(workerd) - cpuFrom];
      await sleep(SETTLE_MS);
      const acks = rec.acks(from, to);
      steps.push({
        multiplier,
        answersPerSecond: r2(acks.perSecond),
        ackP50Ms: r2(acks.p50),
        ackP99Ms: r2(acks.p99),
        cpuMsPerSecond: r2((cpu * 1000) / ((to - from) / 1000)),
      });
      console.log(`  ${multiplier}× the real day's rate: ${JSON.stringify(steps.at(-1))}`);
      if (multiplier > 0 && !(acks.p99 <= shape.goalMs)) break;
    }
    const passed = steps.filter((s) => s.multiplier > 0 && (s.ackP99Ms ?? Number.POSITIVE_INFINITY) <= shape.goalMs);
    const line = fitLine(steps.map((s) => ({ x: s.answersPerSecond ?? 0, y: s.cpuMsPerSecond ?? 0 })));
    return {
      headroom: passed.length ? Math.max(...passed.map((s) => s.multiplier)) : 0,
      /** Every step passed: the headroom is at least the last one. */
      capped: passed.length === shape.steps.length,
      steps,
      cpuMsPerAnswerMarginal: r2(line.slope),
      cpuMsPerSecondAtRest: r2(steps[0]?.cpuMsPerSecond ?? Number.NaN),
    };
  } finally {
    for (const c of clients) c.close();
    await deleteSimulation(baseUrl, setup, simId);
  }
}
