// The fuzzed app: every route of app/routes.ts (the /api calls and the screens' loaders and actions, so routes added
// later are covered), every method, as every role (signed out, studente, docente, moderator, admin), in three phases.
//
// 1. Well-formed ids. Every route-and-method pair with an id in its address, and every screen post whose body names a
//    row (ID_POSTS), is sent the id of a row that exists and is the caller's, the id of someone else's row, and a
//    well-formed id of no row, each as every role, then the caller's row again with fuzzed fields. It "reached its
//    handler" when, for at least one role, the answer for the existing row differs from the answer for the missing
//    one (status, Italian message, or the shape of the data: which fields are empty), or the request wrote rows. A
//    refusal that comes before the handler (the router's 404/405, the same-origin rule, the size cap, the role
//    check, a malformed id) is the same for both ids, so it can only count when the handler looked the row up.
// 2. Bad input. Bad bodies, parameters and queries drawn by fast-check (fixed seeds, so a failure replays): wrong
//    types, missing and extra fields, 100 KB strings, deep nesting, __proto__ keys, odd unicode, negative and huge
//    numbers, malformed JSON, form bodies, every intent of each screen action with random fields.
// 3. Addresses the route table does not list (issue 44): the simulation sockets (routed by the Worker before the
//    router) with bad ids (`%E0`, `%`, 5,000 characters…) and bad shards, and every API route spelt /API/…, /Api/…,
//    with a %-escaped letter or trailing slashes, which the router reads as the route itself: the same answer.
//
// Asserts, for every request: never a 5xx (nor a throw React Router would answer with a 500); a refusal says why in
// Italian (`{ "error": "<Italian>" }` on /api, the form's error or the screen's message elsewhere); a refused request
// wrote nothing (triggers on every table log each row inserted, deleted or changed, read before and after each
// request); someone else's row is never changed by a student or a teacher. And every id-carrying pair and post
// reached its handler. Requests go the way workers/app.ts sends them (helpers.callGuarded), and each request's
// waitUntil work is awaited before its writes are read. The summary line ("fuzz: {…}") gives the figures.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import fc from "fast-check";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import routeConfig from "~/routes";
import { SESSION_COOKIE } from "~/lib/constants";
import { newJoinCode } from "~/server/classes.server";
import {
  freshAssignment,
  freshAttempt,
  freshClass,
  freshFriendship,
  freshInvitation,
  freshQuestion,
  freshQuiz,
  freshReport,
  freshRushEvent,
  freshSimulation,
  freshSimulationAttempt,
  freshSoloDay,
  freshUser,
  dropFreshSimulations,
  fixtureWrites,
  userIdOf,
} from "./fuzz-rows";
import { callGuarded, login, seed, type TestEnv } from "./helpers";

// --- The routes ---

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];
type RouteEntry = { path?: string; index?: boolean; file: string; children?: RouteEntry[] };
type Handler = { methods?: Record<string, unknown>; unsupported?: true };

const modules = import.meta.glob<Record<string, unknown>>("../../app/routes/*.{ts,tsx}", { eager: true });
const sources = import.meta.glob<string>("../../app/routes/*.{ts,tsx}", {
  eager: true,
  query: "?raw",
  import: "default",
});

type FuzzRoute = {
  /** As written in app/routes.ts, parents' paths included ("admin/utenti", "api/quiz/:id"). */
  pattern: string;
  file: string;
  api: boolean;
  index: boolean;
  params: string[];
  /** The methods a loader or action of the route answers itself (not the router's 405, nor a role-then-405). */
  handled: Set<Method>;
  action: boolean;
  /** The intents of a screen action that dispatches with handleIntent, read from its source. */
  intents: string[];
};

