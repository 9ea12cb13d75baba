// The whole server-side data model. Times are epoch milliseconds (integer, `timestamp_ms`).
// Where to look: users/sessions/login_events (accounts), subjects/topics/questions (the bank),
// quizzes/quiz_questions/attempts/attempt_answers (practice), reports, simulations*, classes/class_members/class_invitations, rush_*, friendships.
import { sql } from "drizzle-orm";
import type { SubjectResult } from "../../lib/simulation";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

const createdAt = () =>
  integer("created_at", { mode: "timestamp_ms" }).notNull().default(sql`(cast(unixepoch('subsec') * 1000 as integer))`);

export const ROLES = ["studente", "docente", "moderator", "admin"] as const;
export type Role = (typeof ROLES)[number];
export const USER_STATUSES = ["attivo", "sospeso"] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    email: text("email").notNull(),
    name: text("name").notNull().default(""),
    firstName: text("first_name"),
    lastName: text("last_name"),
    avatarUrl: text("avatar_url"),
    /** Read-only on the profile screen; also how a friend finds you. */
    username: text("username"),
    phone: text("phone"),
    bio: text("bio"),
    goal: text("goal"),
    city: text("city"),
    school: text("school"),
    schoolYear: integer("school_year"),
    /** ISO date (YYYY-MM-DD). */
    birth: text("birth"),
    /** Codice fiscale, stored uppercase. */
    cf: text("cf"),
    address: text("address"),
    zip: text("zip"),
    telegram: text("telegram"),
    instagram: text("instagram"),
    verified: integer("verified", { mode: "boolean" }).notNull().default(false),
    marketing: integer("marketing", { mode: "boolean" }).notNull().default(false),
    theme: text("theme", { enum: ["dark", "light"] })
      .notNull()
      .default("dark"),
    booked: integer("booked", { mode: "boolean" }).notNull().default(false),
    role: text("role", { enum: ROLES }).notNull().default("studente"),
    status: text("status", { enum: USER_STATUSES }).notNull().default("attivo"),
    suspensionReason: text("suspension_reason"),
    /** Google's stable subject id, set on the first Google sign-in. */
    googleSub: text("google_sub"),
    /** Code a friend can type to send a friendship request. */
    shareCode: text("share_code"),
    /** Accommodation set by an admin: extra time in simulations, in percent (0-100; +30 DSA, +50 disability). */
    extraTimePct: integer("extra_time_pct").notNull().default(0),
    /** The pupil's choice on /profilo: their extra time extends practice timers too. */
    extraTimePractice: integer("extra_time_practice", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
    lastLogin: integer("last_login", { mode: "timestamp_ms" }),
  },
  (t) => [
    uniqueIndex("users_email_unique").on(t.email),
    uniqueIndex("users_username_unique").on(t.username),
    uniqueIndex("users_google_sub_unique").on(t.googleSub),
    uniqueIndex("users_share_code_unique").on(t.shareCode),
    index("users_role_status_idx").on(t.role, t.status),
  ],
);

/** One row per signed-in session; the session token (cookie or Bearer) carries its id. */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    /** Slides: 30 days after the last use (session.server.ts). */
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    /** The last request made with this session (recorded at most every few minutes); null until the first. */
    lastUsedAt: integer("last_used_at", { mode: "timestamp_ms" }),
    /** The browser's User-Agent at sign-in, for the device shown on /profilo. */
    userAgent: text("user_agent"),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/** Every successful sign-in, for the admin's logins per day (existing vs new users). */
export const loginEvents = sqliteTable(
  "login_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    at: integer("at", { mode: "timestamp_ms" }).notNull(),
    isNewUser: integer("is_new_user", { mode: "boolean" }).notNull().default(false),
    method: text("method", { enum: ["google", "dev"] }).notNull(),
  },
  (t) => [index("login_events_at_idx").on(t.at)],
);

export const subjects = sqliteTable("subjects", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
});

/**
 * Syllabus units of the semestre filtro subjects (Chimica, Fisica, Biologia; seed/bank/SYLLABUS.md): a
 * unit's weight in credits sets its share of a 31-question exam. Topics are finer sub-topics under units.
 */
export const units = sqliteTable(
  "units",
  {
    subjectId: integer("subject_id")
      .notNull()
      .references(() => subjects.id, { onDelete: "cascade" }),
    /** The unit's number in the syllabus (1..n within the subject). */
    number: integer("number").notNull(),
    title: text("title").notNull(),
    credits: real("credits").notNull(),
  },
  (t) => [primaryKey({ columns: [t.subjectId, t.number] })],
);

