// The room bench's students (the national bench's, written straight into the bench database), their accommodations,
// the simulations it sits, and what it reads back: the graded attempts and the server's D1 meter.
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { devCookie } from "../lib/server.ts";
import { adminJson, benchD1, prepareStudents } from "../national.ts";
import { seeded } from "./pace.ts";
import type { RoomUser, SavedAnswers } from "./socket-client.ts";

/**
 * An admin call tried again (3 times in all) when its connection failed: a keep-alive socket the server closed as it was
 * reused (idle, or the old server's after a deploy) fails the request that took it.
 */
async function retrying<T>(call: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= 3 || !(error instanceof TypeError)) throw error;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** Accommodated candidates (extra time an admin sets on the user: users.extra_time_pct), as a share of the room. */
export const ACCOMMODATIONS = [
  { share: 0.05, pct: 30 },
  { share: 0.02, pct: 50 },
] as const;

type Edition = { id: number; format: { questionTotal: number; subjects: { subjectId: number }[] } };
export type RoomSetup = {
  users: RoomUser[];
  listed: number[];
  classIds: number[];
  admin: string;
  edition: Edition;
};

/** `clients` students, the accommodated ones chosen by a seeded draw, an admin's cookie and the default edition. */
export async function prepareRoom(baseUrl: string, clients: number, seed: number): Promise<RoomSetup> {
  const { students, classIds } = await prepareStudents(clients);
  const random = seeded(seed);
  const order = students.map((s) => ({ id: s.id, r: random() })).sort((a, b) => a.r - b.r);
  const extra = new Map<number, number>();
  let next = 0;
  for (const { share, pct } of ACCOMMODATIONS)
    for (const { id } of order.slice(next, (next += Math.round(share * clients)))) extra.set(id, pct);
  const ids = students.map((s) => s.id);
  const statements = [
    `UPDATE users SET extra_time_pct = 0 WHERE id BETWEEN ${Math.min(...ids)} AND ${Math.max(...ids)};`,
    ...ACCOMMODATIONS.map(
      ({ pct }) =>
        `UPDATE users SET extra_time_pct = ${pct} WHERE id IN (${[...extra].flatMap(([id, p]) => (p === pct ? [id] : [])).join(", ") || "NULL"});`,
    ),
  ];
  const file = join(tmpdir(), `unicum-room-${process.pid}.sql`);
  writeFileSync(file, statements.join("\n"));
  benchD1(["--file", file]);
  rmSync(file, { force: true });
  const admin = await retrying(() => devCookie(baseUrl, "admin@example.com"));
  const editions = await retrying(() =>
    adminJson<{ editions: Edition[]; defaultId: number }>(baseUrl, admin, "/api/exam-editions"),
  );
  return {
    users: students.map((s) => ({ id: s.id, cookie: s.cookie, extraPct: extra.get(s.id) ?? 0 })),
    listed: students.filter((s) => s.listed).map((s) => s.id),
    classIds,
    admin,
    edition: editions.editions.find((e) => e.id === editions.defaultId)!,
  };
}

/** Saves a simulation of the setup's students: the edition's subjects (or the first `subjects`), `timeMin` each. */
export async function createSimulation(
  baseUrl: string,
  setup: RoomSetup,
  id: string,
  timeMin: number,
  subjects = setup.edition.format.subjects.length,
): Promise<string> {
  await retrying(() =>
    adminJson(baseUrl, setup.admin, "/api/admin/simulations", {
      method: "POST",
      body: JSON.stringify({
        id,
        title: "Stanza sotto carico",
        subjects: setup.edition.format.subjects.slice(0, subjects).map((s) => ({
          subjectId: s.subjectId,
          timeMin,
          breakAfterMin: 0,
          questionCount: setup.edition.format.questionTotal,
        })),
        allowedUsers: setup.listed,
        allowedClasses: setup.classIds,
      }),
    }),
  );
  return id;
}

/** Avvia: the one start instant (4 s ahead) and the sitting's end. */
export function startSimulation(baseUrl: string, setup: RoomSetup, id: string) {
  return retrying(() =>
    adminJson<{ startTime: number; endsAt: number }>(baseUrl, setup.admin, `/api/admin/simulations/${id}/start`, {
      method: "POST",
    }),
  );
}

export async function deleteSimulation(baseUrl: string, setup: RoomSetup, id: string) {
  await retrying(() =>
    fetch(`${baseUrl}/api/admin/simulations/${id}`, { method: "DELETE", headers: { cookie: setup.admin } }),
  );
}

/** The answers of each graded attempt of a simulation, read from the bench database. */
export function gradedAttempts(simulationId: string): Map<number, SavedAnswers> {
  const out = JSON.parse(
    benchD1([
      "--json",
      "--command",
      `SELECT user_id AS userId, answers FROM simulation_attempts WHERE simulation_id = '${simulationId}'`,
    ]),
  ) as { results: { userId: number; answers: string }[] }[];
  return new Map(out[0]!.results.map((r) => [r.userId, JSON.parse(r.answers) as SavedAnswers]));
}

/** The server's D1 meter (a build with BENCH_D1_USAGE; its tally is lost with the server's process at a deploy). */
export function d1Meter(origin: { readonly baseUrl: string }, setup: RoomSetup) {
  return {
    reset: async () => {
      const response = await retrying(() =>
        fetch(`${origin.baseUrl}/api/admin/bench/d1`, { method: "DELETE", headers: { cookie: setup.admin } }),
      );
      if (!response.ok)
        throw new Error("the D1 meter is off: build with UNICUM_BENCH_D1_USAGE=1 (bench/run.ts sets it)");
    },
    queries: async () =>
      (await retrying(() => adminJson<{ queries: number }>(origin.baseUrl, setup.admin, "/api/admin/bench/d1")))
        .queries,
  };
}