/** The keys of the table given to handleIntent(request, { … }) in a route's source. */
function intentsOf(source: string): string[] {
  const start = source.indexOf("handleIntent(");
  if (start < 0) return [];
  let depth = 0;
  let end = start + "handleIntent".length;
  for (; end < source.length; end++) {
    const c = source[end];
    if (c === "(" || c === "{" || c === "[") depth++;
    else if (c === ")" || c === "}" || c === "]") depth--;
    if (depth === 0) break;
  }
  const table = source.slice(start, end);
  return [...table.matchAll(/(?:^|[\s{,(])(?:"([\w-]+)"|([A-Za-z_]\w*))\s*:\s*(?:async\s*)?\((?:body)?\)\s*=>/gm)].map(
    (m) => (m[1] ?? m[2])!,
  );
}

function walk(entries: RouteEntry[], parent = "", out: FuzzRoute[] = []): FuzzRoute[] {
  for (const entry of entries) {
    const pattern = entry.index ? parent : [parent, entry.path].filter(Boolean).join("/");
    if (entry.index || entry.path !== undefined) {
      const mod = modules[`../../app/${entry.file}`];
      if (!mod) throw new Error(`Route module not found for ${entry.file}`);
      const loader = mod.loader as Handler | undefined;
      const action = mod.action as Handler | undefined;
      const handled = new Set<Method>();
      if (loader && !loader.unsupported) handled.add("GET");
      // A JSON call's action answers the methods it lists (methods()), or POST (it refuses others itself, with 405);
      // a screen's action is run for every method but GET.
      if (action?.methods) for (const m of Object.keys(action.methods)) handled.add(m as Method);
      else if (action && !action.unsupported)
        for (const m of pattern.startsWith("api/") ? ["POST" as const] : METHODS.slice(1)) handled.add(m);
      out.push({
        pattern,
        file: entry.file,
        api: pattern.startsWith("api/"),
        index: Boolean(entry.index),
        params: [...pattern.matchAll(/:(\w+)\??/g)].map((m) => m[1]!),
        handled,
        action: Boolean(action),
        intents: action ? intentsOf(sources[`../../app/${entry.file}`] ?? "") : [],
      });
    }
    if (entry.children) walk(entry.children, pattern, out);
  }
  return out;
}

const ROUTES = walk(routeConfig as RouteEntry[]);
const SCREEN_ACTIONS = ROUTES.filter((r) => !r.api && r.action);

/**
 * Calls that take no input and whose whole purpose is a write: any body is a valid call to them, so they cannot be
 * sent "bad input", and signing out would end the fuzz's own sessions. Their own tests: auth.test.ts,
 * sessions.test.ts, admin-imports.test.ts, profile-actions.test.ts.
 */
const NO_INPUT_WRITES = new Set([
  "api/auth/logout",
  "esci",
  "DELETE api/profile/sessions",
  "POST api/admin/recalc-stats",
  "POST api/admin/reprocess-attempt-answers",
  "profilo#sign-out-everywhere",
  "admin/database#reprocess",
  "admin/database#recalc-stats",
]);
const skipped = (method: Method, route: FuzzRoute) =>
  method !== "GET" && (NO_INPUT_WRITES.has(route.pattern) || NO_INPUT_WRITES.has(`${method} ${route.pattern}`));
const fuzzedIntents = (route: FuzzRoute) => route.intents.filter((i) => !NO_INPUT_WRITES.has(`${route.pattern}#${i}`));

// --- Roles ---

const ROLES = ["anonymous", "student", "docente", "moderator", "admin"] as const;
type Who = (typeof ROLES)[number];
type SignedIn = Exclude<Who, "anonymous">;
const EMAILS: Record<SignedIn, string> = {
  student: "studente@example.com",
  docente: "docente@example.com",
  moderator: "moderatore@example.com",
  admin: "admin@example.com",
};
const ROLE_OF = { student: "studente", docente: "docente", moderator: "moderator", admin: "admin" } as const;
let tokens: Record<SignedIn, string>;
/** Each role's user id; a signed-out caller's "own" rows are the demo student's (someone's, not theirs). */
let uid: Record<Who, number>;
let teacher: number;

// reset-db is switched on, so only its missing confirmation can refuse it.
// The rate limits a handler asks itself (joining a class by code, invitations, a teacher's search, quiz draws) would
// answer every later request of this run with 429, hiding the handler: they are tested in rate-limits.test.ts.
const ENV = {
  ALLOW_DB_RESET: "1",
  CLASS_JOIN_LIMITER: undefined,
  CLASS_INVITE_LIMITER: undefined,
  TEACHER_SEARCH_LIMITER: undefined,
  QUIZ_LIMITER: undefined,
} as TestEnv;

// --- The write log ---

const LOG = "fuzz_write_log";
/** Columns every authenticated call may move on: a session's last use and its sliding end. */
const TOUCHED = new Set(["sessions.last_used_at", "sessions.expires_at"]);

/** A trigger on every table logs each row inserted, deleted, or updated with a different value. */
async function installWriteLog() {
  const { results: tables } = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name != 'd1_migrations'",
  ).all<{ name: string }>();
  const statements = [
    `CREATE TABLE ${LOG} (id INTEGER PRIMARY KEY AUTOINCREMENT, tbl TEXT NOT NULL, op TEXT NOT NULL)`,
  ];
  for (const { name } of tables) {
    const { results: columns } = await env.DB.prepare(`SELECT name FROM pragma_table_info('${name}')`).all<{
      name: string;
    }>();
    const compared = columns.map((c) => c.name).filter((c) => !TOUCHED.has(`${name}.${c}`));
    const log = (op: string) => `INSERT INTO ${LOG} (tbl, op) VALUES ('${name}', '${op}')`;
    const old = compared.map((c) => `OLD."${c}"`).join(", ");
    const now = compared.map((c) => `NEW."${c}"`).join(", ");
    statements.push(
      `CREATE TRIGGER fuzz_${name}_i AFTER INSERT ON "${name}" BEGIN ${log("insert")}; END`,
      `CREATE TRIGGER fuzz_${name}_d AFTER DELETE ON "${name}" BEGIN ${log("delete")}; END`,
      `CREATE TRIGGER fuzz_${name}_u AFTER UPDATE ON "${name}" WHEN (${old}) IS NOT (${now}) BEGIN ${log("update")}; END`,
    );
  }
  await env.DB.batch(statements.map((s) => env.DB.prepare(s)));
}

/** The last row of the log, and how many fixture writes (fuzz-rows.ts) had been made when it was read. */
const logged = { mark: -1, fixtures: -1 };

async function writeMark(): Promise<number> {
  if (logged.fixtures !== fixtureWrites.count) {
    const row = await env.DB.prepare(`SELECT coalesce(max(id), 0) AS n FROM ${LOG}`).first<{ n: number }>();
    logged.mark = row!.n;
    logged.fixtures = fixtureWrites.count;
  }
  return logged.mark;
}

/** The rows logged since `mark`, as "insert classes×1"; the end of them becomes the next mark. */
async function writesSince(mark: number): Promise<string[]> {
  const { results } = await env.DB.prepare(
    `SELECT tbl, op, count(*) AS n, max(id) AS last FROM ${LOG} WHERE id > ? GROUP BY tbl, op ORDER BY tbl, op`,
  )
    .bind(mark)
    .all<{ tbl: string; op: string; n: number; last: number }>();
  logged.mark = Math.max(mark, ...results.map((r) => r.last));
  return results.map((r) => `${r.op} ${r.tbl}×${r.n}`);
}

// --- Sending ---

type Body = { text: string; type: string };
type Answer = {
  label: string;
  status: number;
  text: string;
  location: string | null;
  writes: string[];
  /** A refusal: 4xx/5xx, or a guard's redirect (to /login; home for a wrong role; /admin for a tab not theirs). */
  refused: boolean;
};

const totals = {
  requests: 0,
  fiveXX: 0,
  changedByRefused: 0,
  statuses: new Map<number, number>(),
  roles: new Set<Who>(),
  routes: new Set<string>(),
};

async function fire(
  method: Method,
  path: string,
  who: Who,
  options: { body?: Body; auth?: "bearer" | "cookie"; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const token = who === "anonymous" ? undefined : tokens[who];
  const headers: Record<string, string> = { ...options.headers };
  if (options.body?.type) headers["Content-Type"] = options.body.type;
  if (token && options.auth === "cookie") {
    headers.Cookie = `${SESSION_COOKIE}=${encodeURIComponent(token)}`;
    headers.Origin = "http://localhost";
  }
  const ctx = createExecutionContext();
  const mark = await writeMark();
  let status: number;
  let text: string;
  let location: string | null = null;
  try {
    const response = await callGuarded(method, path, {
      token: options.auth === "cookie" ? undefined : token,
      headers,
      body: options.body?.text,
      env: ENV,
      ctx,
    });
    status = response.status;
    location = response.headers.get("Location");
    text = await response.text();
  } catch (error) {
    // What React Router would answer with a 500.
    status = 500;
    text = `thrown: ${error instanceof Error ? error.stack : String(error)}`;
  }
  await waitOnExecutionContext(ctx);
  const writes = await writesSince(mark);
  const refused = status >= 400 || (status >= 300 && /^\/(login(\?.*)?|admin)?$/.test(location ?? ""));
  totals.requests++;
  totals.roles.add(who);
  totals.statuses.set(status, (totals.statuses.get(status) ?? 0) + 1);
  if (status >= 500) totals.fiveXX++;
  if (refused && writes.length) totals.changedByRefused++;
  const label = `${method} ${path.slice(0, 120)} as ${who} body ${(options.body?.text ?? "").slice(0, 100)}`;
  return { label, status, text, location, writes, refused };
}

// --- Reading the answers ---

const ENGLISH =
  /\b(invalid|expected|required|received|undefined|unexpected|cannot|not found|error|object Object|NaN|null)\b/i;
const ITALIAN =
  /[àèéìòù]|\b(non|il|lo|la|le|di|del|della|per|un|una|da|con|al|alla|campo|valore|richiesta|troppo|troppi|accedi|mancante|valido|valida|obbligatorio|trovato|trovata|inesistente|consentito|permessi|sessione|riprova|compila|scegli|scrivi|usa|ed|nome|questo|indirizzo|solo)\b/i;
/** Problems are reported to the vitest host over a socket that refuses lone surrogates: escape what is not ASCII. */
const ascii = (text: string) =>
  text.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/**
 * The messages an answer gives: strings under `error` (a form's errors too) or `denied`, and the router's top-level
 * `message`; not what a form reply echoes back of the post (`initialValue`).
 */
function messagesOf(value: unknown, key = "", inError = false, out: string[] = [], top = true): string[] {
  if (typeof value === "string") {
    if (inError || key === "error" || key === "denied" || (top && key === "message")) out.push(value);
  } else if (Array.isArray(value)) {
    for (const item of value) messagesOf(item, key, inError, out, false);
  } else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value))
      if (k !== "initialValue") messagesOf(v, k, inError || key === "error", out, key === "");
  }
  return out;
}