/** Topics and sub-topics: a sub-topic has a parent topic of the same subject. */
export const topics = sqliteTable(
  "topics",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    subjectId: integer("subject_id")
      .notNull()
      .references(() => subjects.id, { onDelete: "cascade" }),
    parentId: integer("parent_id"),
    name: text("name").notNull(),
    /** The syllabus unit (number within the subject) this topic belongs to; null outside the semestre filtro. */
    unit: integer("unit"),
    /** Older admission test only (e.g. human anatomy): never drawn for a semestre filtro exam. */
    legacy: integer("legacy", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [index("topics_subject_idx").on(t.subjectId, t.parentId)],
);

export const QUESTION_TYPES = ["mc", "gap"] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

export const questions = sqliteTable(
  "questions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    subjectId: integer("subject_id")
      .notNull()
      .references(() => subjects.id),
    topicId: integer("topic_id").references(() => topics.id),
    type: text("type", { enum: QUESTION_TYPES }).notNull(),
    stem: text("stem").notNull(),
    /** mc only: the option texts in their stored order; an option's id is its index here. */
    options: text("options", { mode: "json" }).$type<string[]>(),
    /** mc only: index into `options` of the correct one. */
    correctIndex: integer("correct_index"),
    /** gap only: every accepted spelling of the answer. */
    acceptedAnswers: text("accepted_answers", { mode: "json" }).$type<string[]>(),
    explanation: text("explanation").notNull().default(""),
    difficulty: integer("difficulty").notNull().default(3),
    /** The syllabus unit (number within the subject, see `units`); null for Matematica/Ragionamento and legacy ones. */
    unit: integer("unit"),
    /** Older admission test only: never drawn for a semestre filtro exam, still drawn for the older format. */
    legacy: integer("legacy", { mode: "boolean" }).notNull().default(false),
    /** gap only: the unit of measure printed after the blank ("m/s"); a student may type it after the number. */
    measure: text("measure"),
    /** gap only: absolute tolerance for a numeric answer. */
    tolerance: real("tolerance"),
    /** Retired questions stay for old attempts but are never drawn again. */
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    index("questions_subject_topic_idx").on(t.subjectId, t.topicId, t.active),
    index("questions_subject_unit_idx").on(t.subjectId, t.unit, t.type, t.active),
  ],
);

export const QUIZ_KINDS = ["random", "redo", "rush"] as const;

/** A drawn set of questions, stored so that its attempt can be graded against it. */
export const quizzes = sqliteTable(
  "quizzes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    subjectId: integer("subject_id").references(() => subjects.id),
    topicId: integer("topic_id"),
    kind: text("kind", { enum: QUIZ_KINDS }).notNull().default("random"),
    /** Total seconds of the timer, null without a timer. */
    timeLimitSec: integer("time_limit_sec"),
    rushEventId: integer("rush_event_id"),
    /** The exam edition whose split a full-paper draw followed (exam_editions.id), else null. */
    editionId: integer("edition_id"),
    /**
     * Downloaded for offline use (issue 47): a SHA-256 of what the student got (each question's type, text and
     * options, in order), so a submission after an edit of any of them is refused; null for every other quiz.
     */
    offlineHash: text("offline_hash"),
    createdAt: createdAt(),
  },
  (t) => [index("quizzes_user_idx").on(t.userId, t.createdAt)],
);

