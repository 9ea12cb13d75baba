// The reconnect bench's floor rooms (bench/lib/reconnect-cost.ts): bench/fixtures/floor-room.js on a workerd of its
// own, behind the local runtime's asset router as the app is, or bare.
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Target } from "./reconnect-cost.ts";
import { BENCH_STATE } from "./server.ts";
import { workerdUnder } from "./workerd-process.ts";

/** The floor's workerd inspector (for its profile beside the app's): the app's BENCH_INSPECTOR_PORT + 1. */
export const floorInspectorPort = () =>
  process.env.BENCH_INSPECTOR_PORT ? Number(process.env.BENCH_INSPECTOR_PORT) + 1 : undefined;

/**
 * The floor: bench/fixtures/floor-room.js on a workerd of its own (Miniflare, in this process). `routed`: served as the
 * app is, behind the asset router that the local runtime puts in front of a Worker with static assets (the app's
 * `run_worker_first` sends /api/* straight to the Worker, but through that router's hop). On Cloudflare that router
 * runs outside the room's thread; here it is on the same one for both, so the app's ratio to the routed floor is its
 * own code's. The bare floor (no router) is reported beside it.
 */
export async function floorServer(routed: boolean) {
  const { convertV4MiniflareOptions, Log, LogLevel, Miniflare } = await import("miniflare");
  const known = new Set(workerdUnder(process.pid));
  const port = Number(process.env.BENCH_PORT ?? 4329) + (routed ? 8 : 7);
  const state = `${BENCH_STATE}-floor${routed ? "-routed" : ""}`;
  const assets = join(state, "assets"); // none: the router only forwards
  mkdirSync(assets, { recursive: true });
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      host: "127.0.0.1",
      port,
      // The network is closed: never fetch the Request.cf placeholder from Cloudflare.
      cf: false,
      log: new Log(LogLevel.WARN),
      ...(floorInspectorPort() && routed ? { inspectorPort: floorInspectorPort() } : {}),
      // Its room's storage on tmpfs beside the app's (BENCH_STATE), not in the disk's temporary directory.
      resourcePersistencePath: state,
      workers: [
        {
          name: "floor",
          modules: true,
          scriptPath: resolve("bench/fixtures/floor-room.js"),
          // As the app's (wrangler.jsonc): the same runtime and no WebSocket compression, so both sides pay the same.
          compatibilityDate: "2026-10-01",
          compatibilityFlags: ["no_web_socket_compression"],
          durableObjects: { ROOM: { className: "FloorRoom", useSQLite: true } },
          // As wrangler turns the app's `assets.run_worker_first` into Miniflare's options.
          ...(routed
            ? {
                assets: {
                  directory: assets,
                  run_worker_first: ["/ws"],
                  routerConfig: { has_user_worker: true, static_routing: { asset_worker: [], user_worker: ["/ws"] } },
                  assetConfig: { compatibility_date: "2026-10-01", compatibility_flags: ["no_web_socket_compression"] },
                },
              }
            : {}),
        },
      ],
    } as Parameters<typeof convertV4MiniflareOptions>[0]),
  );
  await mf.ready;
  const [workerd] = workerdUnder(process.pid).filter((p) => !known.has(p));
  if (!workerd) throw new Error("the floor's workerd was not found");
  const target: Target = {
    url: (i) => `ws://127.0.0.1:${port}/ws?u=${i}`,
    headers: () => ({}),
    answer: (i, k) => ({ subjectId: 1, questionId: 100_000 + ((i + k) % 31), value: "B" }),
  };
  return { target, workerd, stop: () => mf.dispose() };
}