const kind = (v: unknown, depth: number): string => {
  if (v === null || v === undefined) return "∅";
  if (Array.isArray(v)) return v.length ? "[+]" : "[]";
  if (typeof v === "object") {
    if (depth === 0) return "{}";
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${k}:${kind((v as Record<string, unknown>)[k], depth - 1)}`)
      .join(",")}}`;
  }
  if (typeof v === "string") return v ? "s" : "''";
  return typeof v;
};

/**
 * What an answer says, without the values that differ between two rows: the status, then the messages (digits
 * hidden) of a refusal, the path of a redirect, or the shape of the data (which fields are empty).
 */
function signature(answer: Answer, ids: (string | number)[]): string {
  const hide = (s: string) => ids.reduce<string>((t, id) => t.split(String(id)).join("‹id›"), s).replace(/\d+/g, "#");
  if (answer.status >= 300 && answer.status < 400) return `${answer.status} → ${hide(answer.location ?? "")}`;
  const body = parse(answer.text);
  if (answer.status >= 400)
    return `${answer.status} ${hide(messagesOf(body).join(" | ") || answer.text.slice(0, 200))}`;
  return `${answer.status} ${kind(body, 3)}`;
}

/** The problems of one answer: a 5xx, a refusal that is not said in Italian, a refusal that wrote rows. */
function problemsOf(answer: Answer, route: FuzzRoute, method: Method): string[] {
  const problems: string[] = [];
  if (answer.status >= 500) return [`${answer.label} → ${answer.status} ${answer.text.slice(0, 300)}`];
  if (answer.refused && answer.writes.length)
    problems.push(`${answer.label} → ${answer.status}, refused, but wrote: ${answer.writes.join(", ")}`);
  // Only the handlers' own refusals: the router's (a method a screen has no loader or action for) is rendered by
  // the root's error boundary, in Italian.
  if (answer.status < 400 || !(route.api || route.handled.has(method))) return problems;
  const body = parse(answer.text);
  const messages = route.api
    ? [(body as { error?: unknown } | undefined)?.error].filter((e) => typeof e === "string")
    : messagesOf(body);
  if (!messages.length)
    problems.push(`${answer.label} → ${answer.status} without an error: ${answer.text.slice(0, 200)}`);
  for (const message of messages as string[])
    if (!ITALIAN.test(message) || ENGLISH.test(message))
      problems.push(`${answer.label} → ${answer.status} not Italian: ${message}`);
  return problems;
}

// --- Rows that exist: the caller's, someone else's, and a well-formed id of none ---

const MISSING = 999_999_999;
type Sides<T> = { own: T; other: T | null; missing: T };
type Params = (string | number)[];
const me = (who: Who) => uid[who];
const asCreator = (who: Who) => ({
  id: me(who),
  role: who === "anonymous" ? ("studente" as const) : ROLE_OF[who],
});
const missingSimulation = () => `fuzz-missing-${newJoinCode()}`;

const quizRows = async (who: Who): Promise<Sides<Params>> => ({
  own: [await freshQuiz(me(who))],
  other: [await freshQuiz(await freshUser())],
  missing: [MISSING],
});
const attemptRows = async (who: Who): Promise<Sides<Params>> => ({
  own: [await freshAttempt(me(who))],
  other: [await freshAttempt(await freshUser())],
  missing: [MISSING],
});
/** An invitation sent to the caller (theirs to accept or refuse), and one between two others. */
const inviteRows = async (who: Who): Promise<Sides<Params>> => ({
  own: [await freshFriendship(await freshUser(), me(who), "pending")],
  other: [await freshFriendship(await freshUser(), await freshUser(), "pending")],
  missing: [MISSING],
});
/** A simulation the caller may sit (the teacher's, open to them), and one open to nobody else's teacher made. */
const sittingRows = async (who: Who): Promise<Sides<Params>> => ({
  own: [await freshSimulation({ id: teacher, role: "docente" }, [me(who)])],
  other: [await freshSimulation({ id: await freshUser("docente"), role: "docente" })],
  missing: [missingSimulation()],
});
/** A simulation the caller created, and one another teacher created. */
const managedSimulationRows = async (who: Who): Promise<Sides<Params>> => ({
  own: [await freshSimulation(asCreator(who), [uid.student])],
  other: [await freshSimulation({ id: await freshUser("docente"), role: "docente" }, [uid.student])],
  missing: [missingSimulation()],
});
const classRows = async (who: Who): Promise<Sides<Params>> => ({
  own: [(await freshClass(me(who), [await freshUser()])).id],
  other: [(await freshClass(await freshUser("docente"), [await freshUser()])).id],
  missing: [MISSING],
});
/** A teacher (or admin) removes a member of their class; anyone else leaves a class they are in. */
const memberRows = async (who: Who): Promise<Sides<Params>> => {
  let own: Params;
  if (who === "docente" || who === "admin") {
    const member = await freshUser();
    own = [(await freshClass(me(who), [member])).id, member];
  } else {
    own = [(await freshClass(teacher, [me(who)])).id, me(who)];
  }
  const member = await freshUser();
  return {
    own,
    other: [(await freshClass(await freshUser("docente"), [member])).id, member],
    missing: [MISSING, MISSING],
  };
};
/**
 * An assignment of a class the caller owns (teacher, admin) and is a member of (a pupil starts it), and one of
 * another teacher's class with someone else in it.
 */
const assignmentRows = async (who: Who): Promise<Sides<Params>> => {
  const owner = who === "docente" || who === "admin" ? me(who) : teacher;
  const mine = await freshClass(owner, [me(who)]);
  const otherTeacher = await freshUser("docente");
  const theirs = await freshClass(otherTeacher, [await freshUser()]);
  return {
    own: [await freshAssignment(mine.id, owner)],
    other: [await freshAssignment(theirs.id, otherTeacher)],
    missing: [MISSING],
  };
};
const rushRows = async (): Promise<Sides<Params>> => ({
  own: [await freshRushEvent()],
  other: null,
  missing: [MISSING],
});
const userRows = async (): Promise<Sides<Params>> => ({ own: [await freshUser()], other: null, missing: [MISSING] });
const reportRows = async (who: Who): Promise<Sides<Params>> => ({
  own: [await freshReport(me(who))],
  other: [await freshReport(await freshUser())],
  missing: [MISSING],
});
const questionRows = async (): Promise<Sides<Params>> => ({
  own: [await freshQuestion()],
  other: null,
  missing: [MISSING],
});
/** An accepted friend of the caller, and a user who is not. */
const friendRows = async (who: Who): Promise<Sides<Params>> => {
  const friend = await freshUser();
  await freshFriendship(me(who), friend, "accepted");
  return { own: [friend], other: [await freshUser()], missing: [MISSING] };
};
const simulationResultRows = async (who: Who): Promise<Sides<Params>> => {
  const mine = await freshSimulation({ id: teacher, role: "docente" }, [me(who)]);
  const someone = await freshUser();
  const theirs = await freshSimulation({ id: teacher, role: "docente" }, [someone]);
  return {
    own: [mine, await freshSimulationAttempt(mine, me(who))],
    other: [theirs, await freshSimulationAttempt(theirs, someone)],
    missing: [missingSimulation(), MISSING],
  };
};
/** An invitation to the caller (theirs to accept or decline), and one to someone else. */
const invitationRows = async (who: Who): Promise<Sides<Params>> => ({
  own: [await freshInvitation((await freshClass(teacher)).id, me(who))],
  other: [await freshInvitation((await freshClass(await freshUser("docente"))).id, await freshUser())],
  missing: [MISSING],
});
const joinCodeRows = async (): Promise<Sides<Params>> => ({
  own: [(await freshClass(teacher)).code],
  other: null,
  missing: [newJoinCode()],
});

