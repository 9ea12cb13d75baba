// Rows for the fuzz test (api-fuzz.test.ts): fresh rows of every kind an address or a screen's post names, written
// straight into D1 (or through the service where the row has a shape of its own: simulations), so each request can
// be sent with the id of a row that exists, one of its caller's and one of someone else's, and a write the request is
// allowed to make (a delete, a start) never takes a row another request needs.
import { env } from "cloudflare:test";
import { newJoinCode } from "~/server/classes.server";
import { getDb } from "~/server/db/client.server";
import { saveSimulation } from "../../app/server/simulation/admin.server";

let serial = 0;
const next = () => `${Date.now().toString(36)}${(++serial).toString(36)}`;

/** How many writes these helpers made: the fuzz reads its write log afresh after any. */
export const fixtureWrites = { count: 0 };

async function insert(sql: string, ...values: unknown[]): Promise<number> {
  fixtureWrites.count++;
  const row = await env.DB.prepare(`${sql} RETURNING id`)
    .bind(...values)
    .first<{ id: number }>();
  return row!.id;
}

export async function userIdOf(email: string): Promise<number> {
  const row = await env.DB.prepare("SELECT id FROM users WHERE email = ?").bind(email).first<{ id: number }>();
  return row!.id;
}

export function freshUser(role: "studente" | "docente" = "studente"): Promise<number> {
  const tag = next();
  return insert(
    "INSERT INTO users (email, name, username, role) VALUES (?, ?, ?, ?)",
    `fuzz-${tag}@example.com`,
    `Fuzz ${tag}`,
    `fuzz.${tag}`,
    role,
  );
}

/** Two active multiple-choice questions of subject 1 (a quiz's and an attempt's questions). */
async function someQuestions(): Promise<number[]> {
  const { results } = await env.DB.prepare(
    "SELECT id FROM questions WHERE subject_id = 1 AND type = 'mc' AND active = 1 ORDER BY id LIMIT 2",
  ).all<{ id: number }>();
  return results.map((r) => r.id);
}

