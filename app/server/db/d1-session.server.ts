// Reads near the student (issue 31): every request talks to D1 through one Sessions API session
// (`env.DB.withSession`), so its reads may be served by the read replica nearest to the student while staying
// sequentially consistent; the session's latest bookmark travels back in a cookie, so the student's next request
// starts from it and always reads their own writes.
// - A read (GET/HEAD) starts from the cookie's bookmark, or anywhere ("first-unconstrained") without one.
// - A write request starts on the primary ("first-primary"): it reads what it is about to change from the
//   freshest copy; the writes themselves always go to the primary.
// - The rooms (Durable Objects) keep the plain binding: their reads and the grading write go to the primary.
//   A request whose answer depends on a room's write (the attempt) catches up with the primary afterwards
//   (catchUpWithPrimary), so the ranking read right after it sees the graded attempts.
// workers/app.ts opens the session once per request and hands `env` with DB = the session to everything else.
import { SESSION_COOKIE } from "~/lib/constants";

/** The cookie that carries the student's latest D1 bookmark between requests. */
export const D1_BOOKMARK_COOKIE = "unicum_d1";
/** Long enough to span a sitting and its results; a stale bookmark only costs a read on a fresher replica. */
const BOOKMARK_MAX_AGE_S = 6 * 3600;
/**
 * D1 bookmarks are dash-separated hex fields (e.g. 0000000b-00000004-00004f9e-e13b…); anything else in the cookie
 * is ignored (a forged value must not reach D1 as a session anchor).
 */
const BOOKMARK = /^[0-9a-f]{8}(-[0-9a-f]{8}){2}-[0-9a-f]{16,64}$/i;
const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export type D1SessionStart = D1SessionConstraint | D1SessionBookmark;

/** The binding a request uses: D1Database's surface over one session (exec and dump stay on the primary). */
class SessionDatabase {
  /** A later bookmark learnt outside this session (a room's write), merged into the cookie. */
  laterBookmark: string | null = null;

  constructor(
    readonly primary: D1Database,
    readonly session: D1DatabaseSession,
    readonly start: D1SessionStart,
  ) {}

  prepare(query: string) {
    return this.session.prepare(query);
  }
  batch<T = unknown>(statements: D1PreparedStatement[]) {
    return this.session.batch<T>(statements);
  }
  exec(query: string) {
    return this.primary.exec(query);
  }
  withSession(constraintOrBookmark?: D1SessionStart) {
    return this.primary.withSession(constraintOrBookmark);
  }
  dump() {
    return this.primary.dump();
  }
  /** The latest of the session's bookmark and any later one learnt meanwhile (bookmarks sort by time). */
  bookmark(): string | null {
    const own = this.session.getBookmark();
    if (!own) return this.laterBookmark;
    return this.laterBookmark && this.laterBookmark > own ? this.laterBookmark : own;
  }
}

function cookieValue(request: Request, name: string): string | null {
  for (const part of (request.headers.get("Cookie") ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=");
  }
  return null;
}

/** The bookmark a request carries, when it is well formed. */
export function requestBookmark(request: Request): string | null {
  const raw = cookieValue(request, D1_BOOKMARK_COOKIE);
  return raw && BOOKMARK.test(raw) ? raw : null;
}

/** Where a request's session starts: the primary for a write, else the student's bookmark, else anywhere. */
export function sessionStart(request: Request): D1SessionStart {
  if (!READ_METHODS.has(request.method.toUpperCase())) return "first-primary";
  return requestBookmark(request) ?? "first-unconstrained";
}

export type ReadSession = {
  /** The Worker's environment with DB = this request's session. */
  env: Env;
  /** How the session started (a constraint or the cookie's bookmark). */
  start: D1SessionStart;
  /** The latest bookmark seen by the session (null before its first query). */
  bookmark: () => string | null;
  /** The response with the session's latest bookmark in the cookie (unchanged when there is nothing new). */
  withBookmark: (request: Request, response: Response) => Response;
};

/** Opens the request's D1 session. A binding without the Sessions API (an old runtime) is used as it is. */
export function openReadSession(request: Request, env: Env): ReadSession {
  const start = sessionStart(request);
  if (typeof env.DB.withSession !== "function") {
    return { env, start, bookmark: () => null, withBookmark: (_request, response) => response };
  }
  const db = new SessionDatabase(env.DB, env.DB.withSession(start), start);
  const sessionEnv: Env = { ...env, DB: db as unknown as D1Database };
  return {
    env: sessionEnv,
    start,
    bookmark: () => db.bookmark(),
    withBookmark: (req, response) => withBookmarkCookie(req, response, db.bookmark()),
  };
}

function isLocalHost(request: Request): boolean {
  const host = new URL(request.url).hostname;
  return host === "localhost" || host === "127.0.0.1" || host === "[::1]";
}

export function bookmarkCookie(request: Request, bookmark: string): string {
  const secure = isLocalHost(request) ? "" : "; Secure";
  return `${D1_BOOKMARK_COOKIE}=${bookmark}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${BOOKMARK_MAX_AGE_S}${secure}`;
}

/**
 * Sets the cookie when the session moved past the request's bookmark. Only for a student who has a session
 * cookie (or gets one now): an anonymous visitor has no writes of their own to read back. Never on a socket.
 */
export function withBookmarkCookie(request: Request, response: Response, bookmark: string | null): Response {
  if (!bookmark || response.status === 101 || response.webSocket) return response;
  const before = requestBookmark(request);
  if (before && before >= bookmark) return response;
  const signedIn =
    cookieValue(request, SESSION_COOKIE) !== null ||
    response.headers.getSetCookie().some((c) => c.startsWith(`${SESSION_COOKIE}=`) && !/Max-Age=0/i.test(c));
  if (!signedIn) return response;
  const out = new Response(response.body, response);
  out.headers.append("Set-Cookie", bookmarkCookie(request, bookmark));
  return out;
}

/**
 * After a write made elsewhere (a room graded on the primary through its own binding): one tiny query on the
 * primary gives a bookmark at least as recent as that write, and the request's cookie carries it. A no-op with a
 * plain binding (tests, the rooms).
 */
export async function catchUpWithPrimary(env: Env): Promise<void> {
  const db = env.DB as unknown as SessionDatabase | D1Database;
  if (!(db instanceof SessionDatabase)) return;
  const fresh = db.primary.withSession("first-primary");
  await fresh.prepare("SELECT 1").first();
  const bookmark = fresh.getBookmark();
  if (bookmark && (!db.laterBookmark || bookmark > db.laterBookmark)) db.laterBookmark = bookmark;
}
