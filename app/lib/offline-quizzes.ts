// The downloaded quizzes on this device (issue 47), in IndexedDB through `idb`: one database per account
// (app/lib/offline-routes.ts: whose data a device holds), one record per quiz with the copy the server sent (no key),
// every answer as it was given and the time per question, the device's start, and where its submission stands.
// A quiz handed in is queued; sendQueued submits each queued quiz once per reconnection (POST /api/quiz/{id}/attempt is
// idempotent per quiz, so a send repeated by two tabs or a lost answer counts once), and keeps a refused one with
// the server's reason and its answers.
import { deleteDB, type IDBPDatabase, openDB } from "idb";
import { CHANGED_EVENT } from "./offline-store";
import { type Answers, type RunnerQuestion, type Spent, sendOutcome, submissionAnswers } from "./quiz-answers";

/** The server's answer to the download (DrawnQuiz with `offline`), as the device keeps it. */
export type DownloadedCopy = {
  quizId: number;
  subjectName: string | null;
  timeLimitSec: number | null;
  /** The download (the server's clock). */
  startedAt: string;
  /** The last instant the server takes it (attemptDeadline). */
  expiresAt: string;
  gapBoxes: number;
  questions: RunnerQuestion[];
};

export type StoredQuiz = {
  quizId: number;
  copy: DownloadedCopy;
  /** When it was downloaded, on the device's clock. */
  savedAt: number;
  answers: Answers;
  spent: Spent;
  /** When the student opened it first, on the device's clock (null: not started). */
  startedAt: number | null;
  /** Handed in: the time taken, on the device. */
  timeTaken: number | null;
  state: "new" | "started" | "queued" | "sent" | "refused";
  attemptId: number | null;
  /** The server's reason, when it refused the quiz. */
  refusal: string | null;
};

const STORE = "quizzes";
const dbName = (account: number) => `unicum-offline-${account}`;
const opened = new Map<number, Promise<IDBPDatabase>>();
/** Accounts signed out in this page: their database is never opened (so never made) again before it unloads. */
const closed = new Set<number>();

function database(account: number): Promise<IDBPDatabase> {
  if (closed.has(account)) return Promise.reject(new Error("signed out"));
  let db = opened.get(account);
  if (!db) {
    db = openDB(dbName(account), 1, {
      upgrade(upgrading) {
        upgrading.createObjectStore(STORE, { keyPath: "quizId" });
      },
    });
    opened.set(account, db);
  }
  return db;
}

export { CHANGED_EVENT };
function announce() {
  window.dispatchEvent(new Event(CHANGED_EVENT));
}

export async function listQuizzes(account: number): Promise<StoredQuiz[]> {
  const all = (await (await database(account)).getAll(STORE)) as StoredQuiz[];
  return all.sort((a, b) => a.savedAt - b.savedAt);
}

export async function readQuiz(account: number, quizId: number): Promise<StoredQuiz | undefined> {
  return (await (await database(account)).get(STORE, quizId)) as StoredQuiz | undefined;
}

export async function keepDownload(account: number, copy: DownloadedCopy, now = Date.now()): Promise<void> {
  const quiz: StoredQuiz = {
    quizId: copy.quizId,
    copy,
    savedAt: now,
    answers: {},
    spent: {},
    startedAt: null,
    timeTaken: null,
    state: "new",
    attemptId: null,
    refusal: null,
  };
  await (await database(account)).put(STORE, quiz);
  announce();
}

/** Reads, changes and writes one quiz in one transaction; undefined when it is not on the device. */
export async function updateQuiz(
  account: number,
  quizId: number,
  change: (quiz: StoredQuiz) => StoredQuiz,
): Promise<StoredQuiz | undefined> {
  const tx = (await database(account)).transaction(STORE, "readwrite");
  const current = (await tx.store.get(quizId)) as StoredQuiz | undefined;
  const next = current ? change(current) : undefined;
  if (next) await tx.store.put(next);
  await tx.done;
  if (next && next.state !== current?.state) announce();
  return next;
}

export async function removeQuiz(account: number, quizId: number): Promise<void> {
  await (await database(account)).delete(STORE, quizId);
  announce();
}

/** Sign-out: the account's database goes with everything in it. */
export async function deleteAccountQuizzes(account: number): Promise<void> {
  closed.add(account);
  const db = opened.get(account);
  opened.delete(account);
  (await db?.catch(() => null))?.close();
  await deleteDB(dbName(account));
}

/** Answered but not taken by the server yet: what signing out would lose. */
export function unsent(quizzes: readonly StoredQuiz[]): StoredQuiz[] {
  return quizzes.filter((q) => q.state === "queued" || (q.state === "started" && Object.keys(q.answers).length > 0));
}

/** The submission of a handed-in quiz, from what the device kept. */
export function queuedSubmission(quiz: StoredQuiz) {
  return {
    answers: submissionAnswers(quiz.copy.questions, quiz.answers, quiz.spent),
    timeTaken: quiz.timeTaken ?? 0,
    deviceStartedAt: quiz.startedAt,
  };
}

let sending: Promise<void> | null = null;

/** Sends every queued quiz once (one run at a time in this page); the rest waits for the next connection. */
export function sendQueued(account: number): Promise<void> {
  sending ??= (async () => {
    try {
      for (const quiz of await listQuizzes(account)) {
        if (quiz.state !== "queued") continue;
        let status: number | null = null;
        let body: { attemptId?: number; error?: string } = {};
        try {
          const response = await fetch(`/api/quiz/${quiz.quizId}/attempt`, {
            method: "POST",
            credentials: "same-origin",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify(queuedSubmission(quiz)),
          });
          status = response.status;
          body = (await response.json().catch(() => ({}))) as typeof body;
        } catch {
          return; // no network: the queue waits for the next connection
        }
        const outcome = sendOutcome(status);
        if (outcome === "retry") continue;
        await updateQuiz(account, quiz.quizId, (q) =>
          outcome === "taken"
            ? { ...q, state: "sent", attemptId: body.attemptId ?? null, refusal: null }
            : { ...q, state: "refused", refusal: body.error ?? `Errore ${status}` },
        );
      }
    } finally {
      sending = null;
    }
  })();
  return sending;
}
