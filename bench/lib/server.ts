// Starts the production build on loopback with its own freshly seeded state, for benchmarks.
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";

export type LocalServer = { baseUrl: string; stop: () => Promise<void> };

export async function startProductionServer(port = Number(process.env.BENCH_PORT ?? 4329)): Promise<LocalServer> {
  const child: ChildProcess = spawn(
    process.execPath,
    ["test/e2e/serve.ts", "--port", String(port), "--state", join(".wrangler", "bench-state")],
    { stdio: ["ignore", "ignore", "inherit"], detached: true },
  );
  const baseUrl = `http://localhost:${port}`;
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const response = await fetch(`${baseUrl}/login`);
      if (response.ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error("server did not start in 240 s");
    await new Promise((r) => setTimeout(r, 500));
  }
  return {
    baseUrl,
    stop: async () => {
      try {
        process.kill(-child.pid!, "SIGTERM");
      } catch {
        // already gone
      }
      await new Promise((r) => setTimeout(r, 300));
    },
  };
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
