// Findability (issue 34): a student's simulations on /simulazioni (audience through users and classes, the ones
// they sat, live / upcoming / past, the position as a COUNT) and the dashboard's Quiz Rush heads-up.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { MySimulations } from "~/lib/my-simulations";
import { getDb } from "~/server/db/client.server";
import { RUSH_HEADS_UP_MS, rushHeadsUp } from "~/server/rush.server";
import { mySimulations, nextOfficialSitting } from "../../app/server/simulation/mine.server";
import { rankingFor } from "../../app/server/simulation/ranking.server";
import { call, json, login, seed } from "./helpers";

const PUPIL = 9301;
const OTHERS = [9302, 9303, 9304, 9305];
const MIN = 60_000;
const now = Date.now();
let pupil: string;

const db = () => getDb(env.DB);
const run = (sql: string, ...binds: unknown[]) => env.DB.prepare(sql).bind(...binds);

/** A simulation of one Biologia subject (5 minutes), started at `startTime` (null: not yet started). */
function simulation(id: string, startTime: number | null) {
  return [
    run(
      "INSERT INTO simulations (id, title, started, start_time, created_by, created_at) VALUES (?, ?, 0, ?, 6, ?)",
      id,
      `Prova ${id}`,
      startTime,
      now,
    ),
    run(
      "INSERT INTO simulation_subjects (simulation_id, position, subject_id, time_min, question_count, break_after_min) VALUES (?, 0, 1, 5, 1, 0)",
      id,
    ),
    // Started after its plan is written (a started plan cannot change), with the timeline Avvia stores.
    run(
      "UPDATE simulations SET started = 1, ends_at = start_time + 300000, seal_until = start_time + 362000 WHERE id = ? AND start_time IS NOT NULL",
      id,
    ),
  ];
}
const allow = (id: string, userId: number) =>
  run("INSERT INTO simulation_allowed_users (simulation_id, user_id) VALUES (?, ?)", id, userId);
const attempt = (id: string, userId: number, score: number, timeSec: number) =>
  run(
    "INSERT INTO simulation_attempts (simulation_id, user_id, answers, subjects_result, score, perc, time_sec, created_at) VALUES (?, ?, '{}', '[]', ?, 50, ?, ?)",
    id,
    userId,
    score,
    timeSec,
    now,
  );

beforeAll(async () => {
  await seed();
  await env.DB.batch([
    ...[PUPIL, ...OTHERS].map((id) =>
      run(
        "INSERT OR IGNORE INTO users (id, email, name, username, role, status, share_code) VALUES (?, ?, ?, ?, 'studente', 'attivo', ?)",
        id,
        `nav${id}@example.com`,
        `Allievo ${id}`,
        `allievo.${id}`,
        `N${id}`,
      ),
    ),
    ...simulation("nav-live", now - MIN),
    allow("nav-live", PUPIL),
    ...simulation("nav-soon", now + 3 * MIN),
    allow("nav-soon", PUPIL),
    ...simulation("nav-later", now + 60 * MIN),
    allow("nav-later", PUPIL),
    // Sat, with ties around the pupil: one higher score, one same score in less time, one same score and time.
    ...simulation("nav-past", now - 120 * MIN),
    allow("nav-past", PUPIL),
    attempt("nav-past", PUPIL, 20, 300),
    attempt("nav-past", 9302, 25, 400),
    attempt("nav-past", 9303, 20, 200),
    attempt("nav-past", 9304, 20, 300),
    // Sat, though no longer allowed (a pupil who left the class): still theirs.
    ...simulation("nav-left", now - 240 * MIN),
    attempt("nav-left", PUPIL, 12.5, 100),
    // Allowed, over, not sat.
    ...simulation("nav-missed", now - 180 * MIN),
    allow("nav-missed", PUPIL),
    // Somebody else's.
    ...simulation("nav-other", now - MIN),
    allow("nav-other", 9302),
  ]);
  pupil = await login(`nav${PUPIL}@example.com`);
});