export const quizQuestions = sqliteTable(
  "quiz_questions",
  {
    quizId: integer("quiz_id")
      .notNull()
      .references(() => quizzes.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    questionId: integer("question_id")
      .notNull()
      .references(() => questions.id),
  },
  (t) => [primaryKey({ columns: [t.quizId, t.position] })],
);

export const ATTEMPT_STATUSES = ["in_progress", "completed", "abandoned"] as const;
export type AttemptStatus = (typeof ATTEMPT_STATUSES)[number];

export const attempts = sqliteTable(
  "attempts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** One attempt per quiz: a retried submission finds the existing one. */
    quizId: integer("quiz_id").references(() => quizzes.id, { onDelete: "set null" }),
    subjectId: integer("subject_id").references(() => subjects.id),
    status: text("status", { enum: ATTEMPT_STATUSES }).notNull().default("completed"),
    startedAt: integer("started_at", { mode: "timestamp_ms" }).notNull(),
    finishedAt: integer("finished_at", { mode: "timestamp_ms" }),
    /** Seconds the student spent (initial seconds minus remaining). */
    timeTaken: integer("time_taken"),
    total: integer("total").notNull().default(0),
    correct: integer("correct").notNull().default(0),
    wrong: integer("wrong").notNull().default(0),
    blank: integer("blank").notNull().default(0),
    /** Summary score on the 0-31 scale: correct/total*31 - 0.1*wrong, one decimal. */
    score: real("score"),
    rushEventId: integer("rush_event_id"),
    /** Client-supplied key that makes POST /api/grade safe to retry. */
    idempotencyKey: text("idempotency_key"),
    /** The exam edition (exam_editions.id) whose format the quiz followed; null for history before editions. */
    editionId: integer("edition_id"),
    /**
     * Taken offline on the student's device (issue 47): open for a week from the download (attemptDeadline), its
     * start and time are the device's, so it is labelled and never ranked by time.
     */
    offline: integer("offline", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [
    index("attempts_user_date_idx").on(t.userId, t.startedAt),
    index("attempts_date_idx").on(t.startedAt),
    uniqueIndex("attempts_quiz_unique").on(t.quizId),
    uniqueIndex("attempts_user_idem_unique").on(t.userId, t.idempotencyKey),
  ],
);

export const attemptAnswers = sqliteTable(
  "attempt_answers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    attemptId: integer("attempt_id")
      .notNull()
      .references(() => attempts.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    questionId: integer("question_id")
      .notNull()
      .references(() => questions.id),
    /** mc: the chosen option's id (its stored index); null when blank. */
    optionId: integer("option_id"),
    /** gap: the text typed; null when blank. */
    answerText: text("answer_text"),
    /** null when blank. */
    correct: integer("correct", { mode: "boolean" }),
    timeSec: integer("time_sec").notNull().default(0),
    answeredAt: integer("answered_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    uniqueIndex("attempt_answers_attempt_pos_unique").on(t.attemptId, t.position),
    index("attempt_answers_question_idx").on(t.questionId),
  ],
);

export const REPORT_STATUSES = ["open", "in_review", "resolved"] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export const reports = sqliteTable(
  "reports",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    questionId: integer("question_id")
      .notNull()
      .references(() => questions.id, { onDelete: "cascade" }),
    attemptId: integer("attempt_id").references(() => attempts.id, { onDelete: "set null" }),
    status: text("status", { enum: REPORT_STATUSES }).notNull().default("open"),
    message: text("message").notNull().default("(nessun dettaglio)"),
    /** What the student answered: an option letter or the typed text. */
    userAnswerKey: text("user_answer_key"),
    assignedScore: real("assigned_score"),
    adminNotes: text("admin_notes"),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    index("reports_status_date_idx").on(t.status, t.createdAt),
    index("reports_user_idx").on(t.userId, t.createdAt),
  ],
);

/** A live group simulation; its id is chosen by the admin and locked once created. */
export const simulations = sqliteTable(
  "simulations",
  {
    id: text("id").primaryKey(),
    title: text("title").notNull(),
    started: integer("started", { mode: "boolean" }).notNull().default(false),
    startTime: integer("start_time", { mode: "timestamp_ms" }),
    /** Set once every room has graded its students and written their attempts. */
    gradedAt: integer("graded_at", { mode: "timestamp_ms" }),
    /**
     * Who created it: a teacher manages only their own simulations (admins manage all). No foreign key:
     * SQLite cannot add one with ON DELETE to an existing table, and user ids are never reused (AUTOINCREMENT),
     * so a deleted teacher's simulations simply become admin-only.
     */
    createdBy: integer("created_by"),
    /** How many rooms (Durable Objects "<id>:<shard>") the simulation runs in; fixed at start. */
    shards: integer("shards").notNull().default(1),
    /** The exam edition (exam_editions.id) a template simulation follows; null when made by hand. */
    editionId: integer("edition_id"),
    createdAt: createdAt(),
    /** How many attempts the final ranking holds (issue 31), written with it; null until ranked. */
    rankedCount: integer("ranked_count"),
    /**
     * Bumped by every save (issue 31): the version of the plan (subjects and drawn questions) before Avvia, so that a
     * Worker may keep it per isolate and seal the subjects for candidates waiting in the lobby.
     */
    planVersion: integer("plan_version").notNull().default(0),
    /**
     * THE sitting's timeline (issue 44), stored at Avvia by sittingTimeline (app/lib/sitting-timeline.ts): when the
     * latest candidate's exam ends (extra time included) and until when its questions stay sealed. Every reader (the
     * seal, the door, /simulazioni, the room, the result pages, the runner) reads these; nothing else computes an end.
     */
    endsAt: integer("ends_at", { mode: "timestamp_ms" }),
    sealUntil: integer("seal_until", { mode: "timestamp_ms" }),
    /**
     * Whom its seal covers (issue 44, the seal policy in app/server/simulation/seal.server.ts), fixed at Avvia: "all"
     * for a simulation an admin created (a national sitting), "audience" for a teacher's (its listed users and the
     * members of its classes). Null before Avvia.
     */
    sealScope: text("seal_scope", { enum: ["all", "audience"] }),
    /**
     * A student's exam day alone (issue 46, point 2): whose it is. Null for a group simulation. Its audience is that one
     * student (simulation_allowed_users and a seat), so the door, the room, the seal ("audience") and the grading treat it
     * as any simulation; the staff lists and /simulazioni leave it out (app/server/simulation/solo.server.ts).
     */
    soloUserId: integer("solo_user_id"),
  },
  (t) => [index("simulations_solo_user_idx").on(t.soloUserId)],
);

export const simulationSubjects = sqliteTable(
  "simulation_subjects",
  {
    simulationId: text("simulation_id")
      .notNull()
      .references(() => simulations.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    subjectId: integer("subject_id")
      .notNull()
      .references(() => subjects.id),
    timeMin: integer("time_min").notNull(),
    questionCount: integer("question_count").notNull(),
    /** Break after this subject, in minutes (15 in the real semestre filtro). */
    breakAfterMin: integer("break_after_min").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.simulationId, t.position] })],
);

