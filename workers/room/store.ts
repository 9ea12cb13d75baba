// The room's own SQLite (a Durable Object's storage): what must survive eviction, a crash or a release. Three tables:
// `meta` (the simulation, shard, stored plan, closings, grading), `participants` (who sat, and the time they took) and
// `answers` (every answer as it was acknowledged). Only this object writes them, so the meta rows are read once per
// wake-up and written through; a candidate's seat is written once per wake-up (a reconnect writes nothing).
import type { RoomConfig } from "../../app/lib/room-plan";
import type { AnswerMessage, SavedAnswers } from "../../app/lib/simulation-protocol";

/** An answer as the room stores it (an empty value clears the question). */
export type StoredAnswer = Pick<AnswerMessage, "subjectId" | "questionId" | "value">;
export type AnswerRow = { userId: number; answer: StoredAnswer; at: number };
export type ParticipantRow = { user_id: number; time_sec: number | null };

/**
 * Saved answers grouped by SQLite: one row per (student, subject) carrying that subject's answers as a JSON object
 * (question id → value), not one row per answer. Reading a room's 90,000 answers row by row was a third of its grading.
 */
const SAVED_BY_SUBJECT = `SELECT user_id, subject_id, json_group_object(CAST(question_id AS TEXT), value) FROM answers`;
const UPSERT_ANSWER = `ON CONFLICT (user_id, question_id) DO UPDATE SET value = excluded.value, at = excluded.at`;
/** Answers per multi-row write: 5 bound values each, and a Durable Object's SQLite binds at most 100 per statement. */
export const ANSWER_WRITE_ROWS = 20;

/** The rows of SAVED_BY_SUBJECT as each student's saved answers (subject id → question id → value). */
function savedByUserOf(rows: Iterable<[number, number, string]>): Map<number, SavedAnswers> {
  const byUser = new Map<number, SavedAnswers>();
  for (const [userId, subjectId, answers] of rows) {
    let saved = byUser.get(userId);
    if (!saved) {
      saved = {};
      byUser.set(userId, saved);
    }
    saved[String(subjectId)] = JSON.parse(answers) as Record<string, string>;
  }
  return byUser;
}

