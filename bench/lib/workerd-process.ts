// workerd's processes as the benches see them: which run under a server, their CPU time (read from /proc), and a
// `perf record` of them (RECONNECT_PERF).
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

const CLK_TCK = 100;

/**
 * A process's /proc/PID/stat: its name (between the parentheses, which may hold spaces) and the fields after it, from
 * the state on (fields[0]: state, [1]: parent, [11]/[12]: user/system ticks); null once it is gone.
 */
function statOf(pid: number | string): { comm: string; fields: string[] } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const close = stat.lastIndexOf(")");
    return { comm: stat.slice(stat.indexOf("(") + 1, close), fields: stat.slice(close + 2).split(" ") };
  } catch {
    return null;
  }
}

/** The workerd processes under `pid` (its children and theirs). */
export function workerdUnder(pid: number): number[] {
  const parent = new Map<number, number>();
  const comm = new Map<number, string>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statOf(entry);
    if (!stat) continue; // gone
    comm.set(Number(entry), stat.comm);
    parent.set(Number(entry), Number(stat.fields[1]));
  }
  const under = (p: number) => {
    for (let q = parent.get(p); q; q = parent.get(q)) if (q === pid) return true;
    return false;
  };
  return [...comm].filter(([p, name]) => name === "workerd" && under(p)).map(([p]) => p);
}

/** CPU seconds a process has used (user + system, every thread). */
export function cpuSeconds(pid: number): number {
  const stat = statOf(pid);
  if (!stat) throw new Error(`process ${pid} is gone`);
  return (Number(stat.fields[11]) + Number(stat.fields[12])) / CLK_TCK;
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
  const stat = statOf(pid);
  return stat !== null && stat.fields[0] !== "Z";
}
