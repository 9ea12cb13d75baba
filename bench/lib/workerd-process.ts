// workerd's processes as the benches see them: which run under a server, their CPU time (read from /proc), and a
// `perf record` of them (RECONNECT_PERF).
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

const CLK_TCK = 100;

/** The workerd processes under `pid` (its children and theirs). */
export function workerdUnder(pid: number): number[] {
  const parent = new Map<number, number>();
  const comm = new Map<number, string>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      comm.set(Number(entry), stat.slice(stat.indexOf("(") + 1, close));
      parent.set(Number(entry), Number(stat.slice(close + 2).split(" ")[1]));
    } catch {
      // gone
    }
  }
  const under = (p: number) => {
    for (let q = parent.get(p); q; q = parent.get(q)) if (q === pid) return true;
    return false;
  };
  return [...comm].filter(([p, name]) => name === "workerd" && under(p)).map(([p]) => p);
}

/** CPU seconds a process has used (user + system, every thread). */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

/**
 * RECONNECT_PERF=DIR: `perf record` of each side's workerd over the waves (DIR/app.data, DIR/floor.data; read them with
 * `perf report -i`): native CPU time by symbol, which the V8 profile (wall time, with an inspector attached) cannot show.
 * Returns how to stop them.
 */
export function perfRecord(sides: [string, number][]): () => Promise<void> {
  const dir = process.env.RECONNECT_PERF;
  if (!dir) return async () => {};
  const children = sides.map(([name, pid]) =>
    spawn("perf", ["record", "-F", "997", "-g", "-p", String(pid), "-o", `${dir}/${name}.data`], { stdio: "ignore" }),
  );
  return async () => {
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((done) => {
            child.on("exit", () => done());
            child.kill("SIGINT");
          }),
      ),
    );
  };
}

/** Whether a process still runs (a zombie, killed and not yet reaped, does not). */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}
