// The door for every JSON call: access rule, input parsing and error shape in one place.
// A route module exports `loader = api({...})` and/or `action = api({...})` (or `methods({...})`).
import type { RouterContextProvider } from "react-router";
import type { z } from "zod";
import { getEnv } from "./context";
import { getDb, type Db } from "./db/client.server";
import { errorResponse, HttpError, zodMessage } from "./errors.server";
import { requireUser, type Access, type SessionUser } from "./session.server";

type RouteArgs = { request: Request; params: Record<string, string | undefined>; context: Readonly<RouterContextProvider> };

export type ApiContext<A extends Access> = RouteArgs & {
  env: Env;
  db: Db;
  user: A extends "public" ? SessionUser | null : SessionUser;
};

export type ApiHandler = ((args: RouteArgs) => Promise<Response>) & { access: Access };

export function api<A extends Access>(spec: {
  access: A;
  handler: (ctx: ApiContext<A>) => Promise<unknown>;
}): ApiHandler {
  const run = async (args: RouteArgs): Promise<Response> => {
    try {
      const env = getEnv(args.context);
      const user = spec.access === "public" ? null : await requireUser(args.request, env, spec.access);
      const result = await spec.handler({ ...args, env, db: getDb(env.DB), user } as ApiContext<A>);
      if (result instanceof Response) return result;
      return Response.json(result ?? { ok: true });
    } catch (error) {
      return errorResponse(error);
    }
  };
  return Object.assign(run, { access: spec.access });
}

/** Several HTTP methods on one path (an action receives POST, PUT, PATCH and DELETE). */
export function methods(handlers: Partial<Record<"POST" | "PUT" | "PATCH" | "DELETE", ApiHandler>>): ApiHandler {
  const run = async (args: RouteArgs): Promise<Response> => {
    const handler = handlers[args.request.method.toUpperCase() as keyof typeof handlers];
    if (!handler) {
      return Response.json({ error: "Metodo non consentito per questo indirizzo." }, { status: 405 });
    }
    return handler(args);
  };
  // The strictest access among the methods, for the authorization matrix.
  const order: Access[] = ["public", "user", "console", "staff", "teacher", "admin"];
  const access = Object.values(handlers).reduce<Access>(
    (acc, h) => (order.indexOf(h!.access) < order.indexOf(acc) ? h!.access : acc),
    "admin",
  );
  return Object.assign(run, { access, methods: handlers });
}

/** Reads a JSON body and validates it; missing or malformed JSON is a 400 with an Italian message. */
export async function readJson<S extends z.ZodType>(request: Request, schema: S): Promise<z.infer<S>> {
  let body: unknown;
  const text = await request.text();
  if (!text.trim()) throw new HttpError(400, "Corpo della richiesta mancante: è atteso un oggetto JSON.");
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError(400, "Corpo della richiesta non valido: JSON malformato.");
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new HttpError(400, zodMessage(parsed.error));
  return parsed.data;
}

/** Validates query parameters (as strings) against a schema. */
export function readQuery<S extends z.ZodType>(request: Request, schema: S): z.infer<S> {
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = schema.safeParse(params);
  if (!parsed.success) throw new HttpError(400, zodMessage(parsed.error));
  return parsed.data;
}

/** Parses a positive integer route parameter, or answers 400. */
export function idParam(value: string | undefined, label = "id"): number {
  const n = Number(value);
  if (!value || !Number.isInteger(n) || n <= 0) throw new HttpError(400, `Identificativo non valido (${label}).`);
  return n;
}
