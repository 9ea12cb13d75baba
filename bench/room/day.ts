// The room bench's day (BENCH_ONLY=room): one room of candidates sits the default edition's day at a multiple of the
// real day's answer rate, and mid-subject 2 the server is deployed again (rig.ts: every socket drops, the room loses
// its memory and keeps its storage) while the candidates come back as the runner does. Measured: the acks outside and
// inside the deploy's window, workerd's CPU per answer over a steady window of subject 1, who came back when and what
// the restarted room lacked, the grading (from the last deadline to the room's simulation-end), and the server's own
// D1 meter per phase (rows do not depend on the rig; queries are what docs/capacity.md builds on).
import { SIMULATION_GRACE_MS } from "../../app/lib/constants.ts";
import { subjectWindows } from "../../app/lib/simulation.ts";
import { cpuSeconds, workerdUnder } from "../lib/workerd-process.ts";
import type { LocalServer } from "../lib/server.ts";
import { percentile } from "../lib/stats.ts";
import { answerKeys } from "../national.ts";
import { Candidate, type Day } from "./candidate.ts";
import { inPool, perfAt, Recorder, seeded, sleep, sleepUntil, until } from "./pace.ts";
import { type NextVersion, prepareDeploy, type Rig } from "./rig.ts";
import {
  createSimulation,
  d1Meter,
  deleteSimulation,
  gradedAttempts,
  type RoomSetup,
  startSimulation,
} from "./setup.ts";

/** The deploy's window for its acks: from the stop to this long after the last candidate is back. */
const DEPLOY_WINDOW_AFTER_BACK_MS = 10_000;
/** Candidates whose result calls are repeated one by one, to split the results' D1 queries (attempt, ranking). */
const PROBES = 5;

const r1 = (n: number) => (Number.isFinite(n) ? Math.round(n * 10) / 10 : null);
const r2 = (n: number) => (Number.isFinite(n) ? Math.round(n * 100) / 100 : null);

type Shape = { subjectMin: number; multiplier: number; seed: number };

/** The day, with the deploy's next version started before the lobby (its start-up is not the day's). */
export async function sitDay(server: LocalServer, setup: RoomSetup, rig: Rig, shape: Shape) {
  const next = await prepareDeploy(server, rig);
  try {
    return await sitDayThrough(server, setup, next, shape);
  } finally {
    await next.discard();
  }
}

