// Demo data: the question bank (seed/bank/*.json), the demo accounts, and a generated history
// (about 50 synthetic students, attempts over the last 60 days) so dashboards show real numbers.
// Every row has a fixed id and is written with INSERT OR IGNORE: seeding twice changes nothing.
// Pure TypeScript (erasable syntax only): run by scripts/db-setup.ts in Node and by tests in workerd.
import { memoryColumns, replayMemory, type ReviewInput } from "../app/lib/fsrs-rating.ts";
import type { BankFile } from "../app/lib/bank-rules.ts";
import { summaryScore } from "../app/lib/scoring.ts";
import { REBUILD_AGGREGATES_SQL } from "../app/server/db/aggregate-sql.ts";
import biologia from "./bank/biologia.json" with { type: "json" };
import chimica from "./bank/chimica.json" with { type: "json" };
import fisica from "./bank/fisica.json" with { type: "json" };
import matematica from "./bank/matematica.json" with { type: "json" };
import ragionamento from "./bank/ragionamento.json" with { type: "json" };
import { prng } from "../app/lib/prng.ts";

export type { BankFile, BankQuestion } from "../app/lib/bank-rules.ts";

/** Subjects in id order 1..5: Biologia, Chimica, Matematica, Fisica, Ragionamento Logico. */
export const BANK: BankFile[] = [biologia, chimica, matematica, fisica, ragionamento] as BankFile[];

/** The seed editions' fixed ids (migrations/0008_exam_editions.sql writes them from seed/editions.ts, in this order). */
export const EDITION_IDS = { "2025/26": 1, "2026/27": 2 } as const;

export const DEMO_USERS = [
  {
    id: 1,
    email: "studente@example.com",
    name: "Giulia Rossi",
    firstName: "Giulia",
    lastName: "Rossi",
    username: "giulia.rossi",
    role: "studente",
    status: "attivo",
    reason: null,
  },
  {
    id: 2,
    email: "amico@example.com",
    name: "Marco Bianchi",
    firstName: "Marco",
    lastName: "Bianchi",
    username: "marco.bianchi",
    role: "studente",
    status: "attivo",
    reason: null,
  },
  {
    id: 3,
    email: "moderatore@example.com",
    name: "Sara Conti",
    firstName: "Sara",
    lastName: "Conti",
    username: "sara.conti",
    role: "moderator",
    status: "attivo",
    reason: null,
  },
  {
    id: 4,
    email: "admin@example.com",
    name: "Luca Ferri",
    firstName: "Luca",
    lastName: "Ferri",
    username: "luca.ferri",
    role: "admin",
    status: "attivo",
    reason: null,
  },
  {
    id: 5,
    email: "sospeso@example.com",
    name: "Paolo Greco",
    firstName: "Paolo",
    lastName: "Greco",
    username: "paolo.greco",
    role: "studente",
    status: "sospeso",
    reason: "Violazione del regolamento",
  },
  {
    id: 6,
    email: "docente@example.com",
    name: "Anna Moretti",
    firstName: "Anna",
    lastName: "Moretti",
    username: "anna.moretti",
    role: "docente",
    status: "attivo",
    reason: null,
  },
] as const;

/**
 * The demo class of the teacher (issue 11): the demo student, the friend and 25 synthetic students,
 * and a not-yet-started simulation for it with the spec's sample fallback flow, so a newcomer can sign
 * in as docente, press Avvia and watch the student's screen start.
 */
export const DEMO_CLASS = { id: 1, name: "5ªB Liceo Volta", code: "5BVLTA", ownerId: 6, syntheticMembers: 25 } as const;
export const DEMO_CLASS_SIMULATION = {
  id: "demo-5b-volta",
  title: "Simulazione 5ªB Liceo Volta",
  // Spec: 'Simulation sample fallback flow: Biologia 5 minutes, Chimica 4, Ragionamento 3.'
  flow: [
    { subjectId: 1, timeMin: 5, questions: 10 },
    { subjectId: 2, timeMin: 4, questions: 8 },
    { subjectId: 5, timeMin: 3, questions: 6 },
  ],
} as const;

export const SYNTHETIC_STUDENTS = 50;
const SYNTHETIC_FIRST_ID = 100;
const DAY = 24 * 60 * 60 * 1000;

