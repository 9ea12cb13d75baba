// The bench's D1 meter (issue 31, BENCH_ONLY=national): when the Worker runs with BENCH_D1_USAGE=1 (set only by
// the bench's build, vite.config.ts), every D1 statement of the Worker and of the rooms adds its meta.rows_read and
// meta.rows_written to a tally of this isolate, read and reset by GET/DELETE /api/admin/bench/d1 (admin, and only
// on a server with BENCH_D1_USAGE=1 and DEV_LOGIN=1). Off, the binding is used as it is.
//
// D1's raw() (drizzle's path for every select with fields) returns no meta, and all() turns rows into objects,
// which loses a column when two have the same name (a join's two "id"s). So a metered raw() runs a select as
// `SELECT * FROM (<sql>)` through all(): SQLite names the outer columns uniquely ("id", "id:1") in order, and the
// rows read are the same (checked against the plain statement); a write's RETURNING names one table's columns.

export type D1Usage = { queries: number; rowsRead: number; rowsWritten: number };

const tally: D1Usage = { queries: 0, rowsRead: 0, rowsWritten: 0 };
/** The same tally per statement (its SQL, whitespace folded, first 160 characters): where the rows go. */
const bySql = new Map<string, D1Usage>();

export function d1Usage(): D1Usage & { statements: (D1Usage & { sql: string })[] } {
  const statements = [...bySql]
    .map(([sql, u]) => ({ sql, ...u }))
    .sort((a, b) => b.rowsRead - a.rowsRead || b.rowsWritten - a.rowsWritten)
    .slice(0, 25);
  return { ...tally, statements };
}

export function resetD1Usage(): void {
  tally.queries = 0;
  tally.rowsRead = 0;
  tally.rowsWritten = 0;
  bySql.clear();
}

export function d1UsageEnabled(env: Pick<Env, "DEV_LOGIN"> & { BENCH_D1_USAGE?: string }): boolean {
  return env.BENCH_D1_USAGE === "1" && env.DEV_LOGIN === "1";
}

function count(meta: { rows_read?: number; rows_written?: number } | undefined, sql = "?") {
  tally.queries++;
  tally.rowsRead += meta?.rows_read ?? 0;
  tally.rowsWritten += meta?.rows_written ?? 0;
  // Only the head is folded: a grading write's statement carries a student's 93 memory rows as literals (~11 KB).
  const key = sql.slice(0, 400).replace(/\s+/g, " ").trim().slice(0, 160);
  const entry = bySql.get(key) ?? { queries: 0, rowsRead: 0, rowsWritten: 0 };
  entry.queries++;
  entry.rowsRead += meta?.rows_read ?? 0;
  entry.rowsWritten += meta?.rows_written ?? 0;
  bySql.set(key, entry);
}

const SELECT = /^\s*(select|with)\b/i;

class MeteredStatement {
  constructor(
    readonly db: D1Database | D1DatabaseSession,
    readonly sql: string,
    readonly params: unknown[] = [],
    readonly inner: D1PreparedStatement = db.prepare(sql),
  ) {}

  bind(...values: unknown[]) {
    return new MeteredStatement(this.db, this.sql, values, this.inner.bind(...values));
  }
  async first<T>(column?: string): Promise<T | null> {
    const { results, meta } = await this.inner.all<Record<string, unknown>>();
    count(meta, this.sql);
    const row = results[0];
    if (!row) return null;
    return (column === undefined ? row : row[column]) as T;
  }
  async run<T>() {
    const result = await this.inner.run<T>();
    count(result.meta, this.sql);
    return result;
  }
  async all<T>() {
    const result = await this.inner.all<T>();
    count(result.meta, this.sql);
    return result;
  }
  async raw<T = unknown[]>(options?: { columnNames?: boolean }): Promise<T[]> {
    const statement = SELECT.test(this.sql)
      ? this.db.prepare(`SELECT * FROM (${this.sql})`).bind(...this.params)
      : this.inner;
    const { results, meta } = await statement.all<Record<string, unknown>>();
    count(meta, this.sql);
    const rows = results.map((r) => Object.values(r) as T);
    return options?.columnNames ? [Object.keys(results[0] ?? {}) as T, ...rows] : rows;
  }
}

function unwrap(statement: D1PreparedStatement): D1PreparedStatement {
  return statement instanceof MeteredStatement ? statement.inner : statement;
}

/** D1Database's surface, counting every statement's rows (sessions included). */
class MeteredDatabase {
  constructor(readonly inner: D1Database | D1DatabaseSession) {}

  prepare(sql: string) {
    return new MeteredStatement(this.inner, sql) as unknown as D1PreparedStatement;
  }
  async batch<T = unknown>(statements: D1PreparedStatement[]) {
    const results = await this.inner.batch<T>(statements.map(unwrap));
    results.forEach((r, i) => {
      const s = statements[i];
      count(r.meta, s instanceof MeteredStatement ? s.sql : "?");
    });
    return results;
  }
  exec(query: string) {
    return (this.inner as D1Database).exec(query);
  }
  dump() {
    return (this.inner as D1Database).dump();
  }
  withSession(start?: string) {
    return new MeteredDatabase((this.inner as D1Database).withSession(start));
  }
  getBookmark() {
    return (this.inner as D1DatabaseSession).getBookmark();
  }
}

/** The environment with a metered DB when the bench asked for it; otherwise the same object. */
export function withD1Usage<E extends Env>(env: E): E {
  if (!d1UsageEnabled(env) || env.DB instanceof MeteredDatabase) return env;
  return { ...env, DB: new MeteredDatabase(env.DB) as unknown as D1Database };
}
