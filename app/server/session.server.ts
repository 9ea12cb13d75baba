// Sessions: a row in `sessions`, named by a token (HS256 JWT carrying the session id) that travels
// as the HttpOnly cookie for the web app or as `Authorization: Bearer` for API clients.
import { and, desc, eq, gt } from "drizzle-orm";
import { type JWTPayload, jwtVerify, SignJWT } from "jose";
import { ACCESS_ROLES, type Access, type RoleName } from "~/lib/access";
import { SESSION_COOKIE, SESSION_MAX_AGE_MS, SESSION_TOUCH_MS, SESSION_TTL_MS } from "~/lib/constants";
import { getDb, type Db } from "./db/client.server";
import { sessions, users, type Role, type User } from "./db/schema";
import { HttpError } from "./errors.server";
import { MIN_SECRET_LENGTH, signingKey, verifyingKeys } from "./keys.server";

export type SessionUser = User & { sessionId: string; effectiveRole: Role };

/**
 * Per isolate and per secret (issue 31: the session lookup was 14 % of a national day's CPU): the payloads of the
 * tokens verified lately (the keys themselves are derived once per isolate, app/server/keys.server.ts). A token is
 * immutable and its signature checked once; its expiry is checked again at every use, and the session row
 * (revocation, the sliding end, the user's status) is read on every request as before.
 */
type Signer = { verified: Map<string, JWTPayload> };
const signers = new Map<string, Signer>();
/** Tokens remembered per secret: a national day's audience in one isolate (about 400 bytes each: ~3 MB at most). */
const VERIFIED_TOKENS_KEPT = 8192;

function signerOf(env: Env): Signer {
  const secret = env.SESSION_SECRET;
  if (!secret || secret.length < MIN_SECRET_LENGTH) {
    // A deployment without a secret must not hand out forgeable sessions.
    throw new Error("SESSION_SECRET is missing or shorter than 32 characters");
  }
  // What verifies depends on both secrets while rotating (SESSION_SECRET_PREVIOUS).
  const id = `${secret}\n${env.SESSION_SECRET_PREVIOUS ?? ""}`;
  let signer = signers.get(id);
  if (!signer) {
    // A test may run with another secret; a deployment has one (two while rotating).
    if (signers.size >= 4) signers.clear();
    signer = { verified: new Map() };
    signers.set(id, signer);
  }
  return signer;
}

/**
 * The payload of a token signed with the session key (of the current master secret, or of the previous one while
 * rotating) whose outer expiry has not passed, or null. jose verifies a token the first time it is seen; later uses
 * of the same token only check the expiry again (as jose does: `exp` in seconds).
 */
async function verifiedPayload(token: string, env: Env): Promise<JWTPayload | null> {
  let signer: Signer;
  try {
    signer = signerOf(env);
  } catch {
    return null; // no usable secret: nobody is signed in (createSession refuses to sign)
  }
  const known = signer.verified.get(token);
  if (known) {
    if (typeof known.exp === "number" && known.exp <= Math.floor(Date.now() / 1000)) {
      signer.verified.delete(token);
      return null;
    }
    return known;
  }
  for (const key of await verifyingKeys(env, "session")) {
    try {
      const { payload } = await jwtVerify(token, key, { algorithms: ["HS256"] });
      signer.verified.set(token, payload);
      if (signer.verified.size > VERIFIED_TOKENS_KEPT) signer.verified.delete(signer.verified.keys().next().value!);
      return payload;
    } catch {
      // not this key's (or expired, malformed): the next key, then null
    }
  }
  return null;
}

/**
 * Opens a session. The row decides how long it lives: 30 days after its last use (getSessionUser slides it). The
 * token and the cookie carry the outer bound only (400 days), so a session in use never ends under its user.
 */
export async function createSession(
  env: Env,
  userId: number,
  now = Date.now(),
  userAgent: string | null = null,
): Promise<string> {
  const id = crypto.randomUUID();
  await getDb(env.DB)
    .insert(sessions)
    .values({
      id,
      userId,
      createdAt: new Date(now),
      expiresAt: new Date(now + SESSION_TTL_MS),
      lastUsedAt: new Date(now),
      userAgent: userAgent?.slice(0, 400) || null,
    });
  return new SignJWT({ sid: id })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(String(userId))
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor((now + SESSION_MAX_AGE_MS) / 1000))
    .sign(await signingKey(env, "session"));
}

