// Calls the real route modules (loaders/actions of app/routes.ts) inside workerd, against the real D1.
import { createExecutionContext, env } from "cloudflare:test";
import { importJWK, SignJWT, type JWTPayload } from "jose";
import { createStaticHandler, isRouteErrorResponse, RouterContextProvider, type RouteObject } from "react-router";
import routeConfig from "~/routes";
import { cloudflareContext } from "~/server/context";
import { provideRequestContext } from "~/server/request-context.server";
import { rateLimitRefusal, refuseEarly, withApiErrorShape } from "~/server/security.server";
import { withUnusableSessionCleared } from "~/server/session.server";
import { routeSimulationSocket } from "../../workers/simulation-socket";
import { buildSeedStatements } from "../../seed/seed";

type RouteEntry = { id?: string; path?: string; index?: boolean; file: string; children?: RouteEntry[] };

// Each route module is imported when a request first reaches it (React Router's `lazy`), so a test file's workerd
// loads only the modules its tests call instead of the whole app (issue 33: importing was a quarter of the run).
const modules = import.meta.glob<Record<string, unknown>>("../../app/routes/*.{ts,tsx}");

function toRouteObjects(entries: RouteEntry[]): RouteObject[] {
  return entries.map((entry) => {
    const load = modules[`../../app/${entry.file}`];
    if (!load) throw new Error(`Route module not found for ${entry.file}`);
    const base = {
      id: entry.file,
      lazy: async () => {
        const mod = await load();
        return {
          ...(mod.loader ? { loader: mod.loader as RouteObject["loader"] } : {}),
          ...(mod.action ? { action: mod.action as RouteObject["action"] } : {}),
        };
      },
    };
    if (entry.index) return { ...base, index: true } as RouteObject;
    return {
      ...base,
      path: entry.path,
      children: entry.children ? toRouteObjects(entry.children) : undefined,
    } as RouteObject;
  });
}

export const routes = toRouteObjects(routeConfig as RouteEntry[]);
const handler = createStaticHandler(routes);

export type TestEnv = Partial<Env>;

export function makeContext(overrides: TestEnv = {}, ctx: ExecutionContext = createExecutionContext()) {
  const context = new RouterContextProvider();
  context.set(cloudflareContext, { env: { ...env, ...overrides } as Env, ctx });
  return context;
}

export type CallOptions = {
  origin?: string;
  json?: unknown;
  body?: string;
  token?: string;
  cookie?: string;
  headers?: Record<string, string>;
  env?: TestEnv;
  /** The execution context the route gets (to wait for its waitUntil work with waitOnExecutionContext). */
  ctx?: ExecutionContext;
};

/** The request `call` sends: Bearer token, cookie, JSON body (with its Content-Type) or a raw body. */
export function buildRequest(method: string, path: string, options: CallOptions = {}): Request {
  const headers = new Headers(options.headers);
  if (options.token) headers.set("Authorization", `Bearer ${options.token}`);
  if (options.cookie) headers.set("Cookie", options.cookie);
  let body: string | undefined = options.body;
  if (options.json !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(options.json);
  }
  return new Request(`${options.origin ?? "http://localhost"}${path}`, { method, headers, body });
}

/** Sends a request through the route table, like the Worker does for /api/* and for screen data. */
export async function call(method: string, path: string, options: CallOptions = {}): Promise<Response> {
  return send(buildRequest(method, path, options), options.env, options.ctx);
}