/** The rows each address with an id names, by route (as in app/routes.ts). A route with an id and no entry fails. */
const ROWS: Record<string, (who: Who) => Promise<Sides<Params>>> = {
  "api/subjects/:id/topics": async () => ({ own: [1], other: null, missing: [MISSING] }),
  "api/quiz/:id": quizRows,
  "api/quiz/:id/attempt": quizRows,
  "api/attempts/:id/summary": attemptRows,
  "api/friends/:id": inviteRows,
  "api/friends/:id/accept": inviteRows,
  "api/simulations/:id": sittingRows,
  "api/simulations/:id/attempt": sittingRows,
  "api/simulations/:id/ranking": sittingRows,
  "api/simulations/:id/skip-break": async (who) => ({
    own: [await freshSoloDay(me(who))],
    other: [await freshSoloDay(await freshUser())],
    missing: [missingSimulation()],
  }),
  "api/admin/simulations/:id": managedSimulationRows,
  "api/admin/simulations/:id/start": managedSimulationRows,
  "api/admin/simulations/:id/clock": managedSimulationRows,
  "api/admin/simulations/:id/attempts": managedSimulationRows,
  "api/admin/simulations/:id/live": managedSimulationRows,
  "api/admin/simulations/:id/classes": managedSimulationRows,
  "api/classes/:id": classRows,
  "api/classes/:id/members": classRows,
  "api/classes/:id/members/:userId": memberRows,
  "api/classes/invitations/:id": invitationRows,
  "api/classes/invitations/:id/accept": invitationRows,
  "api/classes/:id/invitations": classRows,
  "api/classes/:id/code": classRows,
  "api/classes/:id/assignments": classRows,
  "api/assignments/:id": assignmentRows,
  "api/assignments/:id/start": assignmentRows,
  "api/classes/:id/progress": classRows,
  "admin/classi/:id/progressi": classRows,
  "admin/simulazioni/:id/diretta": managedSimulationRows,
  "api/admin/rush-events/:id": rushRows,
  "api/admin/users/:id": userRows,
  "api/admin/users/:id/ban": userRows,
  "api/admin/reports/:id": reportRows,
  "api/admin/reports/:id/resolve": reportRows,
  "api/admin/questions/:id": questionRows,
  "admin/domanda/:id": questionRows,
  "admin/utente/:id": userRows,
  "dashboard/amico/:id": friendRows,
  "test/riepilogo/:attemptId?": attemptRows,
  "simulazione/riepilogo/:simulationId/:attemptId": simulationResultRows,
  "classi/unisciti/:code": joinCodeRows,
};

const QUESTION_EDIT = { stem: "Quale organulo produce ATP?", options: [{ text: "Mitocondrio" }, { text: "Ribosoma" }] };
const RUSH_EVENT = {
  title: "Rush del fuzz",
  startsAt: Date.UTC(2095, 0, 1),
  endsAt: Date.UTC(2095, 0, 2),
  published: false,
};
const ASSIGNMENT = {
  title: "Compito del fuzz",
  subjectId: 1,
  count: 3,
  timer: "nessuno",
  mode: "mirato",
  opensAt: Date.UTC(2095, 0, 1),
  dueAt: Date.UTC(2095, 0, 2),
};
/** A valid body for the handlers that read it before they look the row up (else the body is refused first). */
const BODIES: Record<string, unknown> = {
  "PUT api/admin/questions/:id": { ...QUESTION_EDIT, type: "mc" },
  "PUT api/admin/reports/:id": { status: "in_review" },
  "PUT api/admin/rush-events/:id": RUSH_EVENT,
  "PUT api/admin/users/:id": { name: "Nome dal fuzz" },
  "POST api/admin/users/:id/ban": { reason: "Prova del fuzz" },
  "POST api/admin/simulations/:id/clock": { aheadMs: 1000 },
  "POST api/classes/:id/members": { emails: ["amico@example.com"] },
  "PATCH api/classes/:id/members/:userId": { extraTimePct: 30 },
  "POST api/classes/:id/assignments": ASSIGNMENT,
  "PATCH api/assignments/:id": { dueNow: true },
  "POST api/quiz/:id/attempt": { answers: [], timeTaken: 10 },
  "POST api/simulations/:id/attempt": { answers: {}, timeTaken: 10 },
};

/** A screen's post that names rows in its body (or query). */
type Post = { body: Record<string, unknown>; query?: string; form?: boolean };
const posts = async <T>(rows: Sides<T>, post: (row: T) => Post): Promise<Sides<Post>> => ({
  own: post(rows.own),
  other: rows.other === null ? null : post(rows.other),
  missing: post(rows.missing),
});
const one = (p: Params) => p[0]!;

/**
 * The screen posts that name a row, by "METHOD route#intent" (the intent as handleIntent reads it; empty for an
 * action without intents). An intent of a screen action is read from its source; one that names rows belongs here.
 */
