// Sessions: a row in `sessions`, named by a token (HS256 JWT carrying the session id) that travels
// as the HttpOnly cookie for the web app or as `Authorization: Bearer` for API clients.
import { and, eq, gt } from "drizzle-orm";
import { jwtVerify, SignJWT } from "jose";
import { SESSION_COOKIE, SESSION_TTL_MS } from "~/lib/constants";
import { getDb } from "./db/client.server";
import { sessions, users, type Role, type User } from "./db/schema";
import { HttpError } from "./errors.server";

export type SessionUser = User & { sessionId: string; effectiveRole: Role };

const encoder = new TextEncoder();

function secretKey(env: Env): Uint8Array {
  const secret = env.SESSION_SECRET;
  if (!secret || secret.length < 16) {
    // A deployment without a secret must not hand out forgeable sessions.
    throw new Error("SESSION_SECRET is missing or shorter than 16 characters");
  }
  return encoder.encode(secret);
}

export async function createSession(env: Env, userId: number, now = Date.now()): Promise<string> {
  const id = crypto.randomUUID();
  const expiresAt = now + SESSION_TTL_MS;
  await getDb(env.DB).insert(sessions).values({ id, userId, createdAt: new Date(now), expiresAt: new Date(expiresAt) });
  return new SignJWT({ sid: id })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(String(userId))
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor(expiresAt / 1000))
    .sign(secretKey(env));
}

export async function destroySession(env: Env, sessionId: string): Promise<void> {
  await getDb(env.DB).delete(sessions).where(eq(sessions.id, sessionId));
}

/** The token from `Authorization: Bearer` (API clients) or else from the session cookie. */
export function readToken(request: Request): string | null {
  const auth = request.headers.get("Authorization");
  if (auth?.toLowerCase().startsWith("bearer ")) return auth.slice(7).trim() || null;
  const cookie = request.headers.get("Cookie");
  if (!cookie) return null;
  for (const part of cookie.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === SESSION_COOKIE) return decodeURIComponent(rest.join("=")) || null;
  }
  return null;
}

export function effectiveRole(user: Pick<User, "role" | "email">, env: Env): Role {
  const owner = env.OWNER_EMAIL?.trim().toLowerCase();
  if (owner && user.email.toLowerCase() === owner) return "admin";
  return user.role;
}

/** Resolves the session's user, or null when there is no valid, unexpired session. */
export async function getSessionUser(request: Request, env: Env): Promise<SessionUser | null> {
  const token = readToken(request);
  if (!token) return null;
  let sid: string;
  try {
    const { payload } = await jwtVerify(token, secretKey(env), { algorithms: ["HS256"] });
    if (typeof payload.sid !== "string") return null;
    sid = payload.sid;
  } catch {
    return null;
  }
  const row = await getDb(env.DB)
    .select({ user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, sid), gt(sessions.expiresAt, new Date())))
    .get();
  if (!row) return null;
  return { ...row.user, sessionId: sid, effectiveRole: effectiveRole(row.user, env) };
}

/** Who may call a route: anyone, any signed-in user, staff (moderator or admin), or admins only. */
export type Access = "public" | "user" | "staff" | "admin";

const ALLOWED: Record<Exclude<Access, "public">, readonly Role[]> = {
  user: ["studente", "moderator", "admin"],
  staff: ["moderator", "admin"],
  admin: ["admin"],
};

export const SUSPENDED_MESSAGE = "Account sospeso";

/**
 * The one guard every loader, action and API route goes through:
 * no session → 401, suspended → 423 with the reason, wrong role → 403.
 * The user row is read on every call, so a suspension takes effect at the very next request.
 */
export async function requireUser(request: Request, env: Env, access: Exclude<Access, "public">): Promise<SessionUser> {
  return checkAccess(await getSessionUser(request, env), access);
}

/** requireUser's rules applied to a user already read (or null when there is no session). */
export function checkAccess(user: SessionUser | null, access: Exclude<Access, "public">): SessionUser {
  if (!user) throw new HttpError(401, "Sessione scaduta o assente: accedi di nuovo.");
  if (user.status === "sospeso") {
    throw new HttpError(423, SUSPENDED_MESSAGE, { reason: user.suspensionReason ?? "" });
  }
  if (!ALLOWED[access].includes(user.effectiveRole)) {
    throw new HttpError(403, "Non hai i permessi per questa operazione.");
  }
  return user;
}

function isLocalHost(request: Request): boolean {
  const host = new URL(request.url).hostname;
  return host === "localhost" || host === "127.0.0.1" || host === "[::1]";
}

export function sessionCookie(request: Request, token: string): string {
  const secure = isLocalHost(request) ? "" : "; Secure";
  return `${SESSION_COOKIE}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${Math.floor(SESSION_TTL_MS / 1000)}${secure}`;
}

export function clearSessionCookie(request: Request): string {
  const secure = isLocalHost(request) ? "" : "; Secure";
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure}`;
}
