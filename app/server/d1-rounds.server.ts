// How many D1 round trips a request waits on one after the other (issue 33, point 3: at most 2 per page, the
// session and then one batch). For the benchmark and tests only: a request that asks with D1_ROUNDS_HEADER, on a
// server with the development sign-in on (never in production), runs on a D1 binding that logs each call, and its
// answer carries the count in the same header (the body is read to its end first, so streamed parts count too).
//
// A call's depth is one more than the deepest call that had already finished when it started: calls started
// together (Promise.all, a batch) share a depth; a call started after another returned is one deeper. The
// request's figure is the deepest call: the round trips it waited on in sequence. With the header's value "log",
// each call's round and SQL go to the server's log as well.
import { D1_ROUNDS_HEADER } from "~/lib/d1-rounds";

class RoundLog {
  private finishedDepth = 0;
  sequential = 0;
  total = 0;
  constructor(private readonly verbose: boolean) {}
  async time<T>(call: () => Promise<T>, what: string): Promise<T> {
    const depth = this.finishedDepth + 1;
    if (this.verbose) console.log(`d1 round ${depth}: ${what.replace(/\s+/g, " ").slice(0, 160)}`);
    this.total++;
    this.sequential = Math.max(this.sequential, depth);
    try {
      return await call();
    } finally {
      this.finishedDepth = Math.max(this.finishedDepth, depth);
    }
  }
}

const REAL = Symbol("real D1 statement");
type Counted = D1PreparedStatement & { [REAL]: D1PreparedStatement };

function countedStatement(statement: D1PreparedStatement, query: string, log: RoundLog): Counted {
  const wrap = (s: D1PreparedStatement): Counted =>
    new Proxy(s, {
      get(target, key) {
        if (key === REAL) return target;
        if (key === "bind") return (...values: unknown[]) => wrap(target.bind(...values));
        if (key === "first" || key === "all" || key === "run" || key === "raw") {
          const method = target[key] as (...args: unknown[]) => Promise<unknown>;
          return (...args: unknown[]) => log.time(() => method.apply(target, args), query);
        }
        const value = Reflect.get(target, key, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    }) as Counted;
  return wrap(statement);
}

function countedD1(d1: D1Database, log: RoundLog): D1Database {
  return new Proxy(d1, {
    get(target, key) {
      if (key === "prepare") return (query: string) => countedStatement(target.prepare(query), query, log);
      if (key === "batch")
        return (statements: D1PreparedStatement[]) =>
          log.time(
            () => target.batch(statements.map((s) => (s as Partial<Counted>)[REAL] ?? s)),
            `batch of ${statements.length}`,
          );
      if (key === "exec") return (query: string) => log.time(() => target.exec(query), query);
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/**
 * When the request asks (and the server is a development one), the environment to serve it with (its DB logs each
 * call) and a function that puts the count on the finished answer; otherwise null.
 */
export function d1RoundsFor(
  request: Request,
  env: Env,
): { env: Env; report: (r: Response) => Promise<Response> } | null {
  const asked = request.headers.get(D1_ROUNDS_HEADER);
  if (env.DEV_LOGIN !== "1" || (asked !== "1" && asked !== "log")) return null;
  // "log": each call's round and SQL in the server's log too, to see what a page waits on.
  const log = new RoundLog(asked === "log");
  const counted = Object.create(env, { DB: { value: countedD1(env.DB, log), enumerable: true } }) as Env;
  return {
    env: counted,
    report: async (response) => {
      const body = await response.arrayBuffer();
      const headers = new Headers(response.headers);
      headers.set(D1_ROUNDS_HEADER, `sequential=${log.sequential}; total=${log.total}`);
      return new Response(body, { status: response.status, statusText: response.statusText, headers });
    },
  };
}
