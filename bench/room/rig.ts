// The room bench's rig: one room as Cloudflare runs it, its server's workerd on one core and the bench's clients on the
// other (`taskset`), and a deploy: the served workerd stopped and started again on the same state and port, so every
// socket drops, the room loses what it held in memory and keeps its SQLite storage.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { startDirectServer } from "../lib/direct-server.ts";
import { workerdUnder } from "../lib/reconnect-cost.ts";
import { BENCH_STATE, type LocalServer } from "../lib/server.ts";

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

/**
 * A deploy: stops the served workerd (its process group) and serves the same build on the same state and port again.
 * `server` becomes the new one (so whoever stops it later stops that). Returns when the old one was stopped and when
 * the new one answered (performance.now()).
 */
export async function redeploy(server: LocalServer, rig: Rig): Promise<{ stoppedAt: number; servingAt: number }> {
  const port = Number(new URL(server.baseUrl).port);
  const old = [server.pid!, ...workerdUnder(server.pid!)];
  const stoppedAt = performance.now();
  await server.stop();
  // The port is free once the old processes are gone; past 20 s they are killed.
  for (let waited = 0; old.some((pid) => existsSync(`/proc/${pid}`)); waited += 50) {
    if (waited === 20_000)
      for (const pid of old) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // gone
        }
      }
    await new Promise((r) => setTimeout(r, 50));
  }
  const fresh = await startDirectServer(port, BENCH_STATE);
  const servingAt = performance.now();
  Object.assign(server, fresh);
  for (const pid of workerdUnder(fresh.pid!)) rig.pinServer(pid);
  return { stoppedAt, servingAt };
}