const FIRST_NAMES = [
  "Alessia",
  "Andrea",
  "Beatrice",
  "Chiara",
  "Davide",
  "Elena",
  "Federico",
  "Francesca",
  "Gabriele",
  "Giorgia",
  "Leonardo",
  "Lorenzo",
  "Martina",
  "Matteo",
  "Noemi",
  "Pietro",
  "Riccardo",
  "Sofia",
  "Tommaso",
  "Valentina",
  "Vittoria",
  "Emma",
  "Filippo",
  "Aurora",
  "Simone",
];
const LAST_NAMES = [
  "Esposito",
  "Romano",
  "Colombo",
  "Ricci",
  "Marino",
  "Bruno",
  "Gallo",
  "Costa",
  "Fontana",
  "Caruso",
  "Mancini",
  "Rizzo",
  "Lombardi",
  "Moretti",
  "Barbieri",
  "De Luca",
  "Santoro",
  "Mariani",
  "Rinaldi",
  "Ferrara",
];
const CITIES = ["Milano", "Roma", "Napoli", "Torino", "Bologna", "Firenze", "Bari", "Palermo", "Padova", "Verona"];

export function sqlValue(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "NULL";
  if (typeof value === "boolean") return value ? "1" : "0";
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return `'${text.replaceAll("'", "''")}'`;
}

/** INSERT OR IGNORE in chunks (D1 caps a statement's size). */
function inserts(table: string, columns: string[], rows: unknown[][], chunk = 200): string[] {
  const out: string[] = [];
  for (let i = 0; i < rows.length; i += chunk) {
    const values = rows
      .slice(i, i + chunk)
      .map((row) => `(${row.map(sqlValue).join(", ")})`)
      .join(",\n");
    out.push(`INSERT OR IGNORE INTO ${table} (${columns.join(", ")}) VALUES\n${values}`);
  }
  return out;
}