export async function destroySession(env: Env, sessionId: string): Promise<void> {
  await getDb(env.DB).delete(sessions).where(eq(sessions.id, sessionId));
}

/** Ends every session of a user ("Esci da tutti i dispositivi", a role change, a suspension). */
export function endAllSessions(db: Db, userId: number) {
  return db.delete(sessions).where(eq(sessions.userId, userId));
}

export type ActiveSession = { current: boolean; createdAt: string; lastUsedAt: string; userAgent: string | null };

/** The user's sessions that have not expired, most recently used first. */
export async function listSessions(
  db: Db,
  user: Pick<SessionUser, "id" | "sessionId">,
  now = Date.now(),
): Promise<ActiveSession[]> {
  const rows = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, user.id), gt(sessions.expiresAt, new Date(now))))
    .orderBy(desc(sessions.lastUsedAt), desc(sessions.createdAt));
  return rows.map((s) => ({
    current: s.id === user.sessionId,
    createdAt: s.createdAt.toISOString(),
    lastUsedAt: (s.lastUsedAt ?? s.createdAt).toISOString(),
    userAgent: s.userAgent,
  }));
}

/** The token from `Authorization: Bearer` (API clients) or else from the session cookie. */
export function readToken(request: Request): string | null {
  const auth = request.headers.get("Authorization");
  if (auth?.toLowerCase().startsWith("bearer ")) return auth.slice(7).trim() || null;
  const raw = rawSessionCookie(request);
  return raw == null ? null : decodeCookieValue(raw);
}

/** The session cookie's value as sent (still percent-encoded), or null without one. */
function rawSessionCookie(request: Request): string | null {
  const cookie = request.headers.get("Cookie");
  if (!cookie) return null;
  for (const part of cookie.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === SESSION_COOKIE) return rest.join("=");
  }
  return null;
}

/** A value that is not valid percent-encoding (`%`, `%E0%A4%A`) names no session: null, never a thrown URIError. */
function decodeCookieValue(raw: string): string | null {
  try {
    return decodeURIComponent(raw) || null;
  } catch {
    return null;
  }
}

/** Whether a token carries our signature and has not passed its outer expiry (the session row is not read). */
async function signedByUs(token: string, env: Env): Promise<boolean> {
  return (await verifiedPayload(token, env)) != null;
}

/**
 * A session cookie that can never name a session (not percent-encoding, or not a token we signed) belongs to a
 * signed-out visitor (issue 28: `unicum_session=%` answered 500). Every answer to such a request expires it, so the
 * browser stops sending it, unless the answer sets the cookie itself (a sign-in, a sign-out). A WebSocket handshake
 * is left as it is. Applied by the Worker entry (workers/app.ts) to every answer.
 */
export async function withUnusableSessionCleared(request: Request, response: Response, env: Env): Promise<Response> {
  if (response.status === 101 || response.webSocket) return response;
  const raw = rawSessionCookie(request);
  if (!raw) return response; // none, or already cleared
  const token = decodeCookieValue(raw);
  if (token && (await signedByUs(token, env))) return response;
  if (response.headers.getSetCookie().some((c) => c.startsWith(`${SESSION_COOKIE}=`))) return response;
  const cleared = new Response(response.body, response);
  cleared.headers.append("Set-Cookie", clearSessionCookie(request));
  return cleared;
}

export function effectiveRole(user: Pick<User, "role" | "email">, env: Env): Role {
  const owner = env.OWNER_EMAIL?.trim().toLowerCase();
  if (owner && user.email.toLowerCase() === owner) return "admin";
  return user.role;
}

/**
 * The user id a request's token names, checked by its signature only (no database read): enough to key a rate
 * limit, never to authorize (requireUser does that, with the session row and the user's status).
 */