const ID_POSTS: Record<string, (who: Who) => Promise<Sides<Post>>> = {
  "POST admin/classi#add-members": async (who) =>
    posts(await classRows(who), (p) => ({
      body: { intent: "add-members", classId: one(p), emails: ["amico@example.com"] },
    })),
  "POST admin/classi#remove-member": async (who) =>
    posts(await memberRows(who === "admin" ? "admin" : "docente"), ([classId, userId]) => ({
      body: { intent: "remove-member", classId, userId },
    })),
  "POST admin/classi#extra-time": async (who) =>
    posts(await memberRows(who === "admin" ? "admin" : "docente"), ([classId, userId]) => ({
      body: { intent: "extra-time", classId, userId, extraTimePct: 30 },
    })),
  "POST admin/classi#renew-code": async (who) =>
    posts(await classRows(who), (p) => ({ body: { intent: "renew-code", classId: one(p) } })),
  "POST admin/classi#delete": async (who) =>
    posts(await classRows(who), (p) => ({ body: { intent: "delete", classId: one(p) } })),
  "POST admin/compiti#create": async (who) =>
    posts(await classRows(who), (p) => ({ body: { intent: "create", classId: one(p), ...ASSIGNMENT } })),
  "POST admin/compiti#close-now": async (who) =>
    posts(await assignmentRows(who), (p) => ({ body: { intent: "close-now", assignmentId: one(p) } })),
  "POST admin/compiti#delete": async (who) =>
    posts(await assignmentRows(who), (p) => ({ body: { intent: "delete", assignmentId: one(p) } })),
  "POST compiti#": async (who) =>
    posts(await assignmentRows(who), (p) => ({ body: { assignmentId: one(p) }, form: true })),
  "POST admin/rush#save-event": async () =>
    posts(await rushRows(), (p) => ({ body: { intent: "save-event", id: one(p), event: RUSH_EVENT } })),
  "POST admin/rush#delete": async () => posts(await rushRows(), (p) => ({ body: { intent: "delete", id: one(p) } })),
  "POST admin/segnalazioni#update-report": async (who) =>
    posts(await reportRows(who), (p) => ({ body: { intent: "update-report", id: one(p), status: "in_review" } })),
  "POST admin/segnalazioni#resolve": async (who) =>
    posts(await reportRows(who), (p) => ({ body: { intent: "resolve", id: one(p) } })),
  "POST admin/segnalazioni#delete": async (who) =>
    posts(await reportRows(who), (p) => ({ body: { intent: "delete", ids: [one(p)] } })),
  "POST admin/simulazioni#save": async (who) =>
    posts(await managedSimulationRows(who), (p) => ({
      body: {
        intent: "save",
        id: one(p),
        title: "Simulazione del fuzz",
        subjects: [{ subjectId: 1, timeMin: 5, questionCount: 2 }],
      },
    })),
  "POST admin/simulazioni#start": async (who) =>
    posts(await managedSimulationRows(who), (p) => ({ body: { intent: "start", id: one(p) } })),
  "POST admin/simulazioni#delete": async (who) =>
    posts(await managedSimulationRows(who), (p) => ({ body: { intent: "delete", id: one(p) } })),
  "POST admin#": async () =>
    posts(await questionRows(), (p) => ({
      body: { intent: "save-question", id: one(p), ...QUESTION_EDIT, type: "mc" },
    })),
  "POST admin/utenti#save-user": async () =>
    posts(await userRows(), (p) => ({ body: { intent: "save-user", id: one(p), user: { name: "Nome dal fuzz" } } })),
  "POST admin/utenti#toggle-ban": async () =>
    posts(await userRows(), (p) => ({ body: { intent: "toggle-ban", id: one(p), reason: "Prova del fuzz" } })),
  "POST admin/utenti#delete": async () =>
    posts(await userRows(), (p) => ({ body: { intent: "delete", ids: [one(p)] } })),
  "POST profilo#accept-friend": async (who) =>
    posts(await inviteRows(who), (p) => ({ body: { intent: "accept-friend", friendshipId: one(p) } })),
  "POST profilo#end-friendship": async (who) =>
    posts(await inviteRows(who), (p) => ({ body: { intent: "end-friendship", friendshipId: one(p) } })),
  "POST profilo#join-class": async () =>
    posts(await joinCodeRows(), (p) => ({ body: { intent: "join-class", code: one(p) } })),
  "POST profilo#leave-class": async (who) => ({
    own: { body: { intent: "leave-class", classId: (await freshClass(teacher, [me(who)])).id } },
    other: { body: { intent: "leave-class", classId: (await freshClass(teacher, [await freshUser()])).id } },
    missing: { body: { intent: "leave-class", classId: MISSING } },
  }),
  "GET simulazione#": async (who) => posts(await sittingRows(who), (p) => ({ body: {}, query: `?id=${one(p)}` })),
  "POST simulazione#": async (who) =>
    posts(await sittingRows(who), (p) => ({ body: { answers: {}, timeTaken: 10 }, query: `?id=${one(p)}` })),
  "POST test#": async (who) =>
    posts(await quizRows(who), (p) => ({ body: { quizId: one(p), answers: [], timeTaken: 10 } })),
  "POST segnalato#": async () =>
    posts(await questionRows(), (p) => ({ body: { questionId: one(p), message: "Il testo è ambiguo" }, form: true })),
};

// --- The corpus of bad input ---

const ODD = [
  "\u0000",
  "\u202E",
  "\uD800",
  "\uFEFF",
  "🦄",
  "a\u0301",
  "ẞ",
  "\u2028",
  "𝕏",
  "'; DROP TABLE users; --",
  "<script>",
];
const oddText = fc.array(fc.constantFrom(...ODD), { minLength: 1, maxLength: 4 }).map((parts) => parts.join(""));
/** Strings in bodies are always over every field's limit (free-text fields accept any short text, rightly). */
const hugeText = fc.constantFrom("x".repeat(100_000), "🦄\u202E".repeat(25_000), "\u0000".repeat(100_001));
const badNumber = fc.constantFrom(-1, -0.5, -1e308, 1e308, 2 ** 53 + 2, 1e21, -2147483649);
const KNOWN_KEYS = [
  "email",
  "credential",
  "answers",
  "question_id",
  "option_id",
  "answer_text",
  "time_sec",
  "timeTaken",
  "idempotencyKey",
  "rushEventId",
  "questionId",
  "attemptId",
  "quizId",
  "message",
  "note",
  "userAnswerKey",
  "assignedScore",
  "status",
  "adminNotes",
  "handle",
  "city",
  "birth",
  "zip",
  "cf",
  "phone",
  "schoolYear",
  "bio",
  "confirm",
  "preferences",
  "analytics",
  "marketing",
  "visitorId",
  "path",
  "referrer",
  "id",
  "ids",
  "title",
  "subjects",
  "allowedUsers",
  "allowedClasses",
  "startsAt",
  "endsAt",
  "published",
  "stem",
  "options",
  "difficulty",
  "type",
  "name",
  "role",
  "reason",
  "verified",
  "theme",
  "subjectId",
  "topicId",
  "count",
  "time",
  "classId",
  "userId",
  "friendshipId",
  "code",
  "emails",
  "user",
  "event",
  "timer",
  "mode",
  "units",
  "opensAt",
  "dueAt",
  "dueNow",
  "assignmentId",
];
const key = fc.oneof(
  fc.constantFrom(...KNOWN_KEYS),
  fc.constantFrom("__proto__", "constructor", "prototype", "toString"),
  oddText,
);
const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    badNumber,
    fc.boolean(),
    hugeText,
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(key, tie("value"), { maxKeys: 4 }),
  ),
}));
const deepArray = "[".repeat(5000) + "]".repeat(5000);
const deepObject = '{"a":'.repeat(3000) + "1" + "}".repeat(3000);
const json = (v: unknown): Body => ({ text: JSON.stringify(v), type: "application/json" });
/** A request body: JSON text and the Content-Type it is sent with. */
const body: fc.Arbitrary<Body> = fc.oneof(
  fc.dictionary(fc.constantFrom(...KNOWN_KEYS), value, { maxKeys: 6 }).map(json),
  value.map(json),
  fc.constantFrom(
    { text: "", type: "application/json" },
    { text: "{", type: "application/json" },
    { text: "nul", type: "application/json" },
    { text: "\uFEFF{}", type: "application/json" },
    { text: deepArray, type: "application/json" },
    { text: `{"answers":${deepArray}}`, type: "application/json" },
    { text: deepObject, type: "application/json" },
    {
      text: '{"__proto__":{"role":"admin","isAdmin":true},"constructor":{"prototype":{"polluted":1}}}',
      type: "application/json",
    },
    { text: '{"email":"admin@example.com"}', type: "text/plain" },
    { text: "email=admin%40example.com", type: "application/x-www-form-urlencoded" },
    { text: '{"a":1}', type: "" },
    { text: "x".repeat(1024 * 1024 + 1), type: "application/json" },
  ),
);
const queryValue = fc.oneof(
  fc.constantFrom("-1", "0", "1e309", "NaN", "99999999999", "[object Object]", "x".repeat(20_000)),
  oddText,
);
/** A form post (the screens' forms) with bad values. */
const formBody: fc.Arbitrary<Body> = fc
  .dictionary(fc.constantFrom(...KNOWN_KEYS), queryValue, { maxKeys: 5 })
  .map((fields) => ({ text: new URLSearchParams(fields).toString(), type: "application/x-www-form-urlencoded" }));