export const simulationQuestions = sqliteTable(
  "simulation_questions",
  {
    simulationId: text("simulation_id")
      .notNull()
      .references(() => simulations.id, { onDelete: "cascade" }),
    subjectPosition: integer("subject_position").notNull(),
    position: integer("position").notNull(),
    questionId: integer("question_id")
      .notNull()
      .references(() => questions.id),
  },
  (t) => [primaryKey({ columns: [t.simulationId, t.subjectPosition, t.position] })],
);

export const simulationAllowedUsers = sqliteTable(
  "simulation_allowed_users",
  {
    simulationId: text("simulation_id")
      .notNull()
      .references(() => simulations.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Unused since issue 31 (rooms live in simulation_seats, for class members too); kept for the additive migration. */
    shard: integer("shard"),
  },
  (t) => [primaryKey({ columns: [t.simulationId, t.userId] }), index("sim_allowed_user_idx").on(t.userId)],
);

/**
 * Every audience member's room (issue 31), listed users and class members alike: written at save (spread evenly over
 * ceil(audience / 1,000) rooms) and completed at Avvia for whoever joined since, never moving anyone already seated.
 * Membership itself stays live (simulationAudience); this is only where a member sits.
 */
export const simulationSeats = sqliteTable(
  "simulation_seats",
  {
    simulationId: text("simulation_id")
      .notNull()
      .references(() => simulations.id, { onDelete: "cascade" }),
    userId: integer("user_id").notNull(),
    shard: integer("shard").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.simulationId, t.userId] }),
    index("sim_seats_shard_idx").on(t.simulationId, t.shard),
  ],
);

/** Classes allowed into a simulation: their members are evaluated when a student opens it. */
/**
 * The extra time of each accommodated candidate of a started simulation (only those above 0 %), fixed at the start
 * (app/lib/simulation-day.ts: the max of the user's own and their relevant class memberships), so that the rooms,
 * the student view and the runner all read the same deadline whatever changes during the exam.
 */
export const simulationAccommodations = sqliteTable(
  "simulation_accommodations",
  {
    simulationId: text("simulation_id")
      .notNull()
      .references(() => simulations.id, { onDelete: "cascade" }),
    userId: integer("user_id").notNull(),
    extraTimePct: integer("extra_time_pct").notNull(),
  },
  (t) => [primaryKey({ columns: [t.simulationId, t.userId] })],
);

export const simulationAllowedClasses = sqliteTable(
  "simulation_allowed_classes",
  {
    simulationId: text("simulation_id")
      .notNull()
      .references(() => simulations.id, { onDelete: "cascade" }),
    classId: integer("class_id")
      .notNull()
      .references(() => classes.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.simulationId, t.classId] }), index("sim_allowed_class_idx").on(t.classId)],
);

// --- Classes: a teacher's group of students, joined with a code or by accepting an invitation sent by e-mail. ---

export const classes = sqliteTable(
  "classes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    /** Join code, easy to read aloud (no 0/O, 1/I); a new code replaces the old one. */
    code: text("code").notNull(),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("classes_code_unique").on(t.code), index("classes_owner_idx").on(t.ownerId)],
);