/** Every statement of the demo seed; `now` anchors the generated history (the last 60 days). */
export function buildSeedStatements(now: number = Date.now()): string[] {
  const out: string[] = [];
  const rand = prng(20251125);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const int = (min: number, max: number) => min + Math.floor(rand() * (max - min + 1));
  const shuffle = <T>(list: T[], r: () => number = rand): T[] => {
    for (let i = list.length - 1; i > 0; i--) {
      const j = Math.floor(r() * (i + 1));
      [list[i], list[j]] = [list[j]!, list[i]!];
    }
    return list;
  };

  // The bank
  out.push(
    ...inserts(
      "subjects",
      ["id", "name"],
      BANK.map((b) => [b.subject.id, b.subject.name]),
    ),
  );
  out.push(
    ...inserts(
      "units",
      ["subject_id", "number", "title", "credits"],
      BANK.flatMap((b) => (b.units ?? []).map((u) => [b.subject.id, u.number, u.title, u.credits])),
    ),
  );
  out.push(
    ...inserts(
      "topics",
      ["id", "subject_id", "parent_id", "name", "unit", "legacy"],
      BANK.flatMap((b) =>
        b.topics.map((t) => [t.id, b.subject.id, t.parent ?? null, t.name, t.unit ?? null, t.legacy === true]),
      ),
    ),
  );
  const bankCreated = now - 90 * DAY;
  out.push(
    ...inserts(
      "questions",
      [
        "id",
        "subject_id",
        "topic_id",
        "type",
        "stem",
        "options",
        "correct_index",
        "accepted_answers",
        "explanation",
        "difficulty",
        "active",
        "created_at",
        "unit",
        "legacy",
        "measure",
        "tolerance",
      ],
      BANK.flatMap((b) =>
        b.questions.map((q) => [
          q.id,
          b.subject.id,
          q.topic,
          q.type,
          q.stem,
          q.type === "mc" ? q.options : null,
          q.type === "mc" ? q.correct : null,
          q.type === "gap" ? q.accepted : null,
          q.explanation,
          q.difficulty,
          true,
          bankCreated,
          q.legacy ? null : (q.unit ?? null),
          q.legacy === true,
          q.type === "gap" ? (q.measure ?? null) : null,
          q.type === "gap" ? (q.tolerance ?? null) : null,
        ]),
      ),
      // D1 refuses a statement over 100 KB: 50 questions (stems, options, explanations) stay well under it.
      50,
    ),
  );

  // Each question's unit per exam edition (issue 30): `unit` for 2025/26, `unit2627` for 2026/27 (null: outside it).
  out.push(
    ...inserts(
      "question_edition_units",
      ["edition_id", "question_id", "unit"],
      BANK.flatMap((b) =>
        b.questions.flatMap((q) =>
          q.legacy
            ? []
            : [
                ...(q.unit != null ? [[EDITION_IDS["2025/26"], q.id, q.unit]] : []),
                ...(q.unit2627 != null ? [[EDITION_IDS["2026/27"], q.id, q.unit2627]] : []),
              ],
        ),
      ),
    ),
  );

  // Accounts
  type SeedUser = {
    id: number;
    email: string;
    name: string;
    firstName: string;
    lastName: string;
    username: string;
    role: string;
    status: string;
    reason: string | null;
    city: string | null;
    createdAt: number;
  };
  const people: SeedUser[] = DEMO_USERS.map((u) => ({ ...u, city: "Milano", createdAt: now - 75 * DAY }));
  for (let i = 0; i < SYNTHETIC_STUDENTS; i++) {
    const firstName = pick(FIRST_NAMES);
    const lastName = pick(LAST_NAMES);
    const n = String(i + 1).padStart(2, "0");
    people.push({
      id: SYNTHETIC_FIRST_ID + i,
      email: `studente${n}@demo.unicum.it`,
      name: `${firstName} ${lastName}`,
      firstName,
      lastName,
      username: `studente${n}`,
      role: "studente",
      status: "attivo",
      reason: null,
      city: pick(CITIES),
      createdAt: now - int(20, 80) * DAY,
    });
  }
  out.push(
    ...inserts(
      "users",
      [
        "id",
        "email",
        "name",
        "first_name",
        "last_name",
        "username",
        "role",
        "status",
        "suspension_reason",
        "city",
        "verified",
        "theme",
        "share_code",
        "created_at",
        "last_login",
      ],
      people.map((p) => [
        p.id,
        p.email,
        p.name,
        p.firstName,
        p.lastName,
        p.username,
        p.role,
        p.status,
        p.reason,
        p.city,
        true,
        "dark",
        `U${String(p.id).padStart(5, "0")}`,
        p.createdAt,
        null,
      ]),
    ),
  );

  // Attempts and answers
  const attemptRows: unknown[][] = [];
  const answerRows: unknown[][] = [];
  const loginRows: unknown[][] = [];
  let attemptId = 1;
  let answerId = 1;
  let loginId = 1;
  const subjectWeights = [1, 1, 2, 2, 4, 4, 3, 5]; // more Biologia/Chimica/Fisica, as students practise
  const bankBySubject = new Map(BANK.map((b) => [b.subject.id, b]));

  const historyFor = (userId: number, attemptsCount: number, ability: number, since: number) => {
    const days = new Set<number>();
    for (let k = 0; k < attemptsCount; k++) {
      const bank = bankBySubject.get(pick(subjectWeights))!;
      const total = pick([10, 10, 20, 31]);
      // The questions and the answers come from a stream of their own, so the size of the bank never
      // changes who practised what and when (the demo's shape stays put as the bank grows).
      const answerRand = prng(Math.floor(rand() * 4294967296));
      const answerInt = (min: number, max: number) => min + Math.floor(answerRand() * (max - min + 1));
      const pool = shuffle([...bank.questions], answerRand).slice(0, Math.min(total, bank.questions.length));
      const daysAgo = Math.max(0, since - (since * (k + rand())) / attemptsCount);
      const startedAt = Math.round(now - daysAgo * DAY - int(0, 8 * 3600) * 1000);
      days.add(Math.floor(daysAgo));
      const learning = 0.08 * (k / Math.max(1, attemptsCount - 1)); // students improve a little
      let correct = 0;
      let wrong = 0;
      let blank = 0;
      let seconds = 0;
      const id = attemptId++;
      pool.forEach((q, position) => {
        const timeSec = answerInt(15, 85);
        seconds += timeSec;
        const pCorrect = Math.min(0.97, Math.max(0.05, ability + learning - (q.difficulty - 3) * 0.07));
        const roll = answerRand();
        let optionId: number | null = null;
        let text: string | null = null;
        let isCorrect: boolean | null = null;
        if (roll < 0.07) {
          blank++;
        } else if (answerRand() < pCorrect) {
          correct++;
          isCorrect = true;
          if (q.type === "mc") optionId = q.correct!;
          else text = q.accepted![0]!.toLowerCase();
        } else {
          wrong++;
          isCorrect = false;
          if (q.type === "mc") optionId = (q.correct! + answerInt(1, 4)) % 5;
          else text = "non so";
        }
        answerRows.push([
          answerId++,
          id,
          position,
          q.id,
          optionId,
          text,
          isCorrect,
          timeSec,
          startedAt + seconds * 1000,
        ]);
      });
      const abandoned = rand() < 0.06;
      attemptRows.push([
        id,
        userId,
        bank.subject.id,
        abandoned ? "abandoned" : "completed",
        startedAt,
        abandoned ? null : startedAt + seconds * 1000,
        seconds,
        pool.length,
        correct,
        wrong,
        blank,
        abandoned ? null : summaryScore(correct, wrong, pool.length),
      ]);
    }
    for (const d of days) {
      loginRows.push([loginId++, userId, Math.round(now - d * DAY - 9 * 3600 * 1000), false, "dev"]);
    }
  };

  historyFor(1, 24, 0.62, 58); // the demo student
  historyFor(2, 16, 0.7, 50); // the friend
  for (let i = 0; i < SYNTHETIC_STUDENTS; i++) {
    historyFor(SYNTHETIC_FIRST_ID + i, int(4, 26), 0.3 + rand() * 0.55, int(10, 60));
  }
  for (const p of people) {
    loginRows.push([loginId++, p.id, p.createdAt, true, "dev"]);
  }

  out.push(
    ...inserts(
      "attempts",
      [
        "id",
        "user_id",
        "subject_id",
        "status",
        "started_at",
        "finished_at",
        "time_taken",
        "total",
        "correct",
        "wrong",
        "blank",
        "score",
      ],
      attemptRows,
    ),
  );
  out.push(
    ...inserts(
      "attempt_answers",
      ["id", "attempt_id", "position", "question_id", "option_id", "answer_text", "correct", "time_sec", "answered_at"],
      answerRows,
      400,
    ),
  );
  // The learning engine's memory of every student, replayed from the completed attempts' answers with
  // the same rule as the grading write (recalc-stats rebuilds it the same way).
  const completedBy = new Map(
    attemptRows.filter((a) => a[3] === "completed").map((a) => [a[0] as number, a[1] as number]),
  );
  const reviews = new Map<string, { userId: number; questionId: number; list: ReviewInput[] }>();
  for (const [, attempt, , questionId, , , correct, timeSec, at] of answerRows as [
    number,
    number,
    number,
    number,
    unknown,
    unknown,
    boolean | null,
    number,
    number,
  ][]) {
    const userId = completedBy.get(attempt);
    if (userId == null) continue;
    const key = `${userId}:${questionId}`;
    const entry = reviews.get(key) ?? { userId, questionId, list: [] };
    entry.list.push({ correct, timeSec, at });
    reviews.set(key, entry);
  }
  const memoryRows: unknown[][] = [];
  for (const { userId, questionId, list } of reviews.values()) {
    const m = replayMemory(list)!;
    memoryRows.push([userId, questionId, ...memoryColumns(m)]);
  }
  out.push(
    ...inserts(
      "question_memory",
      [
        "user_id",
        "question_id",
        "due",
        "stability",
        "difficulty",
        "scheduled_days",
        "learning_steps",
        "reps",
        "lapses",
        "state",
        "last_review",
        "last_correct",
      ],
      memoryRows,
      400,
    ),
  );
  out.push(...inserts("login_events", ["id", "user_id", "at", "is_new_user", "method"], loginRows, 400));

  // The demo student and the friend are friends; two reports in different states.
  out.push(
    ...inserts(
      "friendships",
      ["id", "requester_id", "addressee_id", "status", "created_at", "responded_at"],
      [[1, 1, 2, "accepted", now - 40 * DAY, now - 39 * DAY]],
    ),
  );
  out.push(
    ...inserts(
      "reports",
      [
        "id",
        "user_id",
        "question_id",
        "status",
        "message",
        "user_answer_key",
        "admin_notes",
        "created_at",
        "updated_at",
      ],
      [
        [1, 1, 1001, "open", "La spiegazione non mi è chiara.", "B", null, now - 6 * DAY, null],
        [
          2,
          1,
          2003,
          "resolved",
          "Credo che ci sia un errore di battitura nel testo.",
          "A",
          "Corretto il testo, grazie!",
          now - 20 * DAY,
          now - 18 * DAY,
        ],
      ],
    ),
  );
  // The demo teacher's class and its not-yet-started simulation.
  const classCreated = now - 12 * DAY;
  out.push(
    ...inserts(
      "classes",
      ["id", "name", "code", "owner_id", "created_at"],
      [[DEMO_CLASS.id, DEMO_CLASS.name, DEMO_CLASS.code, DEMO_CLASS.ownerId, classCreated]],
    ),
  );
  const classMemberIds = [
    1,
    2,
    ...Array.from({ length: DEMO_CLASS.syntheticMembers }, (_, i) => SYNTHETIC_FIRST_ID + i),
  ];
  out.push(
    ...inserts(
      "class_members",
      ["class_id", "user_id", "joined_at"],
      classMemberIds.map((userId, i) => [DEMO_CLASS.id, userId, classCreated + (i + 1) * 60_000]),
    ),
  );
  const sim = DEMO_CLASS_SIMULATION;
  out.push(
    ...inserts(
      "simulations",
      ["id", "title", "started", "start_time", "graded_at", "created_by", "created_at"],
      [[sim.id, sim.title, false, null, null, DEMO_CLASS.ownerId, classCreated]],
    ),
  );
  out.push(
    ...inserts(
      "simulation_subjects",
      ["simulation_id", "position", "subject_id", "time_min", "question_count", "break_after_min"],
      sim.flow.map((f, position) => [sim.id, position, f.subjectId, f.timeMin, f.questions, 0]),
    ),
  );
  // The first questions of each subject in the bank's order: fixed, so seeding twice adds nothing.
  out.push(
    ...inserts(
      "simulation_questions",
      ["simulation_id", "subject_position", "position", "question_id"],
      sim.flow.flatMap((f, subjectPosition) =>
        bankBySubject
          .get(f.subjectId)!
          .questions.slice(0, f.questions)
          .map((q, position) => [sim.id, subjectPosition, position, q.id]),
      ),
    ),
  );
  out.push(...inserts("simulation_allowed_classes", ["simulation_id", "class_id"], [[sim.id, DEMO_CLASS.id]]));

  // The forecast against reality (issue 46, point 4): the synthetic students sat the 2025/26 first sitting, each with
  // the forecast kept the day before it and the grades they entered (passed about as often as forecast, so the admin's
  // calibration table has something to show). A generator of its own: the rest of the seed is unchanged by it.
  const calibration = calibrationSeed();
  out.push(
    ...inserts(
      "forecast_days",
      ["user_id", "day", "subject_id", "pass_probability", "predicted"],
      calibration.forecasts,
    ),
  );
  out.push(
    ...inserts(
      "sitting_grades",
      ["user_id", "edition_id", "sitting_date", "subject_id", "grade", "entered_at"],
      calibration.grades,
    ),
  );

  // Aggregates are derived data: rebuilding them is idempotent too.
  out.push(...REBUILD_AGGREGATES_SQL);
  return out;
}

