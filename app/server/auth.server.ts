// Sign-in: Google ID tokens verified against Google's JWKS (URL configurable, so tests and dev never
// reach the internet), and a development sign-in that exists only when DEV_LOGIN=1.
import { eq } from "drizzle-orm";
import { createRemoteJWKSet, decodeProtectedHeader, errors as joseErrors, jwtVerify, type JWTPayload } from "jose";
import { getDb } from "./db/client.server";
import { loginEvents, users, type User } from "./db/schema";
import { HttpError } from "./errors.server";
import { createSession, effectiveRole } from "./session.server";

export const DEFAULT_GOOGLE_JWKS_URL = "https://www.googleapis.com/oauth2/v3/certs";
const GOOGLE_ISSUERS = ["accounts.google.com", "https://accounts.google.com"];

export type Identity = {
  email: string;
  name: string;
  firstName: string | null;
  lastName: string | null;
  avatarUrl: string | null;
  googleSub: string | null;
};

/** The user as the login response and GET /api/me describe it (spec section 3). */
export type PublicUser = {
  id: number;
  avatarUrl: string | null;
  firstName: string | null;
  lastName: string | null;
  email: string;
  phone: string | null;
  name: string;
  username: string | null;
  booked: boolean;
  role: User["role"];
  isAdmin: boolean;
  status: User["status"];
};

export function publicUser(user: User, env: Env): PublicUser {
  const role = effectiveRole(user, env);
  return {
    id: user.id,
    avatarUrl: user.avatarUrl,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    phone: user.phone,
    name: user.name,
    username: user.username,
    booked: user.booked,
    role,
    isAdmin: role === "admin",
    status: user.status,
  };
}

const jwksCache = new Map<string, ReturnType<typeof createRemoteJWKSet>>();
function googleJwks(env: Env) {
  const url = env.GOOGLE_JWKS_URL || DEFAULT_GOOGLE_JWKS_URL;
  let jwks = jwksCache.get(url);
  if (!jwks) {
    jwks = createRemoteJWKSet(new URL(url), { timeoutDuration: 5000, cooldownDuration: 30_000 });
    jwksCache.set(url, jwks);
  }
  return jwks;
}

const INVALID_TOKEN = "Accesso con Google non riuscito: il token non è valido. Riprova ad accedere.";

export async function verifyGoogleCredential(credential: string, env: Env): Promise<Identity> {
  try {
    decodeProtectedHeader(credential);
  } catch {
    throw new HttpError(401, INVALID_TOKEN); // not even a JWT: no need to ask anyone
  }
  const audience = env.GOOGLE_CLIENT_ID;
  if (!audience) throw new HttpError(503, "L'accesso con Google non è configurato su questo server.");
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(credential, googleJwks(env), { issuer: GOOGLE_ISSUERS, audience }));
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) {
      throw new HttpError(401, "Il token di Google è scaduto: accedi di nuovo.");
    }
    if (
      error instanceof joseErrors.JWKSTimeout ||
      (error instanceof TypeError && !(error instanceof joseErrors.JOSEError)) ||
      error instanceof joseErrors.JWKSInvalid
    ) {
      console.error("Google JWKS unavailable", error);
      throw new HttpError(503, "Il servizio di accesso Google non è raggiungibile. Riprova tra poco.");
    }
    throw new HttpError(401, INVALID_TOKEN);
  }
  const email = typeof payload.email === "string" ? payload.email.trim().toLowerCase() : "";
  const verified = payload.email_verified === true || payload.email_verified === "true";
  if (!email) throw new HttpError(401, INVALID_TOKEN);
  if (!verified) throw new HttpError(401, "L'indirizzo email di questo account Google non è verificato.");
  const str = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : null);
  const firstName = str(payload.given_name);
  const lastName = str(payload.family_name);
  return {
    email,
    name: str(payload.name) ?? ([firstName, lastName].filter(Boolean).join(" ") || email.split("@")[0]!),
    firstName,
    lastName,
    avatarUrl: str(payload.picture),
    googleSub: str(payload.sub),
  };
}

export type SignInResult = { token: string; user: PublicUser };

/**
 * A free username for a new account: the email's local part and four digits. Two people with the
 * same local part (mario@gmail.com, mario@studenti.unipd.it) must not collide on the unique index,
 * so taken candidates are skipped; after a few misses the suffix grows to six digits.
 */
async function freeUsername(db: ReturnType<typeof getDb>, email: string): Promise<string> {
  const base =
    email
      .split("@")[0]!
      .toLowerCase()
      .replace(/[^a-z0-9._]/g, "")
      .slice(0, 20) || "studente";
  for (let attempt = 0; ; attempt++) {
    const digits = attempt < 5 ? 1000 + Math.floor(Math.random() * 9000) : 100000 + Math.floor(Math.random() * 900000);
    const candidate = `${base}${digits}`;
    const taken = await db.select({ id: users.id }).from(users).where(eq(users.username, candidate)).get();
    if (!taken) return candidate;
  }
}

/**
 * Creates or updates the user behind a verified identity, records the login and opens a session.
 * A suspended user gets 423 with the reason, and no session and no login event are written.
 */
export async function signIn(
  env: Env,
  identity: Identity,
  method: "google" | "dev",
  now = Date.now(),
  userAgent: string | null = null,
): Promise<SignInResult> {
  const db = getDb(env.DB);
  const existing = await db.select().from(users).where(eq(users.email, identity.email)).get();
  if (existing?.status === "sospeso") {
    throw new HttpError(423, "Account sospeso", { reason: existing.suspensionReason ?? "" });
  }
  let user: User;
  const isNewUser = !existing;
  if (existing) {
    const patch: Partial<User> = { lastLogin: new Date(now) };
    if (method === "google") {
      patch.name = existing.name || identity.name;
      patch.firstName = existing.firstName ?? identity.firstName;
      patch.lastName = existing.lastName ?? identity.lastName;
      patch.avatarUrl = identity.avatarUrl ?? existing.avatarUrl;
      patch.googleSub = existing.googleSub ?? identity.googleSub;
      patch.verified = true;
    }
    user = (await db.update(users).set(patch).where(eq(users.id, existing.id)).returning().get())!;
  } else {
    if (method !== "google") throw new HttpError(404, "Nessun utente con questa email.");
    user = (await db
      .insert(users)
      .values({
        email: identity.email,
        name: identity.name,
        firstName: identity.firstName,
        lastName: identity.lastName,
        avatarUrl: identity.avatarUrl,
        googleSub: identity.googleSub,
        username: await freeUsername(db, identity.email),
        verified: true,
        createdAt: new Date(now),
        lastLogin: new Date(now),
      })
      .returning()
      .get())!;
  }
  await db.insert(loginEvents).values({ userId: user.id, at: new Date(now), isNewUser, method });
  const token = await createSession(env, user.id, now, userAgent);
  return { token, user: publicUser(user, env) };
}

export async function devSignIn(env: Env, email: string, userAgent: string | null = null): Promise<SignInResult> {
  const normalized = email.trim().toLowerCase();
  const existing = await getDb(env.DB).select().from(users).where(eq(users.email, normalized)).get();
  if (!existing) throw new HttpError(404, "Nessun utente con questa email.");
  return signIn(
    env,
    {
      email: normalized,
      name: existing.name,
      firstName: existing.firstName,
      lastName: existing.lastName,
      avatarUrl: existing.avatarUrl,
      googleSub: null,
    },
    "dev",
    Date.now(),
    userAgent,
  );
}

export function devLoginEnabled(env: Env): boolean {
  return env.DEV_LOGIN === "1";
}
