// What every loader and action finds in its request context (issue 19): the Worker's bindings (workers/app.ts), and,
// put there once per request by the root's middleware (app/server/request-context.server.ts), the database handle
// and the signed-in user (read on first use, then shared by every loader of the request).
import { createContext, type RouterContextProvider } from "react-router";
import type { Db } from "./db/client.server";
import type { SessionUser } from "./session.server";

/** The Worker's bindings and execution context, handed to every loader and action. */
export type CloudflareBindings = { env: Env; ctx: ExecutionContext };

export const cloudflareContext = createContext<CloudflareBindings>();

/** This document's CSP nonce (set by workers/app.ts, read by app/entry.server.tsx); "" outside the Worker. */
export const nonceContext = createContext<string>("");

/** The request's database handle (drizzle over D1). */
export const dbContext = createContext<Db>();

/** The request's signed-in user, or null: read from the session on first use, once per request. */
export const sessionUserContext = createContext<() => Promise<SessionUser | null>>();

type Context = Readonly<RouterContextProvider>;

export function getEnv(context: Context): Env {
  return context.get(cloudflareContext).env;
}

/** The Worker's execution context (waitUntil), when the request came through the Worker. */
export function executionCtxOf(context: Context): ExecutionContext | undefined {
  try {
    return context.get(cloudflareContext).ctx;
  } catch {
    return undefined;
  }
}

/** The database handle the middleware put in the context. */
export function dbOf(context: Context): Db {
  return context.get(dbContext);
}

/** The signed-in user (or null) the middleware put in the context; roles are checked by requirePageUser / api(). */
export function sessionUserOf(context: Context): Promise<SessionUser | null> {
  return context.get(sessionUserContext)();
}

/** The signed-in user if this request has already read the session, else undefined (nothing is read here). */
export const sessionReadContext = createContext<() => Promise<SessionUser | null> | undefined>(() => undefined);

export function sessionUserIfRead(context: Context): Promise<SessionUser | null> | undefined {
  return context.get(sessionReadContext)();
}