/** The demo's forecasts and entered grades at the 2025/26 first sitting (forecast_days and sitting_grades rows). */
export function calibrationSeed(): { forecasts: unknown[][]; grades: unknown[][] } {
  const rand = prng(46_046);
  const sitting = "2025-11-20";
  const dayBefore = "2025-11-19";
  const forecasts: unknown[][] = [];
  const grades: unknown[][] = [];
  for (let i = 0; i < SYNTHETIC_STUDENTS; i++) {
    const userId = SYNTHETIC_FIRST_ID + i;
    const ability = rand();
    for (const subjectId of [2, 4, 1]) {
      const p = Math.min(0.97, Math.max(0.03, ability * 0.8 + rand() * 0.3 - 0.05));
      forecasts.push([userId, dayBefore, subjectId, Math.round(p * 1000) / 1000, Math.round((8 + p * 18) * 10) / 10]);
      if (rand() < 0.06) {
        grades.push([userId, EDITION_IDS["2025/26"], sitting, subjectId, null, Date.UTC(2025, 11, 1)]);
        continue;
      }
      const passed = rand() < p;
      const grade = passed ? 18 + Math.floor(rand() * 14) : Math.round((6 + rand() * 11.9) * 10) / 10;
      grades.push([userId, EDITION_IDS["2025/26"], sitting, subjectId, grade, Date.UTC(2025, 11, 1)]);
    }
  }
  return { forecasts, grades };
}

/** One SQL script (for `wrangler d1 execute --file`). */
export function buildSeedSql(now: number = Date.now()): string {
  return `${buildSeedStatements(now).join(";\n")};\n`;
}
