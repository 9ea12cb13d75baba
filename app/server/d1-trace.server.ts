// Counts how many D1 round trips a piece of work makes one after the other (the critical path): a call that starts
// after another has answered depends on it; calls in flight together (Promise.all, or one db.batch) are one step.
// Time in a Worker only moves on I/O, so the order of events is kept with a counter, not a clock. Used by the routes
// that promise a number of round trips (GET /api/classes/:id/progress answers it in Server-Timing) and their tests.

export type D1Trace = {
  /** Every call: when it started and answered, in event order. */
  calls: { start: number; end: number }[];
  /** The longest chain of calls each of which started after the previous one answered. */
  sequential: () => number;
};

const TIMED = new Set(["all", "first", "run", "raw"]);

export function tracedD1(d1: D1Database): { d1: D1Database; trace: D1Trace } {
  let tick = 0;
  const calls: { start: number; end: number }[] = [];
  const inner = new WeakMap<object, D1PreparedStatement>();
  const timed = async <T>(work: () => Promise<T>): Promise<T> => {
    const call = { start: ++tick, end: Number.POSITIVE_INFINITY };
    calls.push(call);
    try {
      return await work();
    } finally {
      call.end = ++tick;
    }
  };
  const wrap = (statement: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, key) {
        if (key === "bind") return (...values: unknown[]) => wrap(target.bind(...values));
        const value = Reflect.get(target, key, target);
        if (typeof key === "string" && TIMED.has(key) && typeof value === "function") {
          return (...args: unknown[]) => timed(() => value.apply(target, args));
        }
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    inner.set(proxy, statement);
    return proxy;
  };
  const traced = new Proxy(d1, {
    get(target, key) {
      if (key === "prepare") return (query: string) => wrap(target.prepare(query));
      if (key === "batch")
        return (statements: D1PreparedStatement[]) =>
          timed(() => target.batch(statements.map((s) => inner.get(s) ?? s)));
      if (key === "exec") return (query: string) => timed(() => target.exec(query));
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const sequential = () => {
    const depth: number[] = [];
    const order = [...calls.keys()].sort((a, b) => calls[a]!.start - calls[b]!.start);
    let longest = 0;
    for (const i of order) {
      let before = 0;
      for (const j of order) if (calls[j]!.end < calls[i]!.start) before = Math.max(before, depth[j] ?? 0);
      depth[i] = before + 1;
      longest = Math.max(longest, depth[i]);
    }
    return longest;
  };
  return { d1: traced, trace: { calls, sequential } };
}

/** The Server-Timing entry of a trace: `d1;desc="<sequential> sequential, <calls> calls"`. */
export function serverTimingOf(trace: D1Trace): string {
  return `d1;desc="${trace.sequential()} sequential, ${trace.calls.length} calls"`;
}