export const classMembers = sqliteTable(
  "class_members",
  {
    classId: integer("class_id")
      .notNull()
      .references(() => classes.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    joinedAt: integer("joined_at", { mode: "timestamp_ms" })
      .notNull()
      .default(sql`(cast(unixepoch('subsec') * 1000 as integer))`),
    /** Accommodation set by the class's teacher for this pupil: extra time in percent (0-100). */
    extraTimePct: integer("extra_time_pct").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.classId, t.userId] }), index("class_members_user_idx").on(t.userId)],
);

/**
 * A teacher's invitation into a class by e-mail: the pupil accepts (becoming a member) or declines on /profilo.
 * Keyed by the address as typed (trimmed, lowercased), whether or not it has an account yet: its owner sees it
 * once they sign in. Accepting deletes the row; a declined one stays so that inviting again does not show it anew.
 */
export const CLASS_INVITATION_STATUSES = ["pending", "declined"] as const;
export const classInvitations = sqliteTable(
  "class_invitations",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    classId: integer("class_id")
      .notNull()
      .references(() => classes.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    status: text("status", { enum: CLASS_INVITATION_STATUSES }).notNull().default("pending"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("class_invitations_class_email_unique").on(t.classId, t.email),
    index("class_invitations_email_idx").on(t.email),
  ],
);

/** One row per room once it has graded its students: the simulation is graded when every room is. */
export const simulationRooms = sqliteTable(
  "simulation_rooms",
  {
    simulationId: text("simulation_id")
      .notNull()
      .references(() => simulations.id, { onDelete: "cascade" }),
    shard: integer("shard").notNull(),
    attempts: integer("attempts").notNull(),
    gradedAt: integer("graded_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.simulationId, t.shard] })],
);

/** A subject's line of a graded simulation attempt: the room's SubjectResult (app/lib/simulation.ts). */
export type SimulationSubjectResult = SubjectResult;

export const simulationAttempts = sqliteTable(
  "simulation_attempts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    simulationId: text("simulation_id")
      .notNull()
      .references(() => simulations.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Map subject id -> map question id -> answer (option text or gap string). */
    answers: text("answers", { mode: "json" }).$type<Record<string, Record<string, string>>>().notNull(),
    subjectsResult: text("subjects_result", { mode: "json" }).$type<SimulationSubjectResult[]>().notNull(),
    /** Rounded average of the subjects' scores (0-31). */
    score: real("score").notNull(),
    perc: integer("perc").notNull(),
    timeSec: integer("time_sec").notNull().default(0),
    createdAt: createdAt(),
    /**
     * The final ranking (issue 31), written once when the last room has graded: `rankRow` is the 1-based place in
     * the order of rank_key (desc; user asc only breaks the row order), `rankPos` the shared position of ties, `rankBelow` how many
     * scored strictly less (the percentile's numerator). Null until the simulation is graded.
     */
    rankRow: integer("rank_row"),
    rankPos: integer("rank_pos"),
    rankBelow: integer("rank_below"),
    /**
     * What orders the ranking (issue 44): rankKey(result, edition) from app/lib/rank-key.ts, written by the grading
     * write; equal keys share a position and no number a client sends (the time taken) decides an order. Null on rows
     * written before it (the ranking then reads the score).
     */
    rankKey: real("rank_key"),
  },
  (t) => [
    uniqueIndex("sim_attempts_sim_user_unique").on(t.simulationId, t.userId),
    index("sim_attempts_sim_score_idx").on(t.simulationId, t.score),
    index("sim_attempts_sim_rank_idx").on(t.simulationId, t.rankRow),
  ],
);

export const rushEvents = sqliteTable(
  "rush_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    title: text("title").notNull(),
    startsAt: integer("starts_at", { mode: "timestamp_ms" }).notNull(),
    endsAt: integer("ends_at", { mode: "timestamp_ms" }).notNull(),
    published: integer("published", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index("rush_events_window_idx").on(t.published, t.startsAt, t.endsAt)],
);

/** One row per user, event and subject: the score recorded from the graded attempt. */
export const rushProgress = sqliteTable(
  "rush_progress",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    eventId: integer("event_id")
      .notNull()
      .references(() => rushEvents.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    subjectId: integer("subject_id")
      .notNull()
      .references(() => subjects.id),
    attemptId: integer("attempt_id").references(() => attempts.id, { onDelete: "set null" }),
    score: real("score"),
    timeSec: integer("time_sec"),
    startedAt: integer("started_at", { mode: "timestamp_ms" }).notNull(),
    finishedAt: integer("finished_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    uniqueIndex("rush_progress_unique").on(t.eventId, t.userId, t.subjectId),
    index("rush_progress_rank_idx").on(t.eventId, t.subjectId, t.score),
  ],
);

export const FRIENDSHIP_STATUSES = ["pending", "accepted"] as const;

export const friendships = sqliteTable(
  "friendships",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    requesterId: integer("requester_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    addresseeId: integer("addressee_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: text("status", { enum: FRIENDSHIP_STATUSES }).notNull().default("pending"),
    createdAt: createdAt(),
    respondedAt: integer("responded_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    uniqueIndex("friendships_pair_unique").on(t.requesterId, t.addresseeId),
    index("friendships_addressee_idx").on(t.addresseeId, t.status),
  ],
);

export type User = typeof users.$inferSelect;
export type Question = typeof questions.$inferSelect;
export type Attempt = typeof attempts.$inferSelect;
export type Report = typeof reports.$inferSelect;

// --- Site-wide aggregates for analytics: maintained as attempts land (or rebuilt in bulk by
// recalc-stats), so dashboards never rescan every answer. ---

/** How many completed attempts of a subject scored each whole point 0-31 (summary score, rounded). */
export const statScoreHistogram = sqliteTable(
  "stat_score_histogram",
  {
    subjectId: integer("subject_id").notNull(),
    score: integer("score").notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.subjectId, t.score] })],
);

/** Answers and correct answers per topic, over every student. */
export const statTopicAccuracy = sqliteTable("stat_topic_accuracy", {
  topicId: integer("topic_id").primaryKey(),
  subjectId: integer("subject_id").notNull(),
  answered: integer("answered").notNull().default(0),
  correct: integer("correct").notNull().default(0),
});

/** Completed attempts and their score sum per subject and day (YYYY-MM-DD, UTC). */
export const statDailyScores = sqliteTable(
  "stat_daily_scores",
  {
    subjectId: integer("subject_id").notNull(),
    day: text("day").notNull(),
    attempts: integer("attempts").notNull().default(0),
    scoreSum: real("score_sum").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.subjectId, t.day] })],
);

