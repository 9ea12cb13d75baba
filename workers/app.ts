// Worker entry: simulation sockets go to their Durable Object, everything else to React Router.
// Every request passes the guard rails of app/server/security.server.ts first, and every answer leaves with its headers.
import { createRequestHandler, type RequestHandler, RouterContextProvider } from "react-router";
import { cloudflareContext, nonceContext } from "../app/server/context";
import { d1RoundsFor } from "../app/server/d1-rounds.server";
import { openReadSession, type ReadSession } from "../app/server/db/d1-session.server";
import { withD1Usage } from "../app/server/db/d1-usage.server";
import { assertValidEnv } from "../app/server/env.server";
import {
  newNonce,
  rateLimitRefusal,
  refuseEarly,
  urlOf,
  withApiErrorShape,
  withSecurityHeaders,
} from "../app/server/security.server";
import { withUnusableSessionCleared } from "../app/server/session.server";
import { drain, spareBody } from "./drain";
import { isSimulationSocketPath, routeSimulationSocket } from "./simulation-socket";

// The production room (no test hooks); the development and e2e servers enter through workers/app-test-hooks.ts.
export { SimulationRoom } from "./simulation-room";

/**
 * React Router re-derives its whole route table (about 150 routes, ranked and compiled) on every request when it is
 * given the build as a function, which is what development's hot reload needs. In production the build is loaded
 * once and the handler made once: that was a few milliseconds of every page's server time.
 */
const requestHandler: RequestHandler = import.meta.env.DEV
  ? createRequestHandler(() => import("virtual:react-router/server-build"), import.meta.env.MODE)
  : builtOnce();

function builtOnce(): RequestHandler {
  let handler: Promise<RequestHandler> | undefined;
  return async (request, context) => {
    handler ??= import("virtual:react-router/server-build").then((build) =>
      createRequestHandler(build, import.meta.env.MODE),
    );
    return (await handler)(request, context);
  };
}

/** The environment is checked once (app/server/env.server.ts); a bad one answers every request with the reason. */
function configurationError(env: Env): Response | null {
  try {
    assertValidEnv(env);
    return null;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(message);
    return new Response(message, { status: 500, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
}

function routerContext(env: Env, ctx: ExecutionContext, nonce: string) {
  const context = new RouterContextProvider();
  context.set(cloudflareContext, { env, ctx });
  context.set(nonceContext, nonce);
  return context;
}

/**
 * A room's socket (/api/simulations/{id}/ws, …/staff/ws): the same guard rails (same origin, size, rate limits), then
 * the room, without a page's set-up. A reconnect with its resume token reads no D1, so the read session (and the
 * bookmark cookie's check) is opened only for the session's way in; a 101 takes no headers, cookies or nonce. A
 * refusal leaves as every other answer does.
 */
async function socketAnswer(request: Request, env: Env): Promise<Response> {
  let reads: ReadSession | undefined;
  // The bench's D1 meter wraps only the session's way in: a reconnect with its token reads no D1 (and copies no env).
  const sessionEnv = async () => (reads ??= await openReadSession(request, withD1Usage(env))).env;
  const spare = spareBody(request); // none on an upgrade; a refusal of an odd request with a body reads it (drain.ts)
  const response =
    refuseEarly(request) ??
    (await rateLimitRefusal(request, env)) ??
    (await routeSimulationSocket(request, env, sessionEnv))!; // the path is a socket's: never null
  await drain(spare);
  if (response.status === 101) return response;
  const shaped = await withUnusableSessionCleared(request, await withApiErrorShape(request, response), env);
  const secured = withSecurityHeaders(request, shaped, newNonce(), env);
  return reads ? reads.withBookmark(request, secured) : secured;
}

export default {
  async fetch(request, givenEnv, ctx) {
    const misconfigured = configurationError(givenEnv);
    if (misconfigured) return misconfigured;
    if (isSimulationSocketPath(urlOf(request).pathname)) return socketAnswer(request, givenEnv);
    // Every D1 query of this request goes through one session (reads near the student, own writes visible).
    const reads = await openReadSession(request, withD1Usage(givenEnv));
    // The benchmark's count of sequential D1 round trips (development servers only; app/server/d1-rounds.server.ts).
    const rounds = d1RoundsFor(request, reads.env);
    const env = rounds?.env ?? reads.env;
    const spare = spareBody(request);
    const nonce = newNonce();
    const response =
      refuseEarly(request) ??
      (await rateLimitRefusal(request, env)) ??
      (await requestHandler(request, routerContext(env, ctx, nonce)));
    await drain(spare);
    const shaped = await withUnusableSessionCleared(request, await withApiErrorShape(request, response), env);
    const answer = await reads.withBookmark(request, withSecurityHeaders(request, shaped, nonce, env));
    return rounds ? rounds.report(answer) : answer;
  },
} satisfies ExportedHandler<Env>;
