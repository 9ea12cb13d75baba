// /api/simulations/{id}/ws: checked here (session, upgrade header) and handed to the student's room of that
// simulation ("<id>:<shard>", the shard stored at start; see roomOfUser in app/server/simulation/).
import { errorResponse, HttpError } from "../app/server/errors.server";
import { getDb } from "../app/server/db/client.server";
import { type ResumeClaims, verifyResume } from "../app/server/simulation/room-resume.server";
import { requireUser } from "../app/server/session.server";
import { requireManagedSimulation } from "../app/server/simulation/admin.server";
import { requireSimulationAccess, roomFor } from "../app/server/simulation/door.server";

const SOCKET_PATH = /^\/api\/simulations\/([^/]+)\/ws$/;
/** The teacher's live view: /api/simulations/{id}/staff/ws?shard=N, one socket per room. */
const STAFF_SOCKET_PATH = /^\/api\/simulations\/([^/]+)\/staff\/ws$/;

export const STAFF_SOCKET_TEXT = {
  badShard: (shards: number) =>
    `Stanza non valida (parametro shard): è atteso un numero intero da 0 a ${Math.max(0, shards - 1)}.`,
} as const;

export const SOCKET_TEXT = {
  badId: "Indirizzo non valido: l'identificativo della simulazione non è leggibile (codifica % errata).",
} as const;

/** The simulation id of the address, decoded; a malformed %-escape (`%E0`, `%`) is a 400, never a thrown URIError. */
function simulationIdOf(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new HttpError(400, SOCKET_TEXT.badId);
  }
}

/** Returns the room's answer for a simulation socket request, or null for any other path. */
export async function routeSimulationSocket(request: Request, env: Env): Promise<Response | null> {
  const url = new URL(request.url);
  const staff = url.pathname.match(STAFF_SOCKET_PATH);
  if (staff) return routeStaffSocket(request, env, staff[1]!, url.searchParams.get("shard"));
  const match = url.pathname.match(SOCKET_PATH);
  if (!match) return null;
  try {
    const simulationId = simulationIdOf(match[1]!);
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
      throw new HttpError(426, "Questo indirizzo accetta solo connessioni WebSocket.");
    }
    const token = await resumed(url, env, simulationId);
    if (token) {
      const answer = await enterRoom(request, env, simulationId, token);
      // The room refuses a token of another sitting under the same id: then the session decides, as without one.
      if (answer.status !== 401) return answer;
    }
    return await enterRoom(request, env, simulationId, await admit(request, env, simulationId));
  } catch (error) {
    return errorResponse(error);
  }
}

/** Hands the upgrade to the candidate's room with who they are (headers the room trusts: set here, never by a client). */
function enterRoom(
  request: Request,
  env: Env,
  simulationId: string,
  admitted: Omit<ResumeClaims, "startTime"> & { startTime?: number },
): Promise<Response> {
  const headers = new Headers(request.headers);
  headers.set("X-Unicum-User-Id", String(admitted.userId));
  headers.set("X-Unicum-Role", admitted.role);
  headers.set("X-Unicum-Simulation-Id", simulationId);
  headers.set("X-Unicum-Shard", String(admitted.shard));
  // Admitted by a resume token: the room checks it was signed in its own sitting (no D1 here to tell).
  if (admitted.startTime !== undefined) headers.set("X-Unicum-Resume-Start", String(admitted.startTime));
  else headers.delete("X-Unicum-Resume-Start");
  // Only the staff route below opens a staff socket: a client cannot ask for one with its own header.
  headers.delete("X-Unicum-Staff");
  return roomFor(env, simulationId, admitted.shard).fetch(new Request(request.url, { headers, method: "GET" }));
}

/** The session's way in: the signed-in user (401 without one) and the door of their simulation. */
async function admit(request: Request, env: Env, simulationId: string): Promise<Omit<ResumeClaims, "startTime">> {
  const user = await requireUser(request, env, "user");
  // Unknown simulation → 404; not on its allowed list → 403 'Non sei abilitato a questa simulazione'.
  const { shard } = await requireSimulationAccess(getDb(env.DB), simulationId, user);
  return { userId: user.id, role: user.effectiveRole, simulationId, shard };
}

/**
 * A reconnect with the resume token its room signed into the last hello (`?resume=`, app/server/simulation/room-resume.server.ts):
 * no D1. A token that does not verify (forged, expired, another simulation's) is ignored: the session decides, as for
 * a first connection.
 */
async function resumed(url: URL, env: Env, simulationId: string): Promise<ResumeClaims | null> {
  const token = url.searchParams.get("resume");
  return token ? verifyResume(env, token, simulationId) : null;
}

/**
 * A staff socket: the simulation's teacher (who created it) or an admin watches one room; a pupil or another teacher is
 * refused (403) before any room is touched. The room sends counts and, after each subject, scores: never keys.
 */
async function routeStaffSocket(request: Request, env: Env, rawId: string, shardParam: string | null) {
  try {
    const simulationId = simulationIdOf(rawId);
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
      throw new HttpError(426, "Questo indirizzo accetta solo connessioni WebSocket.");
    }
    const user = await requireUser(request, env, "teacher");
    const sim = await requireManagedSimulation(getDb(env.DB), user, simulationId);
    const shard = Number(shardParam ?? "0");
    if (!Number.isInteger(shard) || shard < 0 || shard >= sim.shards)
      throw new HttpError(400, STAFF_SOCKET_TEXT.badShard(sim.shards));
    const headers = new Headers(request.headers);
    headers.set("X-Unicum-User-Id", String(user.id));
    headers.set("X-Unicum-Role", user.effectiveRole);
    headers.set("X-Unicum-Simulation-Id", simulationId);
    headers.set("X-Unicum-Shard", String(shard));
    headers.set("X-Unicum-Staff", "1");
    return roomFor(env, simulationId, shard).fetch(new Request(request.url, { headers, method: "GET" }));
  } catch (error) {
    return errorResponse(error);
  }
}
