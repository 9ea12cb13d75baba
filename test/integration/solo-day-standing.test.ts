// Where a day alone stands (issue 46, point 2): among the graded days other students have done of the same edition, by
// the ranking key (rankKey, stored by the grading write), and only over SOLO_DAY_MIN_PEERS of them; never a list of
// the others.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { SOLO_DAY_MIN_PEERS } from "~/lib/solo-day";
import { json, login, seed, call } from "./helpers";
import { connectRoom } from "./room-socket";
import {
  defaultEditionRow,
  type Edition,
  newStudent,
  wholeDay,
  passTo as passToAs,
  type Started,
  startDay,
} from "./solo-day-fixtures";

let admin: string;
let edition: Edition;
const start = (token: string) => startDay(token, { editionId: edition.id });
const passTo = (id: string, at: number) => passToAs(admin, id, at);

beforeAll(async () => {
  await seed();
  admin = await login("admin@example.com");
  edition = await defaultEditionRow();
});

describe("the exam day alone's standing", () => {
  it("stands among other students' days only over 30 of them, by the ranking key", async () => {
    const s = await newStudent("solo-posto");
    const day = await json<Started>(await start(s.token));
    // The runner connects (a candidate who never did has no attempt, as in any simulation).
    const socket = await connectRoom(day.id, s.token);
    await socket.next("hello");
    const f = edition.format;
    await passTo(day.id, wholeDay(f) + 5000);
    for (let i = 0; i < 100; i++) {
      const graded = await env.DB.prepare("SELECT graded_at FROM simulations WHERE id = ?").bind(day.id).first();
      if (graded?.graded_at) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const ranking = async () =>
      json<{ solo: { peers: number; percentile: number | null } | null; ranking: unknown[] }>(
        await call("GET", `/api/simulations/${day.id}/ranking`, { token: s.token }),
      );
    socket.ws.close();
    const alone = await ranking();
    expect(alone.ranking).toEqual([]);
    expect(alone.solo?.percentile).toBeNull();
    // Others' graded days: half below this one's key (0, nothing answered: none), so add them above and below.
    const mine = (await env.DB.prepare("SELECT rank_key AS k FROM simulation_attempts WHERE simulation_id = ?")
      .bind(day.id)
      .first<{ k: number }>())!.k;
    const peers = SOLO_DAY_MIN_PEERS + 2 - (alone.solo?.peers ?? 0);
    for (let i = 0; i < peers; i++) {
      const o = await newStudent(`solo-altri-${i}`);
      const id = `solo-finta-${o.id}`;
      const now = Date.now();
      await env.DB.batch([
        env.DB.prepare(
          "INSERT INTO simulations (id, title, started, start_time, graded_at, edition_id, solo_user_id, created_at) VALUES (?, 'x', 1, ?, ?, ?, ?, ?)",
        ).bind(id, now, now, edition.id, o.id, now),
        env.DB.prepare(
          "INSERT INTO simulation_attempts (simulation_id, user_id, answers, subjects_result, score, perc, created_at, rank_key) VALUES (?, ?, '{}', '[]', 0, 0, ?, ?)",
        ).bind(id, o.id, now, i % 2 ? mine + 100 : mine - 1),
      ]);
    }
    const crowd = await ranking();
    const total = (alone.solo?.peers ?? 0) + peers;
    expect(crowd.solo?.peers).toBe(total);
    const below = (await env.DB.prepare(
      `SELECT count(*) AS n FROM simulation_attempts a JOIN simulations s ON s.id = a.simulation_id
         WHERE s.solo_user_id IS NOT NULL AND s.solo_user_id <> ? AND s.graded_at IS NOT NULL AND a.rank_key < ?`,
    )
      .bind(s.id, mine)
      .first<{ n: number }>())!.n;
    expect(crowd.solo?.percentile).toBe(Math.round((below / total) * 100));
  });
});