/**
 * The stats version (issue 33): one row (id 1), raised whenever anything a dashboard shares changes. `taxonomy` is
 * raised by triggers on the bank's shape (subjects, topics, units, exam editions, question units, questions' topics);
 * `version` by those and by every change to the aggregates (a trigger on stat_score_histogram, which every attempt
 * landing, rebuild and erasure writes, and an explicit bump in the rebuild). The triggers are in migrations/NNNN_stats_triggers.sql.
 */
export const statsVersion = sqliteTable("stats_version", {
  id: integer("id").primaryKey(),
  version: integer("version").notNull().default(1),
  taxonomy: integer("taxonomy").notNull().default(1),
});

/**
 * The dashboard's shared part, composed once per stats version (app/server/shared-stats.server.ts): one row (id 1),
 * the newest built. `body` is JSON; `daily_from` the first day of the daily averages it holds.
 */
export const statsSnapshot = sqliteTable("stats_snapshot", {
  id: integer("id").primaryKey(),
  version: integer("version").notNull(),
  taxonomy: integer("taxonomy").notNull(),
  dailyFrom: text("daily_from").notNull(),
  body: text("body").notNull(),
  builtAt: integer("built_at", { mode: "timestamp_ms" }).notNull(),
});

/** Answers and correct answers per question over every student (practice, redo, Rush): the peer difficulty. */
export const statQuestionAccuracy = sqliteTable("stat_question_accuracy", {
  questionId: integer("question_id").primaryKey(),
  answered: integer("answered").notNull().default(0),
  correct: integer("correct").notNull().default(0),
});

