import { createContext, type RouterContextProvider } from "react-router";

/** The Worker's bindings and execution context, handed to every loader and action. */
export type CloudflareBindings = { env: Env; ctx: ExecutionContext };

export const cloudflareContext = createContext<CloudflareBindings>();

/** This document's CSP nonce (set by workers/app.ts, read by app/entry.server.tsx); "" outside the Worker. */
export const nonceContext = createContext<string>("");

export function getEnv(context: Readonly<RouterContextProvider>): Env {
  return context.get(cloudflareContext).env;
}
