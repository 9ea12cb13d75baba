// The door for every JSON call: access rule, input parsing and error shape in one place.
// A route module exports `loader = api({...})` and/or `action = api({...})` (or `methods({...})`).
import type { RouterContextProvider } from "react-router";
import type { z } from "zod";
import { dbOf, getEnv, sessionUserOf } from "./context";
import type { Db } from "./db/client.server";
import { errorResponse, HttpError, labelsOf, zodMessage } from "./errors.server";
import { MAX_JSON_BYTES, TOO_LARGE_MESSAGE } from "./security.server";
import { checkAccess, type Access, type SessionUser } from "./session.server";

type RouteArgs = {
  request: Request;
  params: Record<string, string | undefined>;
  context: Readonly<RouterContextProvider>;
};

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
      const user =
        spec.access === "public"
          ? null
          : await checkAccess(await sessionUserOf(args.context), spec.access, args.request, env);
      const result = await spec.handler({ ...args, env, db: dbOf(args.context), user } as ApiContext<A>);
      if (result instanceof Response) return result;
      return Response.json(result ?? { ok: true });
    } catch (error) {
      return errorResponse(error);
    }
  };
  return Object.assign(run, { access: spec.access });
}

type WriteMethod = "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * Several HTTP methods on one path (an action receives POST, PUT, PATCH and DELETE). Each method keeps its own access
 * rule (`methods`, which the authorization matrix reads); there is no single rule for the path.
 */
export function methods(handlers: Partial<Record<WriteMethod, ApiHandler>>) {
  const run = async (args: RouteArgs): Promise<Response> => {
    const handler = handlers[args.request.method.toUpperCase() as WriteMethod];
    if (!handler) {
      return Response.json({ error: "Metodo non consentito per questo indirizzo." }, { status: 405 });
    }
    return handler(args);
  };
  return Object.assign(run, { methods: handlers });
}

const JSON_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;

export const NOT_JSON_MESSAGE =
  "Formato non supportato: invia i dati come JSON (intestazione Content-Type: application/json).";

/**
 * The text of a JSON call's body: 415 when it is declared as anything but JSON (a text/plain or form body is
 * what a foreign page can send without a preflight), 413 past MAX_JSON_BYTES, "" when there is none.
 */
export async function readJsonText(request: Request): Promise<string> {
  const type = request.headers.get("Content-Type");
  const declared = request.headers.get("Content-Length");
  if (type !== null && !JSON_TYPE.test(type) && declared !== "0") throw new HttpError(415, NOT_JSON_MESSAGE);
  if (Number(declared ?? 0) > MAX_JSON_BYTES) throw new HttpError(413, TOO_LARGE_MESSAGE);
  const text = await readCapped(request, MAX_JSON_BYTES);
  if (type === null && text.trim()) throw new HttpError(415, NOT_JSON_MESSAGE);
  return text;
}

/** Reads a body of unknown length up to `limit` bytes; past it, 413 (the rest is left to the Worker's drain). */
async function readCapped(request: Request, limit: number): Promise<string> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const decoder = new TextDecoder();
  let read = 0;
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    read += value.byteLength;
    if (read > limit) {
      await reader.cancel().catch(() => undefined);
      throw new HttpError(413, TOO_LARGE_MESSAGE);
    }
    text += decoder.decode(value, { stream: true });
  }
}

/** Reads a JSON body and validates it; missing or malformed JSON is a 400 with an Italian message. */
export async function readJson<S extends z.ZodType>(request: Request, schema: S): Promise<z.infer<S>> {
  const body = parseJsonText(await readJsonText(request));
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new HttpError(400, zodMessage(parsed.error, labelsOf(schema)));
  return parsed.data;
}

/** Parses a body's text: empty → 400 "missing", malformed → 400; `optional` turns an empty body into undefined. */
export function parseJsonText(text: string, optional = false): unknown {
  if (!text.trim()) {
    if (optional) return undefined;
    throw new HttpError(400, "Corpo della richiesta mancante: è atteso un oggetto JSON.");
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, "Corpo della richiesta non valido: JSON malformato.");
  }
}

/** Validates query parameters (as strings) against a schema. */
export function readQuery<S extends z.ZodType>(request: Request, schema: S): z.infer<S> {
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = schema.safeParse(params);
  if (!parsed.success) throw new HttpError(400, zodMessage(parsed.error, labelsOf(schema)));
  return parsed.data;
}

/** Parses a positive integer route parameter, or answers 400. */
export function idParam(value: string | undefined, label?: string): number {
  const n = Number(value);
  if (!value || !Number.isInteger(n) || n <= 0) {
    throw new HttpError(
      400,
      `Identificativo non valido nell'indirizzo${label ? ` (${label})` : ""}: è atteso un numero intero positivo.`,
    );
  }
  return n;
}
