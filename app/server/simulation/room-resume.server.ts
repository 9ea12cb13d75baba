// Reconnect without D1 (issue 31): a started room signs a resume token into each candidate's hello, and the socket
// route accepts it instead of the session and door lookups when the same candidate reconnects to the same simulation.
// A mid-subject network blip brings a whole sitting back within seconds; each reconnect then costs the Worker one
// HMAC check and the room its hello, not two D1 reads per socket on top of the answers.
//
// What the token proves is what the socket it replaces already proved at its opening: this user, with this role, was
// let into this room of this simulation. It is no weaker than that open socket, which is not checked again either, and
// it ends shortly after the room's last candidate ends. It is signed with the resume-token key derived from the master
// secret (app/server/keys.server.ts, its own label), so a session token is never a resume token and a resume token
// never a session.
import { type MasterSecrets, signingKey, verifyingKeys } from "../keys.server";

/**
 * The token's form: `r1.<payload>.<mac>`, base64url, the payload the JSON array [simulation, shard, user, role, start,
 * expiry in s] and the MAC an HMAC-SHA-256 of `r1.<payload>` under the resume-token key. Not a JWT: a wave of
 * reconnects checks one token each, and jose's parsing of a JWT cost the socket route more than the room's whole
 * hello (BENCH_ONLY=reconnect's profile, issue 45); one split, one HMAC check and one small JSON parse do the same.
 * A session token (a JWT) never reads as one, nor one of these as a session.
 */
const VERSION = "r1";
/** A token stays valid this long after the room's last end (a candidate reconnecting to read their result). */
export const RESUME_AFTER_END_MS = 5 * 60_000;

/**
 * `startTime`: the start instant of the sitting the token was signed in. The room refuses a token of another start (a
 * simulation deleted and made again under the same id); the socket route cannot tell without D1.
 */
export type ResumeClaims = { userId: number; role: string; simulationId: string; shard: number; startTime: number };

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** null for anything that is not base64url. */
function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    const bytes = new Uint8Array(new ArrayBuffer(binary.length));
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return null;
  }
}

/** A resume token for `claims`, valid until `expiresAt` (ms), signed under the master secret `secret` (the room's). */
export async function signResume(secret: string, claims: ResumeClaims, expiresAt: number): Promise<string> {
  const body = [
    claims.simulationId,
    claims.shard,
    claims.userId,
    claims.role,
    claims.startTime,
    Math.floor(expiresAt / 1000),
  ];
  const payload = toBase64Url(encoder.encode(JSON.stringify(body)));
  const key = await signingKey(secret, "resumeToken");
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(`${VERSION}.${payload}`)));
  return `${VERSION}.${payload}.${toBase64Url(mac)}`;
}

/**
 * The claims of a resume token signed under the master secret (or the previous one while rotating), unexpired and
 * naming `simulationId`; null for anything else (a forged or altered token, an expired one, another simulation's, a
 * session token). The caller then checks the session.
 */
export async function verifyResume(
  secrets: MasterSecrets,
  token: string,
  simulationId: string,
  now = Date.now(),
): Promise<ResumeClaims | null> {
  if (token.length > 2048) return null;
  const parts = token.split(".");
  if (parts.length !== 3 || parts[0] !== VERSION) return null;
  const mac = fromBase64Url(parts[2]!);
  if (!mac) return null;
  const signed = encoder.encode(`${VERSION}.${parts[1]}`);
  for (const key of await verifyingKeys(secrets, "resumeToken")) {
    // crypto.subtle.verify compares in constant time.
    if (await crypto.subtle.verify("HMAC", key, mac, signed)) return claimsOf(parts[1]!, simulationId, now);
  }
  return null;
}

function claimsOf(payload: string, simulationId: string, now: number): ResumeClaims | null {
  const bytes = fromBase64Url(payload);
  if (!bytes) return null;
  let body: unknown;
  try {
    body = JSON.parse(decoder.decode(bytes));
  } catch {
    return null;
  }
  if (!Array.isArray(body) || body.length !== 6) return null;
  const [sim, shard, userId, role, start, expiresS] = body as unknown[];
  if (sim !== simulationId || typeof role !== "string") return null;
  if (typeof userId !== "number" || !Number.isInteger(userId) || userId <= 0) return null;
  if (typeof shard !== "number" || !Number.isInteger(shard) || shard < 0) return null;
  if (typeof start !== "number" || !Number.isFinite(start)) return null;
  if (typeof expiresS !== "number" || expiresS * 1000 <= now) return null;
  return { userId, role, simulationId, shard, startTime: start };
}