/** A screen action's post: one of its intents (or a made-up one) with random fields. */
const intentBody = (intents: string[]): fc.Arbitrary<Body> =>
  fc
    .record({
      intent: intents.length ? fc.oneof(fc.constantFrom(...intents), oddText) : oddText,
      fields: fc.dictionary(key, value, { maxKeys: 5 }),
    })
    .map(({ intent, fields }) => json({ ...fields, intent }));
const screenBody = (route: FuzzRoute) => fc.oneof(intentBody(fuzzedIntents(route)), formBody, body);
/** A path parameter that names nothing: never an id of a row. */
const param = fc.oneof(
  fc.constantFrom(
    "0",
    "-1",
    "abc",
    "1e309",
    "1.5",
    "9".repeat(400),
    "NaN",
    "..%2F..",
    "%00",
    "%E2%80%AE",
    "%F0%9F%A6%84",
    "__proto__",
  ),
  // A lone surrogate cannot be percent-encoded: a URL never carries one.
  oddText.map((s) =>
    encodeURIComponent(s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD")),
  ),
);
const query = fc.dictionary(
  fc.oneof(
    fc.constantFrom(...KNOWN_KEYS, "limit", "page", "pageSize", "q", "days", "top", "stato", "ruolo", "pagina"),
    oddText,
  ),
  queryValue,
  { maxKeys: 4 },
);
const authMode = fc.constantFrom("bearer", "cookie") as fc.Arbitrary<"bearer" | "cookie">;
/** Fields added to a valid post: a wrong value for a field it has, or one it does not expect. */
const extraFields = fc.dictionary(key, value, { minKeys: 1, maxKeys: 3 });

const seedOf = (text: string) => [...text].reduce((h, c) => (h * 31 + c.charCodeAt(0)) | 0, 15);
const concrete = (route: FuzzRoute, params: Params) => {
  let i = 0;
  const path = route.pattern
    .replace(/:[a-zA-Z]+\??/g, () => encodeURIComponent(String(params[i++ % params.length])))
    .replace("*", encodeURIComponent(String(params[0])));
  return `/${path}${route.index ? "?index" : ""}`;
};
const withQuery = (path: string, search: string) =>
  search ? `${path}${path.includes("?") ? "&" : "?"}${search}` : path;

// --- The run ---

/**
 * Samples per route, method and role for a method the route answers; one in all for a method it does not (the
 * router's refusal does not depend on who asks).
 */
const RUNS = 2;
/** Fuzzed posts per id-carrying pair and role, on a row of the caller's (a fresh one if the first was changed). */
const ID_FUZZ_RUNS = 1;
const started = Date.now();
const reach = { pairs: new Map<string, boolean>(), posts: new Map<string, boolean>(), othersSent: 0, othersChanged: 0 };

beforeAll(async () => {
  await seed();
  tokens = {
    student: await login(EMAILS.student),
    docente: await login(EMAILS.docente),
    moderator: await login(EMAILS.moderator),
    admin: await login(EMAILS.admin),
  };
  const ids = {
    student: await userIdOf(EMAILS.student),
    docente: await userIdOf(EMAILS.docente),
    moderator: await userIdOf(EMAILS.moderator),
    admin: await userIdOf(EMAILS.admin),
  };
  uid = { anonymous: ids.student, ...ids };
  teacher = ids.docente;
  await installWriteLog();
});

afterAll(() => {
  const share = (m: Map<string, boolean>) => `${[...m.values()].filter(Boolean).length}/${m.size}`;
  const statuses = [...totals.statuses]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}×${n}`)
    .join(" ");
  console.log(
    `fuzz: ${JSON.stringify({
      requests: totals.requests,
      routes: totals.routes.size,
      actions: SCREEN_ACTIONS.length,
      intents: SCREEN_ACTIONS.flatMap(fuzzedIntents).length,
      roles: ROLES.filter((r) => totals.roles.has(r)),
      idPairsReachedHandler: share(reach.pairs),
      // Route-and-method pairs with an id in the address that no handler answers (the router's 405): fuzzed in phase 2.
      idPairsWithoutHandler: ROUTES.filter((r) => r.params.length).length * METHODS.length - ID_PAIRS.length,
      idPostsReachedHandler: share(reach.posts),
      othersRowsSent: reach.othersSent,
      othersRowsChangedByStudentOrTeacher: reach.othersChanged,
      fiveXX: totals.fiveXX,
      changedByRefused: totals.changedByRefused,
      seconds: Math.round((Date.now() - started) / 1000),
      statuses,
    })}`,
  );
});

/**
 * Someone else's row (another student's attempt, another teacher's class or simulation, an invitation between two
 * others) is never changed by a student or a teacher. (A moderator's reports and questions, and an admin's rows,
 * are everyone's by role.)
 */
function othersProblems(answer: Answer, who: Who): string[] {
  reach.othersSent++;
  if ((who !== "student" && who !== "docente") || !answer.writes.length) return [];
  reach.othersChanged++;
  return [`${answer.label} → ${answer.status}: someone else's row, changed: ${answer.writes.join(", ")}`];
}

/** The pairs of a route and a method its handler answers, with an id in the address. */
const ID_PAIRS = ROUTES.filter((r) => r.params.length).flatMap((route) =>
  METHODS.filter((m) => route.handled.has(m) && !skipped(m, route)).map((method) => ({ route, method })),
);

describe("what the fuzz covers", () => {
  it("every route of app/routes.ts, the screens' actions and their intents", () => {
    expect(ROUTES.filter((r) => r.api).length).toBeGreaterThan(50);
    expect(SCREEN_ACTIONS.length).toBeGreaterThan(10);
    // The intents are read from the source: a handleIntent table that yields none means the reader broke.
    const dispatching = SCREEN_ACTIONS.filter((r) => (sources[`../../app/${r.file}`] ?? "").includes("handleIntent("));
    expect(dispatching.length).toBeGreaterThan(5);
    for (const route of dispatching) expect(route.intents, route.file).not.toEqual([]);
    expect(ID_PAIRS.length).toBeGreaterThan(30);
  });

  it("has the rows of every address with an id, and no entry for a route or an intent that is gone", () => {
    const problems: string[] = [];
    for (const route of ROUTES.filter((r) => r.params.length && r.handled.size && !r.pattern.includes("*")))
      if (!ROWS[route.pattern]) problems.push(`"${route.pattern}" has an id but no entry in ROWS (api-fuzz.test.ts)`);
    for (const pattern of Object.keys(ROWS))
      if (!ROUTES.some((r) => r.pattern === pattern)) problems.push(`ROWS has "${pattern}", not in app/routes.ts`);
    for (const pair of Object.keys(BODIES)) {
      const [method, pattern] = pair.split(" ") as [Method, string];
      if (!ROUTES.some((r) => r.pattern === pattern && r.handled.has(method))) problems.push(`BODIES has "${pair}"`);
    }
    for (const post of Object.keys(ID_POSTS)) {
      const [method, target] = post.split(" ") as [Method, string];
      const [pattern, intent] = target.split("#") as [string, string];
      const route = ROUTES.find((r) => r.pattern === pattern);
      if (!route?.handled.has(method)) problems.push(`ID_POSTS has "${post}": no such route or method`);
      else if (intent && !route.intents.includes(intent)) problems.push(`ID_POSTS has "${post}": no such intent`);
    }
    expect(problems, problems.join("\n")).toEqual([]);
  });

  it("sees a write (the log the refusals are checked with is not blind)", async () => {
    const answer = await fire("POST", "/api/classes", "docente", { body: json({ name: "Classe del fuzz" }) });
    expect(answer.status).toBe(201);
    expect(answer.writes).toContain("insert classes×1");
    const refused = await fire("POST", "/api/classes", "student", { body: json({ name: "Classe del fuzz" }) });
    expect(refused).toMatchObject({ status: 403, refused: true, writes: [] });
  });

  it("knows every intent it reads from the source (none answers like an unknown one)", async () => {
    const problems: string[] = [];
    for (const route of SCREEN_ACTIONS.filter((r) => r.intents.length)) {
      const path = concrete(route, [1]);
      const unknown = await fire("POST", path, "admin", { body: json({ intent: "fuzz-unknown-intent" }) });
      expect(unknown.status, unknown.label).toBe(400);
      for (const intent of fuzzedIntents(route)) {
        // An empty post of the intent: refused by the intent's own schema, not as an unknown operation.
        const answer = await fire("POST", path, "admin", { body: json({ intent }) });
        if (signature(answer, []) === signature(unknown, []))
          problems.push(`${route.pattern}#${intent} answers like an unknown intent: ${answer.text.slice(0, 200)}`);
        problems.push(...problemsOf(answer, route, "POST"));
      }
    }
    expect(problems.map(ascii), problems.join("\n")).toEqual([]);
  });
});

describe("well-formed ids of rows that exist, as every role", () => {
  afterEach(dropFreshSimulations);

  for (const { route, method } of ID_PAIRS) {
    const label = `${method} ${route.pattern}`;
    it(`${label}: reaches the handler; never a 5xx; a refusal is Italian and writes nothing`, async () => {
      const rows = ROWS[route.pattern];
      if (!rows) return; // reported by the coverage test above
      totals.routes.add(route.pattern);
      const valid = BODIES[label];
      const sent = method === "GET" ? undefined : valid === undefined ? undefined : json(valid);
      const problems: string[] = [];
      let reached = false;
      const fuzzBodies = fc.sample(extraFields, { numRuns: ROLES.length * ID_FUZZ_RUNS, seed: seedOf(label) });
      for (const [n, who] of ROLES.entries()) {
        const sides = await rows(who);
        const missing = await fire(method, concrete(route, sides.missing), who, { body: sent });
        const own = await fire(method, concrete(route, sides.own), who, { body: sent });
        if (signature(own, sides.own) !== signature(missing, sides.missing) || own.writes.length) reached = true;
        const answers = [missing, own];
        if (sides.other) {
          const other = await fire(method, concrete(route, sides.other), who, { body: sent });
          problems.push(...othersProblems(other, who));
          answers.push(other);
        }
        for (let i = 0; i < ID_FUZZ_RUNS; i++) {
          const target = own.writes.length ? (await rows(who)).own : sides.own;
          const fields = fuzzBodies[n * ID_FUZZ_RUNS + i]!;
          const fuzzed = json(valid && typeof valid === "object" ? { ...valid, ...fields } : fields);
          answers.push(
            await fire(method, concrete(route, target), who, { body: method === "GET" ? undefined : fuzzed }),
          );
        }
        for (const answer of answers) problems.push(...problemsOf(answer, route, method));
      }
      reach.pairs.set(label, reached);
      expect(problems.slice(0, 10).map(ascii), `${problems.length} problems`).toEqual([]);
      expect(reached, `${label} never reached its handler with an id of a row that exists`).toBe(true);
    });
  }

  for (const [post, sidesOf] of Object.entries(ID_POSTS)) {
    const [method, target] = post.split(" ") as [Method, string];
    const [pattern, intent] = target.split("#") as [string, string];
    it(`${post}: reaches the handler; never a 5xx; a refusal is Italian and writes nothing`, async () => {
      const route = ROUTES.find((r) => r.pattern === pattern);
      if (!route) return; // reported by the coverage test above
      totals.routes.add(route.pattern);
      const send = (who: Who, p: Post, extra?: Record<string, unknown>) => {
        const fields = { ...p.body, ...extra, ...(intent ? { intent } : {}) };
        const encoded: Body | undefined =
          method === "GET"
            ? undefined
            : p.form
              ? {
                  text: new URLSearchParams(
                    Object.entries(fields).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]),
                  ).toString(),
                  type: "application/x-www-form-urlencoded",
                }
              : json(fields);
        return fire(method, withQuery(concrete(route, [1]), (p.query ?? "").replace(/^\?/, "")), who, {
          body: encoded,
        });
      };
      const problems: string[] = [];
      let reached = false;
      const fuzzBodies = fc.sample(extraFields, { numRuns: ROLES.length * ID_FUZZ_RUNS, seed: seedOf(post) });
      for (const [n, who] of ROLES.entries()) {
        const sides = await sidesOf(who);
        const ids = (p: Post) => Object.values(p.body).flat() as (string | number)[];
        const missing = await send(who, sides.missing);
        const own = await send(who, sides.own);
        const idsOf = (p: Post) => [...ids(p), ...(p.query ? [p.query.replace(/^\?id=/, "")] : [])];
        if (signature(own, idsOf(sides.own)) !== signature(missing, idsOf(sides.missing)) || own.writes.length)
          reached = true;
        const answers = [missing, own];
        if (sides.other) {
          const other = await send(who, sides.other);
          problems.push(...othersProblems(other, who));
          answers.push(other);
        }
        for (let i = 0; i < ID_FUZZ_RUNS; i++) {
          const target = own.writes.length ? (await sidesOf(who)).own : sides.own;
          answers.push(await send(who, target, fuzzBodies[n * ID_FUZZ_RUNS + i]));
        }
        for (const answer of answers) problems.push(...problemsOf(answer, route, method));
      }
      reach.posts.set(post, reached);
      expect(problems.slice(0, 10).map(ascii), `${problems.length} problems`).toEqual([]);
      expect(reached, `${post} never reached its handler with an id of a row that exists`).toBe(true);
    });
  }
});