export async function tokenUserId(request: Request, env: Env): Promise<number | null> {
  const token = readToken(request);
  if (!token) return null;
  const payload = await verifiedPayload(token, env);
  const id = Number(payload?.sub);
  return Number.isInteger(id) && id > 0 ? id : null;
}

/** Resolves the session's user, or null when there is no valid, unexpired session. */
export async function getSessionUser(request: Request, env: Env): Promise<SessionUser | null> {
  const token = readToken(request);
  if (!token) return null;
  const payload = await verifiedPayload(token, env);
  if (typeof payload?.sid !== "string") return null;
  const sid = payload.sid;
  const db = getDb(env.DB);
  const now = Date.now();
  const row = await db
    .select({ user: users, lastUsedAt: sessions.lastUsedAt, createdAt: sessions.createdAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, sid), gt(sessions.expiresAt, new Date(now))))
    .get();
  if (!row) return null;
  // Sliding expiry: each use (recorded every few minutes at most) pushes the end to 30 days later.
  if (now - (row.lastUsedAt ?? row.createdAt).getTime() >= SESSION_TOUCH_MS) {
    await db
      .update(sessions)
      .set({ lastUsedAt: new Date(now), expiresAt: new Date(now + SESSION_TTL_MS) })
      .where(eq(sessions.id, sid));
  }
  return { ...row.user, sessionId: sid, effectiveRole: effectiveRole(row.user, env) };
}

// The role sets live in app/lib/access.ts (the side navigation reads them too); re-exported for the server's callers.
export { ACCESS_ROLES, type Access };
// The lib's role names and the schema's roles are the same set (a compile error otherwise).
const _sameRoles: [Role, RoleName] extends [RoleName, Role] ? true : never = true;
void _sameRoles;
const ALLOWED: Record<Exclude<Access, "public">, readonly Role[]> = ACCESS_ROLES;

export const SUSPENDED_MESSAGE = "Account sospeso";

/**
 * The one guard every loader, action and API route goes through:
 * no session → 401, suspended → 423 with the reason, wrong role → 403.
 * The user row is read on every call, so a suspension takes effect at the very next request.
 */
export async function requireUser(request: Request, env: Env, access: Exclude<Access, "public">): Promise<SessionUser> {
  return checkAccess(await getSessionUser(request, env), access, request, env);
}

/** requireUser's rules applied to a user already read (or null when there is no session). */
export async function checkAccess(
  user: SessionUser | null,
  access: Exclude<Access, "public">,
  request: Request,
  env: Env,
): Promise<SessionUser> {
  if (!user) {
    await refuseSuspendedHolder(request, env);
    throw new HttpError(401, "Sessione scaduta o assente: accedi di nuovo.");
  }
  if (user.status === "sospeso") {
    throw new HttpError(423, SUSPENDED_MESSAGE, { reason: user.suspensionReason ?? "" });
  }
  if (!ALLOWED[access].includes(user.effectiveRole)) {
    throw new HttpError(403, "Non hai i permessi per questa operazione.");
  }
  return user;
}

/**
 * A suspension ends the user's sessions, but their next click must still say why (spec: the 'Account sospeso'
 * overlay with the reason). A token whose session is gone, still signed by us for a suspended user: 423.
 */
async function refuseSuspendedHolder(request: Request, env: Env): Promise<void> {
  const userId = await tokenUserId(request, env);
  if (!userId) return;
  const user = await getDb(env.DB)
    .select({ status: users.status, reason: users.suspensionReason })
    .from(users)
    .where(eq(users.id, userId))
    .get();
  if (user?.status === "sospeso") throw new HttpError(423, SUSPENDED_MESSAGE, { reason: user.reason ?? "" });
}

function isLocalHost(request: Request): boolean {
  const host = new URL(request.url).hostname;
  return host === "localhost" || host === "127.0.0.1" || host === "[::1]";
}

export function sessionCookie(request: Request, token: string): string {
  const secure = isLocalHost(request) ? "" : "; Secure";
  return `${SESSION_COOKIE}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${Math.floor(SESSION_MAX_AGE_MS / 1000)}${secure}`;
}

export function clearSessionCookie(request: Request): string {
  const secure = isLocalHost(request) ? "" : "; Secure";
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure}`;
}
