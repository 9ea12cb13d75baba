// The teacher's live view of a class simulation (issue 32, point 3): what the page needs before its staff sockets
// open, i.e. the flow, the pupils of its audience by name and each room's state through the room's summary call
// (the same state the staff socket sends first). Only the simulation's teacher (who created it) or an admin.
import { asc, inArray } from "drizzle-orm";
import type { LiveStateMessage } from "~/lib/simulation-protocol";
import type { Db } from "./db/client.server";
import { users } from "./db/schema";
import type { SessionUser } from "./session.server";
import { requireManagedSimulation } from "~/server/simulation/admin.server";
import { loadSimulation } from "~/server/simulation/plan.server";
import { roomFor, SIM_TEXT, simulationAudience } from "~/server/simulation/door.server";
import { HttpError } from "./errors.server";

/** The most pupils the page lists by name (a class sitting is far smaller; a national one is not watched here). */
export const LIVE_NAMES_MAX = 2000;

export type LiveFlowSubject = {
  id: number;
  name: string;
  timeMin: number;
  breakAfterMin: number;
  questionCount: number;
};
export type LivePage = {
  id: string;
  title: string;
  flow: LiveFlowSubject[];
  shards: number;
  pupils: { userId: number; name: string }[];
  rooms: LiveStateMessage[];
  now: number;
};

export async function livePage(db: Db, env: Env, user: SessionUser, id: string): Promise<LivePage> {
  await requireManagedSimulation(db, user, id);
  const [config, pupils] = await Promise.all([
    loadSimulation(db, id, { allowedUsers: false }),
    db
      .select({ userId: users.id, name: users.name, email: users.email })
      .from(users)
      .where(inArray(users.id, simulationAudience(db, id)))
      .orderBy(asc(users.name), asc(users.id))
      .limit(LIVE_NAMES_MAX)
      .all(),
  ]);
  if (!config) throw new HttpError(404, SIM_TEXT.notFound);
  const rooms = await Promise.all(Array.from({ length: config.shards }, (_, shard) => roomFor(env, id, shard).live()));
  return {
    id,
    title: config.title,
    flow: config.subjects.map((s) => ({
      id: s.id,
      name: s.name,
      timeMin: s.timeMin,
      breakAfterMin: s.breakAfterMin,
      questionCount: s.questions.length,
    })),
    shards: config.shards,
    pupils: pupils.map((p) => ({ userId: p.userId, name: p.name || p.email })),
    rooms,
    now: Date.now(),
  };
}