const ids = (lists: MySimulations) => ({
  live: lists.live.map((s) => s.id),
  upcoming: lists.upcoming.map((s) => s.id),
  past: lists.past.map((s) => s.id),
});

describe("mySimulations", () => {
  it("lists the pupil's simulations as live, upcoming and past, and nobody else's", async () => {
    const lists = await mySimulations(db(), PUPIL, now);
    expect(ids(lists)).toEqual({
      live: ["nav-live"],
      upcoming: ["nav-soon", "nav-later"],
      past: ["nav-past", "nav-missed", "nav-left"],
    });
    expect(lists.live[0]).toMatchObject({ startTime: now - MIN, endsAt: now + 4 * MIN, result: null });
    expect(lists.upcoming[0]).toMatchObject({ startTime: now + 3 * MIN, endsAt: now + 8 * MIN });
  });

  it("gives a past simulation the pupil sat their score and the position rankFor would give, by counting", async () => {
    const lists = await mySimulations(db(), PUPIL, now);
    const past = lists.past.find((s) => s.id === "nav-past")!;
    // By the ranking key alone (issue 44): the three 20s share the second place, whatever time each one took.
    expect(past.result).toMatchObject({ score: 20, position: 2, participants: 4 });
    // The ranking call answers from the final ranking, written once the simulation is graded (issue 31).
    await run("UPDATE simulations SET graded_at = ? WHERE id = 'nav-past'", now).run();
    const ranking = await rankingFor(db(), "nav-past", PUPIL);
    expect(past.result!.position).toBe(ranking.pos);
    expect(past.result!.participants).toBe(ranking.participants);
    expect(lists.past.find((s) => s.id === "nav-left")!.result).toMatchObject({
      score: 12.5,
      position: 1,
      participants: 1,
    });
    expect(lists.past.find((s) => s.id === "nav-missed")!.result).toBeNull();
  });

  it("moves a simulation along with the clock: upcoming, live at its start, past at its close", async () => {
    const at = async (t: number) => ids(await mySimulations(db(), PUPIL, t, { results: false }));
    expect((await at(now + 3 * MIN - 1)).upcoming).toContain("nav-soon");
    expect((await at(now + 3 * MIN)).live).toContain("nav-soon");
    expect((await at(now + 8 * MIN)).live).not.toContain("nav-soon");
    // The dashboard's variant reads no past list.
    expect((await at(now)).past).toEqual([]);
  });

  it("has nothing for a user in no simulation, and only what they sat for one never allowed", async () => {
    expect(await mySimulations(db(), 9305, now)).toEqual({ live: [], upcoming: [], past: [] });
    expect(ids(await mySimulations(db(), 9304, now))).toEqual({ live: [], upcoming: [], past: ["nav-past"] });
  });
});

