// Starts the production build on loopback with its own freshly seeded state, for benchmarks.
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { accessSync, constants } from "node:fs";
import { join } from "node:path";
import { startDirectServer } from "./direct-server.ts";

/** `pid`: the server's own process (its workerd is a child of it, or of its children). */
export type LocalServer = { baseUrl: string; pid?: number; stop: () => Promise<void> };

/** Waits until a spawned server answers /login, and returns how to reach and stop it (its process group). */
export async function whenServing(child: ChildProcess, port: number, timeoutMs: number): Promise<LocalServer> {
  const baseUrl = `http://localhost:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/login`)).ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`server did not start in ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 500));
  }
  return {
    baseUrl,
    pid: child.pid!,
    stop: async () => {
      killGroup(child.pid!, "SIGTERM");
      await new Promise((r) => setTimeout(r, 500));
    },
  };
}

/** Signals a server's whole process group (it was spawned detached: its workerd with it); nothing if it is gone. */
export function killGroup(pid: number, signal: NodeJS.Signals) {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/**
 * Where the bench's server keeps its D1 and Durable Object state (seeded afresh by startProductionServer):
 * BENCH_STATE_DIR, else on tmpfs (/dev/shm, one directory per checkout) where the machine has it, else
 * .wrangler/bench-state. Locally every storage commit of a room (a batch of answers) and of D1 ends in an fsync of
 * a SQLite file, on the server's one thread: a cost of this machine's disk, not of Cloudflare's storage, which the
 * national bench showed at about 3 % of workerd's CPU plus the thread blocked while the disk flushed.
 */
export const BENCH_STATE = process.env.BENCH_STATE_DIR ?? defaultBenchState();

function defaultBenchState(): string {
  const shm = "/dev/shm";
  try {
    accessSync(shm, constants.W_OK);
    return join(shm, `unicum-bench-${createHash("sha256").update(process.cwd()).digest("hex").slice(0, 10)}`);
  } catch {
    return join(".wrangler", "bench-state");
  }
}

/**
 * How the bench reaches the production build: BENCH_SERVER=direct (the default) serves it straight from workerd
 * (bench/lib/direct-server.ts), as Cloudflare's edge reaches the Worker; BENCH_SERVER=preview through `vite preview`,
 * whose Node process forwards every request and WebSocket frame to workerd.
 */
export function benchServerKind(): "direct" | "preview" {
  const kind = process.env.BENCH_SERVER ?? "direct";
  if (kind !== "direct" && kind !== "preview") throw new Error(`BENCH_SERVER=${kind}: expected direct or preview`);
  return kind;
}

/**
 * The bench measures the production room: its build binds no test hooks (test/e2e/serve.ts binds them otherwise). Read
 * when the server starts, not when this module loads: bench/run.ts sets UNICUM_BENCH_D1_USAGE after its imports.
 */
const productionBuildEnv = () => ({ ...process.env, UNICUM_TEST_HOOKS: "0" });

/** Builds, seeds a fresh .wrangler/bench-state and serves the production build (BENCH_SERVER: direct or preview). */
export async function startProductionServer(port = Number(process.env.BENCH_PORT ?? 4329)): Promise<LocalServer> {
  if (benchServerKind() === "preview") {
    const child = spawn(process.execPath, ["test/e2e/serve.ts", "--port", String(port), "--state", BENCH_STATE], {
      stdio: ["ignore", "ignore", "inherit"],
      detached: true,
      env: productionBuildEnv(),
    });
    return whenServing(child, port, 240_000);
  }
  // Build and seed as the e2e server does (side by side), without serving; then serve from workerd.
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ["test/e2e/serve.ts", "--state", BENCH_STATE, "--no-serve"], {
      stdio: ["ignore", "ignore", "inherit"],
      env: productionBuildEnv(),
    });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`build and seed exited with ${code}`))));
  });
  return startDirectServer(port, BENCH_STATE);
}

/** Serves the already built app on a given state, without rebuilding or reseeding it. */
export async function servePreview(port: number, state: string): Promise<LocalServer> {
  const child = spawn(join("node_modules", ".bin", "vite"), ["preview", "--port", String(port), "--strictPort"], {
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
    env: {
      ...process.env,
      UNICUM_STATE_DIR: state,
      CLOUDFLARE_CF_FETCH_ENABLED: "false",
      WRANGLER_SEND_METRICS: "false",
    },
  });
  return whenServing(child, port, 120_000);
}

/** Serves the already built app on a given state without rebuilding or reseeding it, as BENCH_SERVER says. */
export function serveBuilt(port: number, state: string): Promise<LocalServer> {
  return benchServerKind() === "preview" ? servePreview(port, state) : startDirectServer(port, state);
}

/** Signs in a demo account (development sign-in) and returns its cookie header. */
export async function devCookie(baseUrl: string, email: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/dev`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email }),
  });
  if (!response.ok) throw new Error(`dev login failed: ${response.status}`);
  return response.headers.get("set-cookie")!.split(";")[0]!;
}