describe("bad input, as every role", () => {
  for (const route of ROUTES) {
    it(`/${route.pattern}: never a 5xx; a refusal is Italian and writes nothing`, async () => {
      totals.routes.add(route.pattern);
      const problems: string[] = [];
      for (const method of METHODS) {
        if (skipped(method, route)) continue;
        const samples = route.handled.has(method) ? RUNS * ROLES.length : 1;
        const cases = fc.sample(
          fc.record({
            params: fc.array(param, { minLength: 2, maxLength: 2 }),
            query,
            body: route.api || method === "GET" ? body : screenBody(route),
            auth: authMode,
          }),
          { numRuns: samples, seed: seedOf(`${method} ${route.pattern}`) },
        );
        for (const [n, sample] of cases.entries()) {
          const who = ROLES[Math.abs(n + seedOf(route.pattern)) % ROLES.length]!;
          const search = new URLSearchParams(sample.query).toString();
          const path = withQuery(concrete(route, sample.params), search);
          const answer = await fire(method, path, who, {
            body: method === "GET" ? undefined : sample.body,
            auth: sample.auth,
          });
          problems.push(...problemsOf(answer, route, method));
        }
      }
      expect(problems.slice(0, 10).map(ascii), `${problems.length} problems`).toEqual([]);
    });
  }
});