async function sitDayThrough(server: LocalServer, setup: RoomSetup, next: NextVersion, shape: Shape) {
  // Every call reads server.baseUrl when it is made: the deploy sends what follows it to the next version.
  const meter = d1Meter(server, setup);
  const workerd = () => workerdUnder(server.pid!)[0]!;
  const simId = await createSimulation(server.baseUrl, setup, `room-${Date.now()}`, shape.subjectMin);
  const rec = new Recorder();
  const day: Day = { keys: answerKeys(simId), pace: { multiplier: shape.multiplier }, rooms: 1 };
  const clients = setup.users.map((u) => new Candidate(u, server, simId, seeded(shape.seed * 7919 + u.id), rec));
  const d1: Record<string, number | null> = {};
  const perClient = (queries: number) => r2(queries / clients.length);

  // The lobby: the page, the flow (sealed), the socket and its clock sync.
  await meter.reset();
  const lobbyFrom = performance.now();
  let inLobby = 0;
  await inPool(clients, 25, async (c) => void ((await c.lobby()) && inLobby++));
  const connectS = r1((performance.now() - lobbyFrom) / 1000);
  d1.lobbyPerClient = perClient(await meter.queries());
  console.log(`${inLobby} of ${clients.length} in the lobby in ${connectS} s`);

  // Avvia, then the day.
  await meter.reset();
  const sitting = Promise.all(clients.map((c) => c.sit(day)));
  const start = await startSimulation(server.baseUrl, setup, simId);
  // Avvia's own queries and the room's plan read (the start call it makes): per room, an upper bound.
  d1.start = await meter.queries();
  await meter.reset();
  const windows = subjectWindows(clients[0]!.flow, start.startTime);
  const [first, second] = [windows[0]!, windows[1] ?? windows[0]!];
  const dayFrom = perfAt(start.startTime);

  // workerd's CPU over a steady stretch of subject 1 (its opening's key push and sealed openings behind it).
  const span = first.endsAt - first.startsAt;
  const steady = { from: first.startsAt + Math.min(20_000, span / 4), to: first.endsAt - Math.min(10_000, span / 10) };
  await sleepUntil(steady.from);
  const cpuFrom = cpuSeconds(workerd());
  const [steadyFrom, pingsFrom] = [performance.now(), rec.pings];
  await sleepUntil(steady.to);
  const cpuMs = (cpuSeconds(workerd()) - cpuFrom) * 1000;
  const [steadyTo, pings] = [performance.now(), rec.pings - pingsFrom];

  // The deploy, mid-subject 2.
  await sleepUntil(second.startsAt + (second.endsAt - second.startsAt) / 2);
  d1.startToDeploy = await meter.queries();
  for (const c of clients) c.markDeploy();
  const { stoppedAt, servingAt } = await next.release();
  const allBack = await until(() => clients.every((c) => c.deploy?.backAt !== undefined), 60_000);
  const backs = clients.flatMap((c) => (c.deploy?.backAt === undefined ? [] : [c.deploy.backAt]));
  // Up: the first moment the restarted server is known to answer (its first hello, or its page).
  const upAt = Math.min(servingAt, ...backs);
  const lastBack = backs.length ? Math.max(...backs) : Number.NaN;
  const deployWindow: [number, number] = [
    stoppedAt,
    (allBack ? lastBack : performance.now()) + DEPLOY_WINDOW_AFTER_BACK_MS,
  ];
  await sleep(2000);
  d1.deployPerClient = perClient(await meter.queries());
  await meter.reset();

  // The end: the last deadline (the last candidate's end plus the grace), the room's grading and its D1 write.
  const lastDeadline = start.endsAt + SIMULATION_GRACE_MS;
  // Read a second before it: the room grades as soon as its alarm runs, in about a hundred ms at a hundred candidates.
  await sleepUntil(lastDeadline - 1000);
  d1.afterDeploy = await meter.queries();
  await meter.reset();
  await until(() => clients.some((c) => c.endReceivedAt !== undefined), 120_000);
  d1.grading = await meter.queries();
  await meter.reset();
  await sitting;
  for (const c of clients) c.close(); // any who never got in
  d1.resultsPerClient = perClient(await meter.queries());
  Object.assign(d1, await probeResults(clients.filter((c) => c.graded).slice(0, PROBES), meter));
  const dayTo = performance.now();
  const ends = clients.flatMap((c) => (c.endReceivedAt === undefined ? [] : [c.endReceivedAt]));

  // What the restarted room lacked: in each candidate's first hello after the deploy, and in the graded attempts.
  const attempts = gradedAttempts(simId);
  const lostAtGrading = clients.reduce(
    (n, c) => n + (c.deploy ? c.missing(c.deploy.acked, attempts.get(c.user.id)).length : 0),
    0,
  );
  const lostAtHello = clients.reduce((n, c) => n + (c.deploy?.lost ?? 0), 0);
  const gradedMismatch = clients.reduce((n, c) => n + c.missing(c.acked, attempts.get(c.user.id)).length, 0);
  await deleteSimulation(server.baseUrl, setup, simId);

  const outside = rec.acks(dayFrom, dayTo, deployWindow);
  const inDeploy = rec.acks(...deployWindow);
  const steadyAcks = rec.acks(steadyFrom, steadyTo);
  const ranking = clients.flatMap((c) => (c.rankingBytes === undefined ? [] : [c.rankingBytes]));
  return {
    connected: inLobby,
    connectS,
    answersPerSecond: r1(steadyAcks.perSecond),
    ackP50Ms: r1(outside.p50),
    ackP99Ms: r1(outside.p99),
    answersSent: rec.sends.length,
    acked: rec.sends.filter((s) => s.ackMs !== undefined).length,
    rejected: rec.rejected,
    cpuMsPerAnswer: r2(cpuMs / Math.max(1, steadyAcks.acked)),
    // The clock syncs' pings in the same window: their share of that CPU (docs/capacity.md counts them apart).
    pingsPerSecond: r1((pings * 1000) / (steadyTo - steadyFrom)),
    deploy: {
      backWithinS: allBack ? r1((lastBack - upAt) / 1000) : null,
      back: backs.length,
      lost: lostAtHello + lostAtGrading,
      lostAtHello,
      lostAtGrading,
      ackP99Ms: r1(inDeploy.p99),
      ackP50Ms: r1(inDeploy.p50),
      downS: r1((upAt - stoppedAt) / 1000),
      backFromStopP50S: r1((percentile(backs, 50) - stoppedAt) / 1000),
      closeCodes: rec.closeCodes,
    },
    gradingS: ends.length ? r1((Math.max(...ends) - lastDeadline) / 1000) : null,
    graded: clients.filter((c) => c.graded).length,
    gradedMismatch,
    rankingBytesP95: percentile(ranking, 95),
    keys: rec.keys,
    httpCallsPerClient: r1(rec.httpCalls / clients.length),
    httpSaves: rec.httpSaves,
    httpSavesFailed: rec.httpSavesFailed,
    httpErrors: rec.httpErrors,
    d1,
  };
}

/** The result calls repeated by a few graded candidates, one at a time: D1 queries of an attempt and of a ranking. */
async function probeResults(probes: Candidate[], meter: ReturnType<typeof d1Meter>) {
  let attempt = 0;
  let ranking = 0;
  for (const c of probes) {
    await meter.reset();
    await (
      await c.http(`/simulazione.data?id=${c.simulationId}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ answers: c.answers, timeTaken: 1 }),
      })
    )?.text();
    attempt += await meter.queries();
    await meter.reset();
    await (await c.http(`/api/simulations/${c.simulationId}/ranking`))?.text();
    ranking += await meter.queries();
  }
  return {
    attemptCall: r1(attempt / Math.max(1, probes.length)),
    rankingCall: r1(ranking / Math.max(1, probes.length)),
  };
}
