// Serves the already built app (build/server/wrangler.json + build/client, written by `react-router build`) straight
// from workerd, as Cloudflare's edge reaches a Worker: Miniflare hands workerd the loopback port itself, so every
// request and every WebSocket frame goes from the client into workerd, with no Node process in between (`vite
// preview` answers in Node and forwards each request with dispatchFetch and each socket through `ws`).
// The Worker's options come from wrangler's documented helpers (unstable_readConfig, unstable_getMiniflareWorkerOptions:
// bindings, D1, Durable Objects, assets, .dev.vars, compatibility), the same ones the vite plugin's preview uses; the
// state is the layout `vite preview` uses with UNICUM_STATE_DIR (DIR/v3, vite.config.ts persistState), so the
// state seeded by test/e2e/serve.ts and written by `wrangler d1 execute --persist-to DIR` is the one served.
//
// As a module: startDirectServer(port, state) spawns this file in its own process group and waits until it answers.
// As a program: node bench/lib/direct-server.ts --port 4395 --state .wrangler/bench-state [--held: wait for SIGUSR2]
import { spawn } from "node:child_process";
import { globSync } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { V4WorkerOptions } from "miniflare";
import { type LocalServer, whenServing } from "./server.ts";

const BUILT_CONFIG = join("build", "server", "wrangler.json");

/** This file run as the server's own process (its own process group); `held`: it waits for SIGUSR2 to start workerd. */
function spawnServer(port: number, state: string, held: boolean) {
  return spawn(
    process.execPath,
    [fileURLToPath(import.meta.url), "--port", String(port), "--state", state, ...(held ? ["--held"] : [])],
    {
      stdio: ["ignore", held ? "pipe" : "ignore", "inherit"],
      detached: true,
      env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" },
    },
  );
}

/** Serves the built app from workerd on 127.0.0.1:port with the state in `state` (its own process group). */
export async function startDirectServer(port: number, state: string): Promise<LocalServer> {
  return whenServing(spawnServer(port, state, false), port, 120_000);
}

/**
 * The ES modules of the built Worker, the entry first, named relative to its directory. Miniflare would only follow
 * the entry's imports; like the vite plugin's preview (getPreviewModules, copied here in a few lines) take every file
 * the config's module rules match, so chunks imported at run time are there too.
 */
function builtModules(main: string, rules: { type: string; include: string[] }[]) {
  const rootPath = dirname(main);
  const entry = basename(main);
  const seen = new Set([entry]);
  const modules = [{ type: "ESModule", path: entry }];
  for (const { type, include } of rules)
    for (const path of globSync(include, { cwd: rootPath }))
      if (!seen.has(path)) {
        seen.add(path);
        modules.push({ type, path });
      }
  return { rootPath, modules };
}

/**
 * A server made ready to serve and held: its process has loaded wrangler and Miniflare and read the build's options
 * (most of its start-up), and starts workerd on `serve()`. The room bench's deploy starts the next version's runtime
 * this way, after the running one is gone: workerd loads the room's storage (its alarms included) as it starts, as the
 * next version does on Cloudflare, and the deploy's gap is workerd's own start, not Node's imports.
 */
export async function holdDirectServer(port: number, state: string) {
  const child = spawnServer(port, state, true);
  await new Promise<void>((resolve, reject) => {
    let said = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      said += chunk.toString();
      if (said.includes(HELD)) resolve();
    });
    child.once("exit", (code) => reject(new Error(`held server exited with ${code}`)));
  });
  return {
    pid: child.pid!,
    baseUrl: `http://localhost:${port}`,
    /** Starts workerd and resolves once it answers. */
    serve: (): Promise<LocalServer> => {
      child.kill("SIGUSR2");
      return whenServing(child, port, 120_000);
    },
  };
}

const HELD = "direct server: held";

async function serve(port: number, state: string, held = false) {
  // Loaded here, in the server's process only: the bench that imports startDirectServer never needs them.
  const { convertV4MiniflareOptions, Log, LogLevel, Miniflare } = await import("miniflare");
  const { unstable_getMiniflareWorkerOptions, unstable_readConfig } = await import("wrangler");
  // The network is closed: never fetch the Request.cf placeholder from Cloudflare.
  process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
  const config = unstable_readConfig({ config: BUILT_CONFIG });
  const { workerOptions, main, externalWorkers } = unstable_getMiniflareWorkerOptions(config);
  if (!main) throw new Error(`${BUILT_CONFIG} names no main module: run react-router build first`);
  const { modulesRules, ...sourceless } = workerOptions;
  const worker = {
    ...sourceless,
    name: config.name,
    // main is resolved against the config's directory (build/server) when wrangler leaves it relative.
    ...builtModules(isAbsolute(main) ? main : resolve(dirname(BUILT_CONFIG), main), modulesRules ?? []),
  } as unknown as V4WorkerOptions;
  if (held) {
    // Everything but workerd is ready: wait for the word (SIGUSR2), going away at once if stopped meanwhile.
    const early = () => process.exit(0);
    process.on("SIGTERM", early);
    // A signal's listener does not keep Node's event loop alive: this timer does, until the word comes.
    const alive = setInterval(() => {}, 60_000);
    await new Promise<void>((resolve) => {
      process.once("SIGUSR2", () => resolve());
      process.stdout.write(`${HELD}\n`);
    });
    clearInterval(alive);
    process.off("SIGTERM", early);
  }
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      host: "127.0.0.1",
      port,
      // Warnings and errors only: at INFO Miniflare's entry worker posts a log line for every request to Node.
      log: new Log(LogLevel.WARN),
      // BENCH_INSPECTOR_PORT: the V8 inspector of the Worker (for a CPU profile of a run), off by default.
      ...(process.env.BENCH_INSPECTOR_PORT ? { inspectorPort: Number(process.env.BENCH_INSPECTOR_PORT) } : {}),
      logRequests: false,
      cf: false,
      telemetry: { enabled: false },
      resourcePersistencePath: resolve(state, "v3"),
      resourceTmpPath: resolve(".wrangler", "tmp"),
      workers: [worker, ...(externalWorkers as unknown as V4WorkerOptions[])],
    }),
  );
  const url = await mf.ready;
  console.error(`direct server: workerd serving build/ on ${url.href} (state ${state})`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await mf.dispose().catch(() => {});
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const arg = (name: string) => {
    const i = args.indexOf(name);
    if (i < 0 || !args[i + 1]) throw new Error(`usage: node bench/lib/direct-server.ts --port PORT --state DIR`);
    return args[i + 1]!;
  };
  await serve(Number(arg("--port")), arg("--state"), args.includes("--held"));
}