// --- Learning engine: one FSRS memory state per student and question (ts-fsrs card fields), updated
// in the grading write of every answer and rebuilt from history by recalc-stats. ---
export const questionMemory = sqliteTable(
  "question_memory",
  {
    // No foreign keys (issue 31): each written row checked both parents, three rows read per memory row on a national
    // day's grading. The triggers of migration question_memory_no_fk delete a user's or a question's memories instead.
    // That migration also makes the table WITHOUT ROWID (by hand: drizzle cannot say it); a future rebuild of this
    // table by drizzle-kit must keep both.
    userId: integer("user_id").notNull(),
    questionId: integer("question_id").notNull(),
    /** When the question is due for review (FSRS, never earlier than 24 h after a mistake). */
    due: integer("due", { mode: "timestamp_ms" }).notNull(),
    stability: real("stability").notNull(),
    difficulty: real("difficulty").notNull(),
    scheduledDays: integer("scheduled_days").notNull().default(0),
    learningSteps: integer("learning_steps").notNull().default(0),
    reps: integer("reps").notNull().default(0),
    lapses: integer("lapses").notNull().default(0),
    /** ts-fsrs State: 0 new, 1 learning, 2 review, 3 relearning. */
    state: integer("state").notNull().default(0),
    lastReview: integer("last_review", { mode: "timestamp_ms" }).notNull(),
    /** The latest answer: true right, false wrong, null blank. */
    lastCorrect: integer("last_correct", { mode: "boolean" }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.questionId] }), index("question_memory_user_due_idx").on(t.userId, t.due)],
);
export type QuestionMemory = typeof questionMemory.$inferSelect;

// --- Staff audit log: who changed what, when (bans, roles, deletions, reports, imports, resets). ---
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    actorId: integer("actor_id"),
    actorEmail: text("actor_email").notNull(),
    action: text("action").notNull(),
    targetType: text("target_type"),
    targetId: text("target_id"),
    details: text("details", { mode: "json" }).$type<Record<string, unknown>>(),
    at: integer("at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("audit_log_at_idx").on(t.at)],
);

// --- First-party analytics and consent (no third-party scripts). ---

/** A page view, stored only for visitors who accepted analytics cookies. */
export const pageViews = sqliteTable(
  "page_views",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    path: text("path").notNull(),
    userId: integer("user_id"),
    visitorId: text("visitor_id"),
    referrer: text("referrer"),
    at: integer("at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("page_views_at_idx").on(t.at)],
);

/** Proof of each cookie-consent choice (kept up to 10 years, spec section 9). */
export const consentRecords = sqliteTable(
  "consent_records",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    visitorId: text("visitor_id").notNull(),
    userId: integer("user_id"),
    preferences: integer("preferences", { mode: "boolean" }).notNull(),
    analytics: integer("analytics", { mode: "boolean" }).notNull(),
    marketing: integer("marketing", { mode: "boolean" }).notNull(),
    policyVersion: text("policy_version").notNull(),
    at: integer("at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("consent_records_visitor_idx").on(t.visitorId, t.at)],
);

// --- Exam editions (issue 29): the real exam of an academic year, as data an admin edits. ---

/**
 * One academic year's exam: split, minutes, breaks, scoring, grade rule, sittings and syllabus units live in
 * `format` (app/lib/edition.ts checks its shape); exactly one row is the default edition.
 */
export const examEditions = sqliteTable(
  "exam_editions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** "2026/27". */
    academicYear: text("academic_year").notNull(),
    label: text("label").notNull(),
    /** provvisorio (second-hand facts, with `source`) or confermato (read in the official text). */
    status: text("status", { enum: ["provvisorio", "confermato"] }).notNull(),
    source: text("source"),
    isDefault: integer("is_default", { mode: "boolean" }).notNull().default(false),
    format: text("format", { mode: "json" }).$type<import("../../lib/edition").EditionFormat>().notNull(),
    /** Raised by every change: per-isolate caches compare it. */
    version: integer("version").notNull().default(1),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [uniqueIndex("exam_editions_year_idx").on(t.academicYear)],
);

/**
 * A question's syllabus unit in an exam edition (issue 30): the bank's `unit` for 2025/26, `unit2627` for 2026/27.
 * No row: the question is outside that edition's syllabus (fuori programma), never drawn for it.
 */
export const questionEditionUnits = sqliteTable(
  "question_edition_units",
  {
    editionId: integer("edition_id")
      .notNull()
      .references(() => examEditions.id, { onDelete: "cascade" }),
    questionId: integer("question_id")
      .notNull()
      .references(() => questions.id, { onDelete: "cascade" }),
    unit: integer("unit").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.editionId, t.questionId] }),
    index("question_edition_units_question_idx").on(t.questionId),
  ],
);

// --- Compiti (issue 32): a teacher assigns a practice set to a class, with an opening and a due date. ---

/** "comune": one set drawn at creation, the same for every pupil; "mirato": a Test mirato drawn per pupil at start. */
export const ASSIGNMENT_MODES = ["comune", "mirato"] as const;
export type AssignmentMode = (typeof ASSIGNMENT_MODES)[number];