export class RoomStore {
  private metaCache = new Map<string, string | null>();
  /** Candidates known to have a participants row (this wake-up): a reconnect writes nothing. */
  private seated = new Set<number>();

  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
    sql.exec(
      `CREATE TABLE IF NOT EXISTS answers (user_id INTEGER NOT NULL, subject_id INTEGER NOT NULL, question_id INTEGER NOT NULL,
        value TEXT NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (user_id, question_id))`,
    );
    sql.exec(`CREATE TABLE IF NOT EXISTS participants (user_id INTEGER PRIMARY KEY, time_sec INTEGER)`);
  }

  // --- meta ---

  private meta(key: string): string | null {
    if (this.metaCache.has(key)) return this.metaCache.get(key)!;
    const row = this.sql.exec<{ value: string }>(`SELECT value FROM meta WHERE key = ?`, key).toArray()[0];
    const value = row ? row.value : null;
    this.metaCache.set(key, value);
    return value;
  }

  private setMeta(key: string, value: string) {
    this.sql.exec(
      `INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      key,
      value,
    );
    this.metaCache.set(key, value);
  }

  get simulationId(): string | null {
    return this.meta("simulationId");
  }

  get shard(): number {
    return Number(this.meta("shard") ?? 0);
  }

  /** Which simulation and room this object is (told by the Worker with the first socket, or by the start). */
  name(simulationId: string, shard: number | string) {
    this.setMeta("simulationId", simulationId);
    this.setMeta("shard", String(shard));
  }

  /** How many subjects are closed for every candidate (the alarm's count; all of them once graded). */
  get closedThrough(): number {
    return Number(this.meta("closedThrough") ?? 0);
  }

  set closedThrough(value: number) {
    this.setMeta("closedThrough", String(value));
  }

  get graded(): boolean {
    return this.meta("graded") != null;
  }

  markGraded(at: number) {
    this.setMeta("graded", String(at));
  }

  /** When the alarm last ran: what happened since is done at its next run (openings, deadlines), each once. */
  get alarmRanAt(): number {
    return Number(this.meta("alarmRanAt") ?? 0);
  }

  set alarmRanAt(at: number) {
    this.setMeta("alarmRanAt", String(at));
  }

  /** The plan's stored part, fixed at the start (app/lib/room-plan.ts). */
  get config(): RoomConfig | null {
    const raw = this.meta("config");
    return raw ? (JSON.parse(raw) as RoomConfig) : null;
  }

  set config(config: RoomConfig) {
    this.setMeta("config", JSON.stringify(config));
  }

  // --- participants ---

  /** Gives a candidate their participants row, once per wake-up (INSERT OR IGNORE: a row already there stays). */
  seat(userId: number) {
    if (this.seated.has(userId)) return;
    this.sql.exec(`INSERT OR IGNORE INTO participants (user_id) VALUES (?)`, userId);
    this.seated.add(userId);
  }

  /** A candidate handed in: the time they say they took. */
  setTimeTaken(userId: number, timeSec: number) {
    this.sql.exec(
      `INSERT INTO participants (user_id, time_sec) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET time_sec = excluded.time_sec`,
      userId,
      timeSec,
    );
  }

  participants(): ParticipantRow[] {
    return this.sql.exec<ParticipantRow>(`SELECT user_id, time_sec FROM participants`).toArray();
  }

  timeSecOf(userId: number): number | null | undefined {
    return this.sql
      .exec<{ time_sec: number | null }>(`SELECT time_sec FROM participants WHERE user_id = ?`, userId)
      .toArray()[0]?.time_sec;
  }

  // --- answers ---

  /** One candidate's stored answers (subject id → question id → value), in one read. */
  answersOf(userId: number): SavedAnswers {
    const rows = this.sql
      .exec(`${SAVED_BY_SUBJECT} WHERE user_id = ? GROUP BY subject_id`, userId)
      .raw<[number, number, string]>();
    return savedByUserOf(rows).get(userId) ?? {};
  }

  /** Every stored answer of the room, by student, in one read grouped by SQLite (the live state, the grading). */
  savedByUser(): Map<number, SavedAnswers> {
    return savedByUserOf(
      this.sql.exec(`${SAVED_BY_SUBJECT} GROUP BY user_id, subject_id`).raw<[number, number, string]>(),
    );
  }

  answeredQuestionIds(userId: number): number[] {
    return Array.from(
      this.sql.exec(`SELECT question_id FROM answers WHERE user_id = ?`, userId).raw<[number]>(),
      ([questionId]) => questionId,
    );
  }

  /** The one write of an answer (an empty value clears it). */
  writeAnswer(userId: number, answer: StoredAnswer, at: number) {
    if (answer.value.trim() === "") {
      this.sql.exec(`DELETE FROM answers WHERE user_id = ? AND question_id = ?`, userId, answer.questionId);
      return;
    }
    this.sql.exec(
      `INSERT INTO answers (user_id, subject_id, question_id, value, at) VALUES (?, ?, ?, ?, ?) ${UPSERT_ANSWER}`,
      userId,
      answer.subjectId,
      answer.questionId,
      answer.value,
      at,
    );
  }

  /** Up to ANSWER_WRITE_ROWS answers with a value in one statement, in order (a later one to a question wins). */
  writeAnswers(rows: readonly AnswerRow[]) {
    this.sql.exec(
      `INSERT INTO answers (user_id, subject_id, question_id, value, at) VALUES ${rows.map(() => "(?, ?, ?, ?, ?)").join(", ")}
       ${UPSERT_ANSWER}`,
      ...rows.flatMap((r) => [r.userId, r.answer.subjectId, r.answer.questionId, r.answer.value, r.at]),
    );
  }

  /** How many candidates answered, and how many answers the room holds. */
  answerCounts(): { users: number; answers: number } {
    return this.sql
      .exec<{ users: number; answers: number }>(
        `SELECT count(DISTINCT user_id) AS users, count(*) AS answers FROM answers`,
      )
      .one();
  }

  /** Forgets everything (the simulation was deleted). */
  clear() {
    this.sql.exec(`DELETE FROM meta`);
    this.sql.exec(`DELETE FROM answers`);
    this.sql.exec(`DELETE FROM participants`);
    this.metaCache.clear();
    this.seated.clear();
  }
}
