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
// The cookie is signed (issue 44): a bookmark is a promise that D1 is at least that far along, and a forged one (far in
// the future, or one D1 refuses) pinned every read of the request, and of the next six hours, to it. Only a bookmark
// this server received from D1 and signed is used; anything else, and a bookmark D1 refuses at the session's first
// query, falls back to "first-unconstrained" and the answer expires the cookie.
import { SESSION_COOKIE } from "~/lib/constants";
import { type MasterSecrets, signingKey, verifyingKeys } from "../keys.server";

/** The cookie that carries the student's latest D1 bookmark between requests. */
export const D1_BOOKMARK_COOKIE = "unicum_d1";
/** Long enough to span a sitting and its results; a stale bookmark only costs a read on a fresher replica. */
const BOOKMARK_MAX_AGE_S = 6 * 3600;
/**
 * D1 bookmarks are dash-separated hex fields (e.g. 0000000b-00000004-00004f9e-e13b…); the cookie carries one and its
 * MAC (`<bookmark>.<base64url HMAC-SHA-256, 128 bits>`, the key of keys.server.ts's d1Bookmark purpose).
 */
const BOOKMARK = /^[0-9a-f]{8}(-[0-9a-f]{8}){2}-[0-9a-f]{16,64}$/i;
const SIGNED_BOOKMARK = /^([0-9a-f-]{43,91})\.([A-Za-z0-9_-]{22})$/i;
const MAC_BYTES = 16;
const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export type D1SessionStart = D1SessionConstraint | D1SessionBookmark;

const CONSTRAINTS = new Set<string>(["first-primary", "first-unconstrained"]);
/** D1's message for an error of the statement itself ("D1_ERROR: no such table: x: SQLITE_ERROR"). */
const SQLITE_ERROR = /SQLITE_[A-Z]+/;

/** A statement of the session's first round: run through SessionDatabase.firstTry, so a refused bookmark is retried. */
class FirstRoundStatement {
  constructor(
    readonly db: SessionDatabase,
    readonly sql: string,
    readonly params: unknown[] = [],
  ) {}

  /** The same statement on a session (the current one when a batch takes it). */
  on(session: D1DatabaseSession): D1PreparedStatement {
    const statement = session.prepare(this.sql);
    return this.params.length ? statement.bind(...this.params) : statement;
  }
  bind(...values: unknown[]) {
    return new FirstRoundStatement(this.db, this.sql, values);
  }
  first<T>(column?: string): Promise<T | null> {
    return this.db.firstTry((s) => (column === undefined ? this.on(s).first<T>() : this.on(s).first<T>(column)));
  }
  run<T>() {
    return this.db.firstTry((s) => this.on(s).run<T>());
  }
  all<T>() {
    return this.db.firstTry((s) => this.on(s).all<T>());
  }
  raw<T = unknown[]>(options?: { columnNames?: boolean }): Promise<T[]> {
    return this.db.firstTry((s) =>
      options?.columnNames ? (this.on(s).raw<T>({ columnNames: true }) as Promise<T[]>) : this.on(s).raw<T>(),
    );
  }
}

/** The binding a request uses: D1Database's surface over one session (exec and dump stay on the primary). */
class SessionDatabase {
  /** A later bookmark learnt outside this session (a room's write), merged into the cookie. */
  laterBookmark: string | null = null;
  session: D1DatabaseSession;
  /** Whether a query has answered in this session (then its start is settled, refused or not). */
  private settled: boolean;

  constructor(
    readonly primary: D1Database,
    readonly start: D1SessionStart,
    /** The request's bookmark cookie was refused (unsigned, malformed) or, at the first query, by D1. */
    public refused: boolean,
  ) {
    this.session = primary.withSession(start);
    // Only a start from a bookmark can be refused by D1.
    this.settled = CONSTRAINTS.has(start);
  }

  /**
   * Runs one of the first round's queries. When it fails in a session that started from the cookie's bookmark and
   * nothing has answered yet, D1 may have refused the bookmark: the session starts again unconstrained, the cookie is
   * to be expired, and the query runs once more. An SQLite error is the query's own (D1 took the bookmark to run it):
   * it is thrown as it is.
   */
  async firstTry<T>(run: (session: D1DatabaseSession) => Promise<T>): Promise<T> {
    const session = this.session;
    try {
      const result = await run(session);
      this.settled = true;
      return result;
    } catch (error) {
      if (session === this.session) {
        if (SQLITE_ERROR.test(String(error))) this.settled = true;
        if (this.settled) throw error;
        console.warn("D1 session: the bookmark was refused, reading unconstrained instead", error);
        this.session = this.primary.withSession("first-unconstrained");
        this.refused = true;
        this.settled = true;
      }
      return run(this.session);
    }
  }

  prepare(query: string): D1PreparedStatement {
    if (this.settled) return this.session.prepare(query);
    return new FirstRoundStatement(this, query) as unknown as D1PreparedStatement;
  }
  batch<T = unknown>(statements: D1PreparedStatement[]) {
    const real = (session: D1DatabaseSession) =>
      statements.map((s) => (s instanceof FirstRoundStatement ? s.on(session) : s));
    if (this.settled) return this.session.batch<T>(real(this.session));
    return this.firstTry((session) => session.batch<T>(real(session)));
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

const encoder = new TextEncoder();

function toBase64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

async function macOf(key: CryptoKey, bookmark: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(bookmark))).slice(0, MAC_BYTES);
}

