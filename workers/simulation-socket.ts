// /api/simulations/{id}/ws: checked here (session, upgrade header) and handed to the student's room of that
// simulation ("<id>:<shard>", the shard stored at start; see roomOfUser in app/server/simulations.server.ts).
import { errorResponse, HttpError } from "../app/server/errors.server";
import { getDb } from "../app/server/db/client.server";
import { requireUser } from "../app/server/session.server";
import { requireSimulationAccess, roomFor } from "../app/server/simulations.server";

const SOCKET_PATH = /^\/api\/simulations\/([^/]+)\/ws$/;

/** Returns the room's answer for a simulation socket request, or null for any other path. */
export async function routeSimulationSocket(request: Request, env: Env): Promise<Response | null> {
  const match = new URL(request.url).pathname.match(SOCKET_PATH);
  if (!match) return null;
  try {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
      throw new HttpError(426, "Questo indirizzo accetta solo connessioni WebSocket.");
    }
    const user = await requireUser(request, env, "user");
    const simulationId = decodeURIComponent(match[1]!);
    // Unknown simulation → 404; not on its allowed list → 403 'Non sei abilitato a questa simulazione'.
    const { shard } = await requireSimulationAccess(getDb(env.DB), simulationId, user);
    const stub = roomFor(env, simulationId, shard);
    // The room trusts these headers only because they come from this Worker, never from the client.
    const headers = new Headers(request.headers);
    headers.set("X-Unicum-User-Id", String(user.id));
    headers.set("X-Unicum-Role", user.effectiveRole);
    headers.set("X-Unicum-Simulation-Id", simulationId);
    headers.set("X-Unicum-Shard", String(shard));
    return stub.fetch(new Request(request.url, { headers, method: "GET" }));
  } catch (error) {
    return errorResponse(error);
  }
}