describe("/simulazioni and the class link", () => {
  it("serves the pupil's lists with the server's now, and the default edition's next official sitting", async () => {
    const response = await call("GET", "/simulazioni", { token: pupil });
    expect(response.status).toBe(200);
    const data = await json<MySimulations & { now: number; officialSitting: unknown }>(response);
    expect(data.officialSitting).toEqual(await nextOfficialSitting(db(), data.now));
    expect(data.now).toBeGreaterThanOrEqual(now);
    expect(data.live.map((s) => s.id)).toEqual(["nav-live"]);
  });

  it("a pupil who joins the demo class through its link sees the class on /profilo and its simulation on /simulazioni", async () => {
    const before = await json<MySimulations>(await call("GET", "/simulazioni", { token: pupil }));
    expect(before.upcoming.map((s) => s.id)).not.toContain("demo-5b-volta");
    const joined = await call("POST", "/classi/unisciti/5BVLTA", {
      token: pupil,
      body: "",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(await json(joined)).toMatchObject({ joined: { joined: true } });
    try {
      const profile = await json<{ classes: { name: string }[] }>(await call("GET", "/profilo", { token: pupil }));
      expect(profile.classes.map((c) => c.name)).toContain("5ªB Liceo Volta");
      const after = await json<MySimulations>(await call("GET", "/simulazioni", { token: pupil }));
      // Not started yet: upcoming, waiting for the teacher's Avvia (no start time).
      expect(after.upcoming).toContainEqual(
        expect.objectContaining({ id: "demo-5b-volta", title: "Simulazione 5ªB Liceo Volta", startTime: null }),
      );
    } finally {
      await run("DELETE FROM class_members WHERE class_id = 1 AND user_id = ?", PUPIL).run();
    }
  });

  it("the demo student is in the demo class's simulation out of the seed", async () => {
    const lists = await mySimulations(db(), 1, now, { results: false });
    expect(lists.upcoming.map((s) => s.id)).toContain("demo-5b-volta");
  });
});

describe("rushHeadsUp", () => {
  // Far from the other files' events: a window of its own.
  const N = Date.UTC(2090, 0, 10, 9, 0);
  let soonId: number;

  beforeAll(async () => {
    const insert = (title: string, startsAt: number, endsAt: number, published: boolean) =>
      run(
        "INSERT INTO rush_events (title, starts_at, ends_at, published) VALUES (?, ?, ?, ?) RETURNING id",
        title,
        startsAt,
        endsAt,
        published ? 1 : 0,
      ).first<{ id: number }>();
    await insert("Bozza", N - 60 * MIN, N + 60 * MIN, false);
    soonId = (await insert("Rush del mattino", N + 120 * MIN, N + 240 * MIN, true))!.id;
    await insert("Rush di dopodomani", N + 30 * 60 * MIN, N + 32 * 60 * MIN, true);
  });

  it("announces the published event opening within 24 hours, then the same event while live", async () => {
    const soon = await rushHeadsUp(db(), PUPIL, N);
    expect(soon).toMatchObject({ event: { id: soonId, title: "Rush del mattino" }, live: false });
    const subjects = await env.DB.prepare("SELECT COUNT(*) AS n FROM subjects").first<{ n: number }>();
    expect(soon!.openSubjects).toHaveLength(subjects!.n);
    expect(await rushHeadsUp(db(), PUPIL, N + 150 * MIN)).toMatchObject({ event: { id: soonId }, live: true });
    // Too early (more than 24 hours ahead), and over.
    expect(await rushHeadsUp(db(), PUPIL, N + 120 * MIN - RUSH_HEADS_UP_MS - 1)).toBeNull();
    expect(await rushHeadsUp(db(), PUPIL, N + 240 * MIN)).toBeNull();
  });

  it("lists only the subjects the student has not started, and hides the card once none is left", async () => {
    await run(
      "INSERT INTO rush_progress (event_id, user_id, subject_id, started_at) VALUES (?, ?, 1, ?)",
      soonId,
      PUPIL,
      N + 130 * MIN,
    ).run();
    const live = await rushHeadsUp(db(), PUPIL, N + 150 * MIN);
    expect(live!.openSubjects.map((s) => s.id)).not.toContain(1);
    await run(
      "INSERT INTO rush_progress (event_id, user_id, subject_id, started_at) SELECT ?, ?, id, ? FROM subjects WHERE id <> 1",
      soonId,
      PUPIL,
      N + 140 * MIN,
    ).run();
    expect(await rushHeadsUp(db(), PUPIL, N + 150 * MIN)).toBeNull();
  });
});

describe("nextOfficialSitting (issue 29)", () => {
  it("is the default edition's next sitting: 10 December 2026 at 11:00 in Rome, then 11 January 2027, then none", async () => {
    expect(await nextOfficialSitting(db(), Date.UTC(2026, 10, 25))).toEqual({
      title: "Primo appello Semestre filtro 2026/27",
      startsAt: Date.UTC(2026, 11, 10, 10),
    });
    expect((await nextOfficialSitting(db(), Date.UTC(2026, 11, 10, 10)))!.startsAt).toBe(Date.UTC(2027, 0, 11, 10));
    expect(await nextOfficialSitting(db(), Date.UTC(2027, 0, 12))).toBeNull();
  });
});
