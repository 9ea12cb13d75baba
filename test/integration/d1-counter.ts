// A counting wrapper around the real D1 binding (issue 31): hand it to a route as `env.DB` and it records every
// statement the real services send (drizzle's prepare/bind/all/raw/run/first and batch) while passing them through.
// D1 reports rows read in `meta.rows_read` of all()/run() only (drizzle mostly uses raw(), which drops it), so
// `rowsRead()` replays each recorded read with all() on the unwrapped binding and sums meta.rows_read: the same
// statements on the same data read the same rows.
import { env } from "cloudflare:test";

type Recorded = { sql: string; params: unknown[] };
type Log = { statements: Recorded[]; trips: number };

class CountingStatement {
  constructor(
    readonly inner: D1PreparedStatement,
    readonly sql: string,
    readonly params: unknown[],
    private readonly log: Log,
  ) {}

  bind(...values: unknown[]) {
    return new CountingStatement(this.inner.bind(...values), this.sql, values, this.log);
  }

  /** One statement sent on its own: one round trip. */
  private record() {
    this.log.statements.push({ sql: this.sql, params: this.params });
    this.log.trips += 1;
  }

  first(column?: string) {
    this.record();
    return column === undefined ? this.inner.first() : this.inner.first(column);
  }

  all() {
    this.record();
    return this.inner.all();
  }

  run() {
    this.record();
    return this.inner.run();
  }

  raw(options?: { columnNames?: boolean }) {
    this.record();
    return options?.columnNames ? this.inner.raw({ columnNames: true }) : this.inner.raw();
  }
}

export type D1Counter = {
  /** The binding to hand to the code under test. */
  db: D1Database;
  /** Statements sent since the last reset (a batch counts each of its statements). */
  statements: () => Recorded[];
  /** Round trips since the last reset (a batch is one). */
  roundTrips: () => number;
  reset: () => void;
  /** Rows read by the recorded SELECTs, replayed with all() (meta.rows_read). */
  rowsRead: () => Promise<number>;
  /** The same, per statement (to see which one reads). */
  rowsPerStatement: () => Promise<{ sql: string; rows: number }[]>;
};

export function countingD1(real: D1Database = env.DB): D1Counter {
  const log: Log = { statements: [], trips: 0 };
  const db = {
    prepare: (sql: string) => new CountingStatement(real.prepare(sql), sql, [], log),
    async batch(statements: CountingStatement[]) {
      log.trips += 1;
      for (const s of statements) log.statements.push({ sql: s.sql, params: s.params });
      return real.batch(statements.map((s) => s.inner));
    },
    exec(sql: string) {
      log.trips += 1;
      log.statements.push({ sql, params: [] });
      return real.exec(sql);
    },
  };
  return {
    db: db as unknown as D1Database,
    statements: () => [...log.statements],
    roundTrips: () => log.trips,
    reset: () => {
      log.statements = [];
      log.trips = 0;
    },
    async rowsRead() {
      return (await this.rowsPerStatement()).reduce((sum, s) => sum + s.rows, 0);
    },
    async rowsPerStatement() {
      const out: { sql: string; rows: number }[] = [];
      for (const { sql, params } of log.statements) {
        if (!/^\s*(select|with)\b/i.test(sql)) continue;
        const result = await real
          .prepare(sql)
          .bind(...params)
          .all();
        out.push({ sql, rows: result.meta.rows_read ?? 0 });
      }
      return out;
    },
  };
}