/** A copy of a bank question (an edit through the console changes this one, not the bank's). */
export async function freshQuestion(): Promise<number> {
  const [source] = await someQuestions();
  const row = await env.DB.prepare("SELECT * FROM questions WHERE id = ?")
    .bind(source)
    .first<Record<string, unknown>>();
  const columns = Object.keys(row!).filter((c) => c !== "id");
  return insert(
    `INSERT INTO questions (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
    ...columns.map((c) => row![c]),
  );
}

/** A drawn, not yet submitted quiz of two questions, with the open attempt its draw starts. */
export async function freshQuiz(userId: number): Promise<number> {
  const quizId = await insert("INSERT INTO quizzes (user_id, subject_id, kind) VALUES (?, 1, 'random')", userId);
  const questions = await someQuestions();
  fixtureWrites.count++;
  await env.DB.batch([
    ...questions.map((q, position) =>
      env.DB.prepare("INSERT INTO quiz_questions (quiz_id, position, question_id) VALUES (?, ?, ?)").bind(
        quizId,
        position,
        q,
      ),
    ),
    env.DB.prepare(
      "INSERT INTO attempts (user_id, quiz_id, subject_id, status, started_at, total) VALUES (?, ?, 1, 'in_progress', ?, ?)",
    ).bind(userId, quizId, Date.now() - 60_000, questions.length),
  ]);
  return quizId;
}

/** A completed attempt with one answered question. */
export async function freshAttempt(userId: number): Promise<number> {
  const at = Date.now() - 3_600_000;
  const attemptId = await insert(
    `INSERT INTO attempts (user_id, subject_id, status, started_at, finished_at, time_taken, total, correct, wrong, blank, score)
     VALUES (?, 1, 'completed', ?, ?, 60, 1, 1, 0, 0, 31)`,
    userId,
    at,
    at + 60_000,
  );
  const [question] = await someQuestions();
  fixtureWrites.count++;
  await env.DB.prepare(
    "INSERT INTO attempt_answers (attempt_id, position, question_id, option_id, correct, time_sec, answered_at) VALUES (?, 0, ?, 0, 1, 5, ?)",
  )
    .bind(attemptId, question, at)
    .run();
  return attemptId;
}

export function freshFriendship(requesterId: number, addresseeId: number, status: "pending" | "accepted") {
  return insert(
    "INSERT INTO friendships (requester_id, addressee_id, status, responded_at) VALUES (?, ?, ?, ?)",
    requesterId,
    addresseeId,
    status,
    status === "accepted" ? Date.now() : null,
  );
}

export async function freshClass(ownerId: number, memberIds: number[] = []): Promise<{ id: number; code: string }> {
  const code = newJoinCode();
  const id = await insert(
    "INSERT INTO classes (name, code, owner_id) VALUES (?, ?, ?)",
    `Fuzz ${next()}`,
    code,
    ownerId,
  );
  fixtureWrites.count++;
  for (const member of memberIds)
    await env.DB.prepare("INSERT INTO class_members (class_id, user_id) VALUES (?, ?)").bind(id, member).run();
  return { id, code };
}

export async function freshReport(userId: number): Promise<number> {
  const [question] = await someQuestions();
  return insert("INSERT INTO reports (user_id, question_id, message) VALUES (?, ?, 'Fuzz')", userId, question);
}

/** An unpublished Rush event far in the future (so it never overlaps the live one). */
export function freshRushEvent(): Promise<number> {
  const start = Date.UTC(2090, 0, 1) + serial * 3_600_000;
  return insert(
    "INSERT INTO rush_events (title, starts_at, ends_at, published) VALUES (?, ?, ?, 0)",
    `Fuzz ${next()}`,
    start,
    start + 1_800_000,
  );
}

/** A simulation created by `createdBy` through the console's service, open to `allowedUsers`; not started. */
export async function freshSimulation(
  createdBy: { id: number; role: "studente" | "docente" | "moderator" | "admin" },
  allowedUsers: number[] = [],
): Promise<string> {
  const id = `fuzz-${next()}`;
  fixtureWrites.count++;
  await saveSimulation(
    getDb(env.DB),
    {
      id,
      title: `Fuzz ${id}`,
      subjects: [{ subjectId: 1, timeMin: 5, questionCount: 2 }],
      allowedUsers,
      allowedClasses: [],
    },
    // Saved as an admin (a teacher may open a simulation only to their own pupils, issue 28); the row's owner is
    // then who it says, whatever their role.
    { id: createdBy.id, effectiveRole: "admin" },
  );
  await env.DB.prepare("UPDATE simulations SET created_by = ? WHERE id = ?").bind(createdBy.id, id).run();
  return id;
}

/**
 * A student's day alone (issue 46), started a minute ago and in its first paper (one subject of an hour, then a break):
 * its student's skip-break reaches the service (409, not in a break) where anyone else's gets a 404.
 */
export async function freshSoloDay(userId: number): Promise<string> {
  const id = `fuzz-solo-${next()}`;
  const start = Date.now() - 60_000;
  fixtureWrites.count++;
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO simulations (id, title, started, shards, solo_user_id, created_at) VALUES (?, 'Fuzz da solo', 0, 1, ?, ?)",
    ).bind(id, userId, start),
    env.DB.prepare(
      "INSERT INTO simulation_subjects (simulation_id, position, subject_id, time_min, question_count, break_after_min) VALUES (?, 0, 1, 60, 0, 30), (?, 1, 2, 60, 0, 0)",
    ).bind(id, id),
    env.DB.prepare("INSERT INTO simulation_allowed_users (simulation_id, user_id) VALUES (?, ?)").bind(id, userId),
    env.DB.prepare(
      "UPDATE simulations SET started = 1, start_time = ?, ends_at = ?, seal_until = ?, seal_scope = 'audience' WHERE id = ?",
    ).bind(start, start + 150 * 60_000, start + 151 * 60_000, id),
  ]);
  return id;
}

/** A graded simulation attempt (the row the result screen shows). */
export function freshSimulationAttempt(simulationId: string, userId: number): Promise<number> {
  return insert(
    `INSERT INTO simulation_attempts (simulation_id, user_id, answers, subjects_result, score, perc, time_sec)
     VALUES (?, ?, '{}', '[]', 20, 50, 300)`,
    simulationId,
    userId,
  );
}

/**
 * Deletes the simulations made here: the console lists every simulation with a few reads each, so hundreds of them
 * would make each of its loads take seconds.
 */
export async function dropFreshSimulations(): Promise<void> {
  fixtureWrites.count++;
  await env.DB.prepare("DELETE FROM simulations WHERE id LIKE 'fuzz-%'").run();
}

/** A pending invitation of a class to an address (the invited user's e-mail, or anyone's). */
export async function freshInvitation(classId: number, userId: number | null): Promise<number> {
  const email = userId
    ? ((await env.DB.prepare("SELECT email FROM users WHERE id = ?").bind(userId).first<{ email: string }>())?.email ??
      `fuzz-${next()}@example.com`)
    : `fuzz-${next()}@example.com`;
  return insert("INSERT INTO class_invitations (class_id, email) VALUES (?, ?)", classId, email.toLowerCase());
}

/** An assignment (compito, issue 32) of a class, open now and due tomorrow: a Test mirato, so it needs no stored set. */
export function freshAssignment(classId: number, createdBy: number): Promise<number> {
  return insert(
    "INSERT INTO assignments (class_id, created_by, title, subject_id, question_count, mode, opens_at, due_at) VALUES (?, ?, ?, 1, 3, 'mirato', ?, ?)",
    classId,
    createdBy,
    `Fuzz ${next()}`,
    Date.now() - 60_000,
    Date.now() + 86_400_000,
  );
}