// Issue 44: the simulation sockets are routed by the Worker before React Router (workers/simulation-socket.ts), so
// app/routes.ts does not list them; and the router reads a path without regard to case, so every API route is also
// reachable as /API/..., /Api/... (and %-escaped): the limits, the size cap and the error shape must read it the same.
const SOCKET_ROUTE: FuzzRoute = {
  pattern: "api/simulations/:id/ws",
  file: "workers/simulation-socket.ts",
  api: true,
  index: false,
  params: ["id"],
  handled: new Set(["GET"]),
  action: false,
  intents: [],
};
/** Simulation ids that name nothing, written every bad way an address can carry them. */
const BAD_SOCKET_IDS = [
  "%E0",
  "%",
  "%ZZ",
  "%E0%A4%A",
  "%C0%AF",
  "%00",
  "..%2F..",
  "%2F",
  "x".repeat(5000),
  "%F0%9F%A6%84",
  "nessuna-simulazione",
  "__proto__",
];

describe("the simulation sockets' addresses, as every role", () => {
  afterEach(dropFreshSimulations);

  it("/api/simulations/:id/ws and /staff/ws with bad ids and shards: never a 5xx; a refusal is Italian JSON and writes nothing", async () => {
    totals.routes.add(SOCKET_ROUTE.pattern);
    const managed = await freshSimulation({ id: teacher, role: "docente" }, [uid.student]);
    const problems: string[] = [];
    const paths = [
      ...BAD_SOCKET_IDS.flatMap((id) => [
        `/api/simulations/${id}/ws`,
        `/api/simulations/${id}/staff/ws`,
        `/api/simulations/${id}/staff/ws?shard=0`,
        `/api/simulations/${id}/ws?resume=${encodeURIComponent("non.un.token")}`,
      ]),
      ...["-1", "1", "abc", "1e309", "0.5", "%E0", "9".repeat(400)].map(
        (shard) => `/api/simulations/${managed}/staff/ws?shard=${shard}`,
      ),
      `/api/simulations/nessuna-simulazione/ws?resume=${"x".repeat(3000)}`,
    ];
    const socketLike = { Upgrade: "websocket" };
    for (const [n, path] of paths.entries()) {
      for (const method of ["GET", "POST"] as const) {
        for (const headers of [socketLike, {}]) {
          const who = ROLES[(n + (method === "POST" ? 1 : 0)) % ROLES.length]!;
          const answer = await fire(method, path, who, { headers, body: method === "POST" ? json({}) : undefined });
          expect(answer.status, answer.label).not.toBe(101);
          problems.push(...problemsOf(answer, SOCKET_ROUTE, method));
        }
      }
    }
    // Every bad id is refused before any room is touched, whoever asks.
    for (const who of ROLES)
      for (const path of ["/api/simulations/%E0/staff/ws", "/api/simulations/%/ws"]) {
        const answer = await fire("GET", path, who, { headers: socketLike });
        expect(answer.status, answer.label).toBe(400);
      }
    expect(problems.slice(0, 10).map(ascii), `${problems.length} problems`).toEqual([]);
  });
});

/** The spellings of a path the router reads as that path: upper case, capitalised, a %-escaped letter, trailing slashes. */
const SPELLINGS = [
  (path: string) => path.toUpperCase(),
  (path: string) => path.replace(/(^|\/)([a-z])/g, (_, slash: string, c: string) => slash + c.toUpperCase()),
  (path: string) =>
    path.replace(/^\/api\/([a-z])/, (_, c: string) => `/Api/%${c.charCodeAt(0).toString(16).toUpperCase()}`),
  (path: string) => `${path.replace(/^\/api/, "/API")}//`,
];

describe("mixed-case paths, as every role", () => {
  for (const route of ROUTES.filter((r) => r.api)) {
    it(`/${route.pattern} spelt /API/…, /Api/…: never a 5xx; a refusal is Italian JSON and writes nothing`, async () => {
      totals.routes.add(route.pattern);
      const problems: string[] = [];
      for (const [m, method] of METHODS.entries()) {
        if (skipped(method, route)) continue;
        const canonical = concrete(route, [MISSING]);
        const spelling = SPELLINGS[Math.abs(m + seedOf(route.pattern)) % SPELLINGS.length]!;
        const [path, search] = canonical.split("?") as [string, string?];
        const variant = withQuery(spelling(path), search ?? "");
        const who = ROLES[Math.abs(m + seedOf(route.pattern)) % ROLES.length]!;
        const body = method === "GET" ? undefined : json({});
        // The first call of a route loads its module (the test's route table is lazy) and can answer differently.
        problems.push(...problemsOf(await fire(method, canonical, who, { body }), route, method));
        const plain = await fire(method, canonical, who, { body });
        const spelt = await fire(method, variant, who, { body });
        // The router reads both the same: the same answer, refusals in the same JSON shape.
        if (spelt.status !== plain.status && spelt.status !== 429)
          problems.push(`${spelt.label} → ${spelt.status}, but ${canonical} → ${plain.status}`);
        problems.push(...problemsOf(spelt, route, method));
        if (spelt.status >= 400 && !(parse(spelt.text) as { error?: unknown } | undefined)?.error)
          problems.push(`${spelt.label} → ${spelt.status} is not { error }: ${spelt.text.slice(0, 120)}`);
      }
      expect(problems.slice(0, 10).map(ascii), `${problems.length} problems`).toEqual([]);
    });
  }
});

describe("the whole run", () => {
  it("sent every role, reached every handler with an id, no 5xx, no write by a refused request", () => {
    expect([...totals.roles].sort()).toEqual([...ROLES].sort());
    expect(totals.requests).toBeGreaterThan(3000);
    expect([...reach.pairs].filter(([, ok]) => !ok).map(([p]) => p)).toEqual([]);
    expect(reach.pairs.size).toBe(ID_PAIRS.length);
    expect([...reach.posts].filter(([, ok]) => !ok).map(([p]) => p)).toEqual([]);
    expect(totals.fiveXX).toBe(0);
    expect(totals.changedByRefused).toBe(0);
    expect(reach.othersChanged).toBe(0);
  });
});
