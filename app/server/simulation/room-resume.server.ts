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
import { jwtVerify, SignJWT } from "jose";
import { type MasterSecrets, signingKey, verifyingKeys } from "../keys.server";

const AUDIENCE = "unicum/room-resume";
/** A token stays valid this long after the room's last end (a candidate reconnecting to read their result). */
export const RESUME_AFTER_END_MS = 5 * 60_000;

/**
 * `startTime`: the start instant of the sitting the token was signed in. The room refuses a token of another start (a
 * simulation deleted and made again under the same id); the socket route cannot tell without D1.
 */
export type ResumeClaims = { userId: number; role: string; simulationId: string; shard: number; startTime: number };

/** A resume token for `claims`, valid until `expiresAt` (ms), signed under the master secret `secret` (the room's). */
export async function signResume(secret: string, claims: ResumeClaims, expiresAt: number): Promise<string> {
  return new SignJWT({ sim: claims.simulationId, shard: claims.shard, role: claims.role, start: claims.startTime })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(String(claims.userId))
    .setAudience(AUDIENCE)
    .setExpirationTime(Math.floor(expiresAt / 1000))
    .sign(await signingKey(secret, "resumeToken"));
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
): Promise<ResumeClaims | null> {
  if (token.length > 2048) return null;
  for (const key of await verifyingKeys(secrets, "resumeToken")) {
    const claims = await claimsOf(token, key, simulationId);
    if (claims) return claims;
  }
  return null;
}

async function claimsOf(token: string, key: CryptoKey, simulationId: string): Promise<ResumeClaims | null> {
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ["HS256"], audience: AUDIENCE });
    const userId = Number(payload.sub);
    const { sim, shard, role, start } = payload as { sim?: unknown; shard?: unknown; role?: unknown; start?: unknown };
    if (sim !== simulationId || !Number.isInteger(userId) || userId <= 0) return null;
    if (typeof shard !== "number" || !Number.isInteger(shard) || shard < 0 || typeof role !== "string") return null;
    if (typeof start !== "number" || !Number.isFinite(start)) return null;
    return { userId, role, simulationId, shard, startTime: start };
  } catch {
    return null;
  }
}
