import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";

/**
 * Without the schema: nothing uses drizzle's relational API (`db.query`), and with a schema drizzle() maps every
 * table's relations on each call, which is each request since every request has its own D1 session (issue 31's
 * profile of the national bench: 3-4 % of the Worker's CPU).
 */
export type Db = DrizzleD1Database;

const cache = new WeakMap<D1Database, Db>();

/** One drizzle wrapper per D1 binding (cheap, but no reason to rebuild it on every call). */
export function getDb(d1: D1Database): Db {
  let db = cache.get(d1);
  if (!db) {
    db = drizzle(d1);
    cache.set(d1, db);
  }
  return db;
}