/** The cookie's value for a bookmark: the bookmark and its MAC under the current master secret. */
export async function signedBookmark(secrets: MasterSecrets, bookmark: string): Promise<string> {
  return `${bookmark}.${toBase64Url(await macOf(await signingKey(secrets, "d1Bookmark"), bookmark))}`;
}

/** What a request's bookmark cookie says: the bookmark this server signed, or whether there was one it refuses. */
export type CookieBookmark = { bookmark: string | null; refused: boolean };

/**
 * The bookmark of the request's cookie, when this server signed it (under the current master secret or the previous
 * one). A cookie that is there but malformed, unsigned or signed by someone else is refused: its bookmark never
 * reaches D1.
 */
export async function requestBookmark(request: Request, secrets: MasterSecrets): Promise<CookieBookmark> {
  const raw = cookieValue(request, D1_BOOKMARK_COOKIE);
  if (raw === null || raw === "") return { bookmark: null, refused: false };
  const parts = SIGNED_BOOKMARK.exec(raw);
  if (!parts || !BOOKMARK.test(parts[1]!)) return { bookmark: null, refused: true };
  const [, bookmark, mac] = parts as unknown as [string, string, string];
  const given = fromBase64Url(mac);
  for (const key of await verifyingKeys(secrets, "d1Bookmark")) {
    const expected = await macOf(key, bookmark);
    // Compared in full (a forger learns nothing from how soon it differs).
    let diff = given.length ^ expected.length;
    for (let i = 0; i < expected.length; i++) diff |= expected[i]! ^ (given[i] ?? 0);
    if (diff === 0) return { bookmark, refused: false };
  }
  return { bookmark: null, refused: true };
}

/** Where a request's session starts: the primary for a write, else the student's signed bookmark, else anywhere. */
export function sessionStart(request: Request, cookie: CookieBookmark): D1SessionStart {
  if (!READ_METHODS.has(request.method.toUpperCase())) return "first-primary";
  return cookie.bookmark ?? "first-unconstrained";
}

export type ReadSession = {
  /** The Worker's environment with DB = this request's session. */
  env: Env;
  /** How the session started (a constraint or the cookie's bookmark). */
  start: D1SessionStart;
  /** The latest bookmark seen by the session (null before its first query). */
  bookmark: () => string | null;
  /**
   * The response with the session's latest bookmark in the cookie (unchanged when there is nothing new), or with the
   * cookie expired when its bookmark was refused (by its signature, or by D1).
   */
  withBookmark: (request: Request, response: Response) => Promise<Response>;
};

/** Opens the request's D1 session. A binding without the Sessions API (an old runtime) is used as it is. */
export async function openReadSession(request: Request, env: Env): Promise<ReadSession> {
  const cookie = await requestBookmark(request, env);
  const start = sessionStart(request, cookie);
  if (typeof env.DB.withSession !== "function") {
    return { env, start, bookmark: () => null, withBookmark: async (_request, response) => response };
  }
  const db = new SessionDatabase(env.DB, start, cookie.refused);
  const sessionEnv: Env = { ...env, DB: db as unknown as D1Database };
  return {
    env: sessionEnv,
    start,
    bookmark: () => db.bookmark(),
    withBookmark: (req, response) =>
      db.refused
        ? Promise.resolve(withBookmarkExpired(req, response))
        : withBookmarkCookie(req, response, db.bookmark(), cookie.bookmark, env),
  };
}

function isLocalHost(request: Request): boolean {
  const host = new URL(request.url).hostname;
  return host === "localhost" || host === "127.0.0.1" || host === "[::1]";
}

/** The Set-Cookie of a (signed) cookie value; Max-Age 0 expires it. */
export function bookmarkCookie(request: Request, value: string, maxAge = BOOKMARK_MAX_AGE_S): string {
  const secure = isLocalHost(request) ? "" : "; Secure";
  return `${D1_BOOKMARK_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`;
}

/** The response with the bookmark cookie expired (a refused one: the next request starts anywhere and gets a new one). */
export function withBookmarkExpired(request: Request, response: Response): Response {
  if (response.status === 101 || response.webSocket) return response;
  const out = new Response(response.body, response);
  out.headers.append("Set-Cookie", bookmarkCookie(request, "", 0));
  return out;
}

/**
 * Sets the cookie when the session moved past the request's bookmark. Only for a student who has a session
 * cookie (or gets one now): an anonymous visitor has no writes of their own to read back. Never on a socket.
 */
export async function withBookmarkCookie(
  request: Request,
  response: Response,
  bookmark: string | null,
  before: string | null,
  secrets: MasterSecrets,
): Promise<Response> {
  if (!bookmark || response.status === 101 || response.webSocket) return response;
  if (before && before >= bookmark) return response;
  const signedIn =
    cookieValue(request, SESSION_COOKIE) !== null ||
    response.headers.getSetCookie().some((c) => c.startsWith(`${SESSION_COOKIE}=`) && !/Max-Age=0/i.test(c));
  if (!signedIn) return response;
  const out = new Response(response.body, response);
  out.headers.append("Set-Cookie", bookmarkCookie(request, await signedBookmark(secrets, bookmark)));
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