export const assignments = sqliteTable(
  "assignments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    classId: integer("class_id")
      .notNull()
      .references(() => classes.id, { onDelete: "cascade" }),
    /** The teacher who set it (no foreign key, like simulations.created_by: user ids are never reused). */
    createdBy: integer("created_by").notNull(),
    title: text("title").notNull(),
    subjectId: integer("subject_id")
      .notNull()
      .references(() => subjects.id),
    questionCount: integer("question_count").notNull(),
    /** The edition's timer for this many questions (seconds), null without a timer. */
    timeLimitSec: integer("time_limit_sec"),
    mode: text("mode", { enum: ASSIGNMENT_MODES }).notNull().default("comune"),
    /** Syllabus units (numbers in `editionId`'s syllabus) the questions come from; null: the whole subject. */
    units: text("units", { mode: "json" }).$type<number[]>(),
    /** The exam edition whose syllabus and timer the assignment follows. */
    editionId: integer("edition_id"),
    opensAt: integer("opens_at", { mode: "timestamp_ms" }).notNull(),
    dueAt: integer("due_at", { mode: "timestamp_ms" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("assignments_class_due_idx").on(t.classId, t.dueAt)],
);

/** The common set of a "comune" assignment, in order. */
export const assignmentQuestions = sqliteTable(
  "assignment_questions",
  {
    assignmentId: integer("assignment_id")
      .notNull()
      .references(() => assignments.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    questionId: integer("question_id")
      .notNull()
      .references(() => questions.id),
  },
  (t) => [primaryKey({ columns: [t.assignmentId, t.position] })],
);

/** Each pupil's practice quiz for an assignment (graded like practice: quizzes/attempts). */
export const assignmentQuizzes = sqliteTable(
  "assignment_quizzes",
  {
    assignmentId: integer("assignment_id")
      .notNull()
      .references(() => assignments.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    quizId: integer("quiz_id")
      .notNull()
      .references(() => quizzes.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.assignmentId, t.userId] }),
    uniqueIndex("assignment_quizzes_quiz_unique").on(t.quizId),
  ],
);

// --- The road to the sitting (issue 46): a student's plan to a sitting, and the grades they received. ---

/**
 * A student's plan to one sitting of an exam edition: the sitting (its date, from the edition's format) and the
 * minutes a day they have, with optional minutes per weekday (Monday first; 0: a day off). The days themselves are
 * computed on every read from what the product knows (app/lib/study-plan.ts), never stored.
 */
export const studyPlans = sqliteTable("study_plans", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  editionId: integer("edition_id")
    .notNull()
    .references(() => examEditions.id, { onDelete: "cascade" }),
  /** The sitting's Rome date (YYYY-MM-DD), one of the edition's sittings when saved. */
  sittingDate: text("sitting_date").notNull(),
  minutesPerDay: integer("minutes_per_day").notNull(),
  /** Seven entries, Monday first: the minutes of that weekday, null for minutesPerDay. */
  weekdayMinutes: text("weekday_minutes", { mode: "json" }).$type<(number | null)[]>(),
  createdAt: createdAt(),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
});

/**
 * The grades a student received at a sitting, as they entered them (self-reported, private: only the student reads
 * their rows; aggregates need at least 30 students). `grade` null: the exam was not sat (non sostenuto).
 */
export const sittingGrades = sqliteTable(
  "sitting_grades",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    editionId: integer("edition_id")
      .notNull()
      .references(() => examEditions.id, { onDelete: "cascade" }),
    sittingDate: text("sitting_date").notNull(),
    subjectId: integer("subject_id").notNull(),
    /** As published: 31 = 30 e lode; below the pass mark unrounded (17,8). */
    grade: real("grade"),
    enteredAt: integer("entered_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.editionId, t.sittingDate, t.subjectId] }),
    index("sitting_grades_sitting_idx").on(t.editionId, t.sittingDate, t.subjectId),
  ],
);

/**
 * The forecast as it stood each day (issue 46, point 4): per student, Rome day and exam subject, P(raw score ≥ the
 * edition's pass mark) on one paper, the last value computed that day. Read back the day before a sitting to compare
 * with the grades the student entered (admin analytics, calibration). Private like the grades it is compared with.
 */
export const forecastDays = sqliteTable(
  "forecast_days",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Rome calendar day, YYYY-MM-DD. */
    day: text("day").notNull(),
    subjectId: integer("subject_id").notNull(),
    passProbability: real("pass_probability").notNull(),
    /** The expected raw score on one paper (the forecast's centre). */
    predicted: real("predicted"),
  },
  (t) => [primaryKey({ columns: [t.userId, t.subjectId, t.day] })],
);
