// One master secret, one key per purpose (issue 44). SESSION_SECRET is never a key itself: every key the Worker and the
// rooms use is derived from it with HKDF-SHA-256 under a label of its own, so a value made for one purpose (a session
// token, a room's resume token, a sealed copy's key, a D1 bookmark cookie) can never pass for another, and one more
// purpose is one more label. Rotation: a new SESSION_SECRET signs and seals from the moment it is deployed; the old one,
// moved to SESSION_SECRET_PREVIOUS, is still accepted to verify what it signed (sessions, resume tokens, bookmark
// cookies) and is never used to sign or seal. README "Secrets and their rotation".

/** The HKDF `info` of each purpose. A label never changes meaning: a new derivation takes a new label (…/v2). */
export const KEY_PURPOSES = {
  /** HS256 session tokens (app/server/session.server.ts). */
  session: "unicum/session/v1",
  /** HS256 resume tokens the rooms sign into their hello (app/server/simulation/room-resume.server.ts). */
  resumeToken: "unicum/room-resume/v1",
  /** The HKDF base of the sealed copies' per-subject AES keys (app/server/simulation/sealed-copies.server.ts). */
  sealedCopy: "unicum/sealed-copy/v1",
  /** HMAC of the D1 bookmark cookie (app/server/db/d1-session.server.ts). */
  d1Bookmark: "unicum/d1-bookmark/v1",
} as const;

export type KeyPurpose = keyof typeof KEY_PURPOSES;
type HmacPurpose = Exclude<KeyPurpose, "sealedCopy">;

/** The master secrets of an environment (the Worker's or a room's). */
export type MasterSecrets = { SESSION_SECRET?: string; SESSION_SECRET_PREVIOUS?: string };

/** A master secret shorter than this is refused (app/server/env.server.ts says so at start-up). */
export const MIN_SECRET_LENGTH = 32;

const encoder = new TextEncoder();
const NO_SALT = new Uint8Array(0);

/**
 * Derived keys per isolate, by purpose and secret. Only resolved keys are kept, never a pending promise (a promise
 * settled in another request's context can hang a Worker); two first requests at once may both derive one.
 */
const derived = new Map<string, CryptoKey>();
/** A deployment has one secret (two while rotating) and four purposes; a test may use a few more secrets. */
const DERIVED_KEPT = 32;

function usable(secret: string | undefined): secret is string {
  return typeof secret === "string" && secret.length >= MIN_SECRET_LENGTH;
}

async function derive(secret: string, purpose: KeyPurpose): Promise<CryptoKey> {
  const id = `${purpose}\n${secret}`;
  const known = derived.get(id);
  if (known) return known;
  const master = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, [
    "deriveKey",
    "deriveBits",
  ]);
  const params = { name: "HKDF", hash: "SHA-256", salt: NO_SALT, info: encoder.encode(KEY_PURPOSES[purpose]) };
  const key =
    purpose === "sealedCopy"
      ? // The per-subject keys are derived from this one in turn (HKDF again, bound to the subject and its questions).
        await crypto.subtle.importKey("raw", await crypto.subtle.deriveBits(params, master, 256), "HKDF", false, [
          "deriveBits",
        ])
      : await crypto.subtle.deriveKey(params, master, { name: "HMAC", hash: "SHA-256", length: 256 }, false, [
          "sign",
          "verify",
        ]);
  if (derived.size >= DERIVED_KEPT) derived.clear();
  derived.set(id, key);
  return key;
}

/**
 * The HMAC-SHA-256 key that signs for a purpose: the current master secret's (SESSION_SECRET, or the secret given).
 * Throws without a usable secret: nothing is ever signed with a missing or short one.
 */
export function signingKey(secrets: MasterSecrets | string | undefined, purpose: HmacPurpose): Promise<CryptoKey> {
  const secret = typeof secrets === "string" ? secrets : secrets?.SESSION_SECRET;
  if (!usable(secret)) throw new Error("SESSION_SECRET is missing or shorter than 32 characters");
  return derive(secret, purpose);
}

/**
 * The keys that verify for a purpose, in order: the current secret's, then SESSION_SECRET_PREVIOUS's while a rotation
 * is under way. Empty without a usable current secret (then nothing verifies).
 */
export async function verifyingKeys(secrets: MasterSecrets, purpose: HmacPurpose): Promise<CryptoKey[]> {
  if (!usable(secrets.SESSION_SECRET)) return [];
  const keys = [await derive(secrets.SESSION_SECRET, purpose)];
  const previous = secrets.SESSION_SECRET_PREVIOUS;
  if (usable(previous) && previous !== secrets.SESSION_SECRET) keys.push(await derive(previous, purpose));
  return keys;
}

/**
 * The HKDF base key of the sealed copies, from the current master secret only: a copy sealed before a rotation does not
 * open with the key the room releases after it, and the runner then asks the server for the subject (as for any copy
 * that does not open). Throws without a usable secret.
 */
export function sealedCopyBaseKey(secret: string | undefined): Promise<CryptoKey> {
  if (!usable(secret)) throw new Error("SESSION_SECRET is missing or shorter than 32 characters");
  return derive(secret, "sealedCopy");
}
