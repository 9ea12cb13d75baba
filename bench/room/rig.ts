// The room bench's rig: one room as Cloudflare runs it, its server's workerd on one core and the bench's clients on the
// other (`taskset`), and a deploy: the next version's process held ready beforehand, then the running one stopped at
// once, every new connection sent to the next and its workerd started on the same state, so every socket drops, the
// room loses what it held in memory and keeps its SQLite storage.
import { execFileSync, spawnSync } from "node:child_process";
import { availableParallelism } from "node:os";
import { holdDirectServer } from "../lib/direct-server.ts";
import { alive, workerdUnder } from "../lib/workerd-process.ts";
import { BENCH_STATE, killGroup, type LocalServer } from "../lib/server.ts";

export const SERVER_CORE = 0;
export const CLIENT_CORE = 1;

export type Rig = {
  /** Whether the server and the clients run on cores of their own. */
  pinned: boolean;
  /** Pins a workerd of the server (or the floor room's) to the server's core. */
  pinServer: (pid: number) => void;
  /** Gives this process and the server their former cores back. */
  restore: () => void;
};

const affinityOf = (pid: number) =>
  /:\s*(\S+)\s*$/.exec(execFileSync("taskset", ["-pc", String(pid)]).toString())?.[1] ?? "0-1";

const pin = (pid: number, cores: string) =>
  spawnSync("taskset", ["-apc", cores, String(pid)], { stdio: "ignore" }).status === 0;

/** Pins the server's workerd to SERVER_CORE and this process (every thread: the clients) to CLIENT_CORE. */
export function pinRig(server: LocalServer): Rig {
  const noop = { pinned: false, pinServer: () => {}, restore: () => {} };
  if (spawnSync("taskset", ["-V"], { stdio: "ignore" }).status !== 0) {
    console.warn("WARNING: taskset is missing (util-linux): the server and the clients share every core in this run");
    return noop;
  }
  if (availableParallelism() < 2) {
    console.warn("WARNING: one core only: the server and the clients share it in this run");
    return noop;
  }
  const own = affinityOf(process.pid);
  const pinServer = (pid: number) => {
    if (!pin(pid, String(SERVER_CORE))) console.warn(`WARNING: could not pin workerd ${pid} to core ${SERVER_CORE}`);
  };
  for (const pid of workerdUnder(server.pid!)) pinServer(pid);
  pin(process.pid, String(CLIENT_CORE));
  console.log(`pinned: workerd on core ${SERVER_CORE}, the bench's clients on core ${CLIENT_CORE}`);
  return {
    pinned: true,
    pinServer,
    restore: () => {
      pin(process.pid, own);
      for (const pid of workerdUnder(server.pid!)) pin(pid, own);
    },
  };
}

/** Where the next version listens: beside the served one (the reconnect bench's floors take BENCH_PORT + 7 and + 8). */
const NEXT_VERSION_PORT_OFFSET = 3;

/**
 * A deploy, as Cloudflare makes one: the next version is ready before the release (its process started beforehand and
 * held: wrangler, Miniflare and the build's options loaded, bench/lib/direct-server.ts holdDirectServer), and the
 * release stops the running version at once (SIGKILL of its process group: every socket drops, the room loses its
 * memory, its committed SQLite storage stays), sends every new connection to the next version's port and starts its
 * workerd on that storage, pinned to the server's core. So the deploy's window holds workerd's own start and the
 * candidates' comeback, not Node's start-up on this machine (8.5 s when the bench stopped and restarted one server on
 * the same port). Its workerd starts only once the running one is gone: two workerds never share the state, and the
 * next one loads the rooms' alarms as they are at the release (one started earlier would hold the alarms of its own
 * start: subject 3 never opened).
 */
export type NextVersion = {
  /** Releases it: `server` becomes it (whoever stops `server` later stops it). */
  release: () => Promise<{ stoppedAt: number; servingAt: number }>;
  /** Stops it if it was never released. */
  discard: () => Promise<void>;
};

export async function prepareDeploy(server: LocalServer, rig: Rig): Promise<NextVersion> {
  const port = Number(new URL(server.baseUrl).port) + NEXT_VERSION_PORT_OFFSET;
  const next = await holdDirectServer(port, BENCH_STATE);
  // On the server's core: the workerd it starts at the release inherits it.
  rig.pinServer(next.pid);
  let released = false;
  return {
    release: async () => {
      released = true;
      const old = [server.pid!, ...workerdUnder(server.pid!)];
      const stoppedAt = performance.now();
      killGroup(server.pid!, "SIGKILL");
      while (old.some(alive)) await new Promise((r) => setTimeout(r, 5));
      // From here every new connection goes to the next version's port (refused until its workerd answers).
      server.baseUrl = next.baseUrl;
      const serving = await next.serve();
      Object.assign(server, serving);
      for (const pid of workerdUnder(serving.pid!)) rig.pinServer(pid);
      return { stoppedAt, servingAt: performance.now() };
    },
    discard: async () => {
      if (!released) killGroup(next.pid, "SIGKILL");
    },
  };
}