/** Sends a built request through the route table. */
export async function send(request: Request, env?: TestEnv, ctx?: ExecutionContext): Promise<Response> {
  try {
    // The root's middleware is not in this route table: its setup runs here, as it does for every request.
    const requestContext = makeContext(env, ctx);
    provideRequestContext(request, requestContext);
    const result = await handler.queryRoute(request, { requestContext });
    if (result instanceof Response) return result;
    return Response.json(result);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

/**
 * Like `call`, but the way workers/app.ts answers: first its early refusals (same-origin rule, size cap, rate limits),
 * then the simulation sockets' route, then the route table, with React Router's own errors (a method without a loader
 * or action) answered as its request handler does, then the API's one error shape, and an unusable session cookie
 * expired.
 */
export async function callGuarded(method: string, path: string, options: CallOptions = {}): Promise<Response> {
  const request = buildRequest(method, path, options);
  const workerEnv = { ...env, ...options.env } as Env;
  let response =
    refuseEarly(request) ??
    (await rateLimitRefusal(request, workerEnv)) ??
    (await routeSimulationSocket(request, workerEnv));
  if (!response) {
    try {
      response = await send(request, options.env, options.ctx);
    } catch (thrown) {
      if (!isRouteErrorResponse(thrown)) throw thrown;
      response = Response.json({ message: String(thrown.data) }, { status: thrown.status });
    }
  }
  return withUnusableSessionCleared(request, await withApiErrorShape(request, response), workerEnv);
}

export async function json<T = Record<string, unknown>>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

/** Runs the demo seed into the test database (idempotent). */
export async function seed(now = Date.now()) {
  const statements = buildSeedStatements(now);
  await env.DB.batch(statements.map((sql) => env.DB.prepare(sql)));
}

/**
 * A class of the teacher (made through POST /api/classes) with the demo student (id 1) and the demo friend (id 2) in
 * it; returns its id.
 */
export async function classOfDemoPupils(teacherToken: string, name: string): Promise<number> {
  const created = await call("POST", "/api/classes", { token: teacherToken, json: { name } });
  if (created.status !== 201) throw new Error(`POST /api/classes: ${created.status} ${await created.text()}`);
  const { id } = (await created.json()) as { id: number };
  await env.DB.prepare("INSERT INTO class_members (class_id, user_id) VALUES (?, 1), (?, 2)").bind(id, id).run();
  return id;
}

export async function count(table: string, where = "1=1"): Promise<number> {
  const row = await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${where}`).first<{ n: number }>();
  return row?.n ?? 0;
}

/** Signs in a demo account through the development sign-in and returns its token. */
export async function login(email: string): Promise<string> {
  const response = await call("POST", "/api/auth/dev", { json: { email } });
  if (response.status !== 200) throw new Error(`login ${email}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

/** A Google-style ID token signed with the test key served by the local JWKS (see vitest.config.ts). */
export async function googleToken(claims: JWTPayload, opts: { expiresIn?: string | number; key?: CryptoKey } = {}) {
  const jwk = JSON.parse(env.TEST_GOOGLE_PRIVATE_JWK);
  const key = opts.key ?? ((await importJWK(jwk, "RS256")) as CryptoKey);
  return new SignJWT({ email_verified: true, ...claims })
    .setProtectedHeader({ alg: "RS256", kid: jwk.kid, typ: "JWT" })
    .setIssuedAt()
    .setIssuer((claims.iss as string) ?? "https://accounts.google.com")
    .setAudience((claims.aud as string) ?? env.GOOGLE_CLIENT_ID!)
    .setExpirationTime(opts.expiresIn ?? "1h")
    .sign(key);
}

/**
 * History written on the server (as the seed or an admin import would): one completed attempt in which `email`
 * answered `ids` (left blank). A redo (GET /api/quiz?ids=) takes only questions of the user's own history.
 */
export async function answeredBefore(email: string, ids: number[], at = Date.now() - 86_400_000): Promise<void> {
  const user = await env.DB.prepare("SELECT id FROM users WHERE email = ?").bind(email).first<{ id: number }>();
  const attempt = await env.DB.prepare(
    `INSERT INTO attempts (user_id, status, started_at, finished_at, time_taken, total, correct, wrong, blank, score)
     VALUES (?, 'completed', ?, ?, 60, ?, 0, 0, ?, 0) RETURNING id`,
  )
    .bind(user!.id, at, at + 60_000, ids.length, ids.length)
    .first<{ id: number }>();
  await env.DB.batch(
    ids.map((questionId, position) =>
      env.DB.prepare(
        "INSERT INTO attempt_answers (attempt_id, position, question_id, time_sec, answered_at) VALUES (?, ?, ?, 5, ?)",
      ).bind(attempt!.id, position, questionId, at),
    ),
  );
}
