// /api/simulations/{id}/ws: checked here (session, upgrade header) and handed to the student's room of that
// simulation ("<id>:<shard>", the shard stored at start; see roomOfUser in app/server/simulation/).
// A reconnect with the room's resume token costs no D1: the session (and its D1 read session, opened by the Worker
// entry only when asked: `sessionEnv`) is read only on the session's way in.
import { comebackReason, OVERLOAD_CLOSE_CODE, RESTART_CLOSE_CODE } from "../app/lib/simulation-protocol";
import { errorResponse, HttpError } from "../app/server/errors.server";
import { getDb } from "../app/server/db/client.server";
import { type ResumeClaims, verifyResume } from "../app/server/simulation/room-resume.server";
import { urlOf } from "../app/server/security.server";
import { requireUser } from "../app/server/session.server";
import { requireManagedSimulation } from "../app/server/simulation/admin.server";
import { requireSimulationAccess, roomFor } from "../app/server/simulation/door.server";

const SOCKET_PATH = /^\/api\/simulations\/([^/]+)\/ws$/;
/** The teacher's live view: /api/simulations/{id}/staff/ws?shard=N, one socket per room. */
const STAFF_SOCKET_PATH = /^\/api\/simulations\/([^/]+)\/staff\/ws$/;

/** Whether a path is one of the rooms' sockets (the Worker entry gives them their own, lighter way in). */
export function isSimulationSocketPath(pathname: string): boolean {
  return SOCKET_PATH.test(pathname) || STAFF_SOCKET_PATH.test(pathname);
}

/**
 * The windows the Worker names when a room cannot take a socket now (app/lib/simulation-protocol.ts): restarting (a
 * release; the runtime has already retried for a few seconds) or overloaded (retrying at once would add to it).
 */
export const RESTART_COMEBACK_MS = 5000;
export const OVERLOAD_COMEBACK_MS = 10_000;

/**
 * The close to answer a room's failure with, as the protocol's server close: 1013 for an overloaded room, 1012 for
 * one the runtime calls retryable (restarting, moving); null for anything else (a 500 as before).
 */
export function comebackCloseFor(error: unknown): { code: number; reason: string } | null {
  const flags = (typeof error === "object" && error !== null ? error : {}) as {
    overloaded?: unknown;
    retryable?: unknown;
  };
  if (flags.overloaded === true) return { code: OVERLOAD_CLOSE_CODE, reason: comebackReason(OVERLOAD_COMEBACK_MS) };
  if (flags.retryable === true) return { code: RESTART_CLOSE_CODE, reason: comebackReason(RESTART_COMEBACK_MS) };
  return null;
}

/** A socket accepted only to be closed at once with `close`: the browser then comes back within its window. */
export function closedSocket(close: { code: number; reason: string }): Response {
  const { 0: client, 1: server } = new WebSocketPair();
  server.accept();
  server.close(close.code, close.reason);
  return new Response(null, { status: 101, webSocket: client });
}

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

/**
 * Returns the room's answer for a simulation socket request, or null for any other path. `sessionEnv`: the environment
 * whose D1 the session's way in reads (the Worker entry opens its read session only then); `env` by default.
 */
export async function routeSimulationSocket(
  request: Request,
  env: Env,
  sessionEnv: () => Promise<Env> = async () => env,
): Promise<Response | null> {
  const url = urlOf(request);
  const staff = url.pathname.match(STAFF_SOCKET_PATH);
  if (staff) return routeStaffSocket(request, sessionEnv, staff[1]!, url.searchParams.get("shard"));
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
    const viaSession = await sessionEnv();
    return await enterRoom(request, viaSession, simulationId, await admit(request, viaSession, simulationId));
  } catch (error) {
    return errorResponse(error);
  }
}

/**
 * The request the room gets: the upgrade and who the socket is, in headers only this route sets. Made afresh, not
 * copied from the client's (with its cookies and any X-Unicum-* of its own): a client cannot name a user, a sitting or
 * a staff socket, and the room reads nothing else.
 */
function roomRequest(request: Request, who: Record<string, string>): Request {
  return new Request(request.url, { method: "GET", headers: { Upgrade: "websocket", ...who } });
}

/** Hands the upgrade to a room; a room that cannot take it now sends the browser back within a window (1012/1013). */
async function toRoom(env: Env, simulationId: string, shard: number, request: Request): Promise<Response> {
  try {
    return await roomFor(env, simulationId, shard).fetch(request);
  } catch (error) {
    const close = comebackCloseFor(error);
    if (!close) throw error;
    console.warn(`socket route: room ${simulationId}:${shard} unavailable, closing with ${close.code}`, error);
    return closedSocket(close);
  }
}

/** Hands the upgrade to the candidate's room with who they are. */
function enterRoom(
  request: Request,
  env: Env,
  simulationId: string,
  admitted: Omit<ResumeClaims, "startTime"> & { startTime?: number },
): Promise<Response> {
  const who: Record<string, string> = {
    "X-Unicum-User-Id": String(admitted.userId),
    "X-Unicum-Role": admitted.role,
    "X-Unicum-Simulation-Id": simulationId,
    "X-Unicum-Shard": String(admitted.shard),
  };
  // Admitted by a resume token: the room checks it was signed in its own sitting (no D1 here to tell).
  if (admitted.startTime !== undefined) who["X-Unicum-Resume-Start"] = String(admitted.startTime);
  return toRoom(env, simulationId, admitted.shard, roomRequest(request, who));
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
async function routeStaffSocket(
  request: Request,
  sessionEnv: () => Promise<Env>,
  rawId: string,
  shardParam: string | null,
) {
  try {
    const simulationId = simulationIdOf(rawId);
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
      throw new HttpError(426, "Questo indirizzo accetta solo connessioni WebSocket.");
    }
    const env = await sessionEnv();
    const user = await requireUser(request, env, "teacher");
    const sim = await requireManagedSimulation(getDb(env.DB), user, simulationId);
    const shard = Number(shardParam ?? "0");
    if (!Number.isInteger(shard) || shard < 0 || shard >= sim.shards)
      throw new HttpError(400, STAFF_SOCKET_TEXT.badShard(sim.shards));
    return await toRoom(
      env,
      simulationId,
      shard,
      roomRequest(request, {
        "X-Unicum-User-Id": String(user.id),
        "X-Unicum-Role": user.effectiveRole,
        "X-Unicum-Simulation-Id": simulationId,
        "X-Unicum-Shard": String(shard),
        "X-Unicum-Staff": "1",
      }),
    );
  } catch (error) {
    return errorResponse(error);
  }
}
