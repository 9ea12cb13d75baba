// The root's server middleware (app/root.tsx): puts the database handle and the signed-in user in the request
// context once, for every loader and action of the request (screens and JSON calls alike). The user is read on
// first use, so a public page that never asks costs no session read.
import type { MiddlewareFunction, RouterContextProvider } from "react-router";
import { dbContext, getEnv, sessionReadContext, sessionUserContext } from "./context";
import { getDb } from "./db/client.server";
import { getSessionUser, type SessionUser } from "./session.server";

export function provideRequestContext(request: Request, context: RouterContextProvider): void {
  const env = getEnv(context);
  context.set(dbContext, getDb(env.DB));
  let read: Promise<SessionUser | null> | undefined;
  context.set(sessionUserContext, () => {
    read ??= getSessionUser(request, env);
    return read;
  });
  context.set(sessionReadContext, () => read);
}

export const requestContext: MiddlewareFunction<Response> = ({ request, context }, next) => {
  provideRequestContext(request, context as RouterContextProvider);
  return next();
};
