import { useEffect, useRef, useState } from "react";
import { Link, redirect, useActionData, useLoaderData, useNavigation, useSearchParams, useSubmit } from "react-router";
import { T } from "~/components/quiz/messages";
import { QuizRunner } from "~/components/quiz/QuizRunner";
import { formError, orFailure } from "~/lib/forms";
import { newQuizSchema } from "~/lib/forms/new-quiz";
import { runnerSubmissionSchema } from "~/lib/forms/quiz-submission";
import { attemptOpen } from "~/lib/timer";
import { submitQuizAttempt } from "~/server/attempts.server";
import { dbOf } from "~/server/context";
import { HttpError } from "~/server/errors.server";
import { handleForm, handleJson } from "~/server/form.server";
import { requirePageUser } from "~/server/page-guard.server";
import { drawRequested, getQuiz, type DrawnQuiz } from "~/server/quiz.server";
import "~/styles/quiz.css";
import type { Route } from "./+types/test";

// /test?id=   → the stored quiz (resumable: a reload keeps the same quiz and the server's clock)
// POST /test (a form: newQuizSchema)  → draws and stores a quiz, then redirects to /test?id=: the screens that
//   start a quiz (Nuovo test, redo, review of the day, Rush) post here; the loader then reads the quiz once.
// POST /test (JSON: runnerSubmissionSchema) → the runner's submission, the same service as POST /api/quiz/{id}/attempt.
// /test?subject=&topic=&q=&time=  or  /test?redo=1  → links and bookmarks of the older form: the page posts the
//   same request on arrival (it alone knows sessionStorage qr_event and localStorage redo_ids); a GET never writes.
export async function loader(args: Route.LoaderArgs) {
  const user = await requirePageUser(args);
  const id = Number(new URL(args.request.url).searchParams.get("id"));
  if (!Number.isInteger(id) || id <= 0) return { quiz: null, error: null };
  try {
    const quiz = await getQuiz(dbOf(args.context), user.id, id);
    if (quiz.status === "completed" && quiz.attemptId) throw redirect(`/test/riepilogo/${quiz.attemptId}`);
    if (!attemptOpen(quiz.status, Date.parse(quiz.startedAt), quiz.timeLimitSec, Date.now())) {
      return { quiz: null, error: "Tempo scaduto: questo quiz è stato interrotto. Avviane uno nuovo." };
    }
    return { quiz, error: null };
  } catch (error) {
    if (error instanceof HttpError) return { quiz: null, error: error.message };
    throw error;
  }
}

export async function action(args: Route.ActionArgs) {
  const user = await requirePageUser(args);
  const db = dbOf(args.context);
  if (/^application\/json\b/i.test(args.request.headers.get("Content-Type") ?? "")) {
    return handleJson(args.request, runnerSubmissionSchema, async ({ quizId, ...attempt }) => {
      const { attemptId } = await submitQuizAttempt(db, user.id, quizId, attempt);
      throw redirect(`/test/riepilogo/${attemptId}`);
    });
  }
  return handleForm(args.request, newQuizSchema, async (request) => {
    const drawn = await drawRequested(db, user.id, request);
    throw redirect(`/test?id=${drawn.quizId}`);
  });
}

/**
 * A submission that cannot reach the server (offline, a proxy's 5xx page) must not replace the quiz with the error
 * page: the runner keeps the answers and says so, and the button works again.
 */
export function clientAction({ serverAction }: Route.ClientActionArgs) {
  return orFailure(serverAction, T.submitError);
}

function positiveInt(value: string | null): number | null {
  const n = Number(value);
  return value && Number.isInteger(n) && n > 0 ? n : null;
}

/** Redo ids from localStorage (a JSON array, or a comma-separated string). */
function redoIds(): number[] {
  const raw = localStorage.getItem("redo_ids");
  if (!raw) return [];
  let list: unknown;
  try {
    list = JSON.parse(raw);
  } catch {
    list = raw.split(",");
  }
  return (Array.isArray(list) ? list : []).map((v) => Number(v)).filter((n) => Number.isInteger(n) && n > 0);
}

/** The older /test?subject=… or ?redo=1 link as the fields of the draw request (newQuizSchema). */
function drawFields(params: URLSearchParams): { fields: Record<string, string>; error: string | null } {
  const time = positiveInt(params.get("time"));
  const timer: Record<string, string> = time ? { time: String(time) } : {};
  if (params.get("redo") === "1") {
    const ids = redoIds();
    if (ids.length === 0) return { fields: {}, error: T.noRedo };
    return { fields: { ids: ids.join(","), ...timer }, error: null };
  }
  const subject = positiveInt(params.get("subject"));
  if (!subject) return { fields: {}, error: "Scegli una materia da Nuovo test per iniziare un quiz." };
  const fields: Record<string, string> = { subjectId: String(subject), count: params.get("q") ?? "10", ...timer };
  const topic = positiveInt(params.get("topic"));
  if (topic) fields.topicId = String(topic);
  if (params.get("mode") === "mirato") fields.mode = "mirato";
  // Quiz Rush: the event id from the query or from session storage (only a positive integer, and only
  // for the subject the rush screen started).
  // The stored id is consumed by this one draw, whatever its outcome, so a leftover never turns a
  // later ordinary quiz into a rush.
  const qrSubject = sessionStorage.getItem("qr_subject");
  const storedEvent =
    !qrSubject || qrSubject === String(subject) ? positiveInt(sessionStorage.getItem("qr_event")) : null;
  if (storedEvent) sessionStorage.removeItem("qr_event");
  const rushEventId = positiveInt(params.get("rushEventId")) ?? storedEvent;
  if (rushEventId) fields.rushEventId = String(rushEventId);
  return { fields, error: null };
}

export default function TestScreen() {
  const data = useLoaderData<typeof loader>();
  const refused = formError(useActionData<typeof action>());
  const [params] = useSearchParams();
  const submit = useSubmit();
  const navigation = useNavigation();
  const [error, setError] = useState<string | null>(null);
  const [mounted, setMounted] = useState(false);
  const posted = useRef<string | null>(null);
  const quiz = data.quiz as DrawnQuiz | null;

  useEffect(() => setMounted(true), []);

  // An older link: post its draw request once (replacing this history entry with the quiz's /test?id=).
  useEffect(() => {
    if (quiz || data.error) return;
    const key = params.toString();
    if (posted.current === key) return;
    posted.current = key;
    const { fields, error: invalid } = drawFields(params);
    if (invalid) {
      setError(invalid);
      return;
    }
    setError(null);
    submit(fields, { method: "post", action: `/test?${key}`, replace: true });
  }, [data.error, params, quiz, submit]);

  const shownError =
    data.error ?? error ?? (navigation.state === "idle" && refused ? `${T.loadError}: ${refused}` : null);
  if (shownError) {
    return (
      <section className="page practice-stack">
        <h1 className="page__title">{T.quizTitle}</h1>
        <p className="alert alert--error" role="alert">
          {shownError}
        </p>
        <p>
          <Link className="btn" to="/test/nuovo">
            Nuovo test
          </Link>
        </p>
      </section>
    );
  }
  if (!quiz || !mounted) {
    return (
      <section className="page">
        <p role="status">{T.loading}</p>
      </section>
    );
  }
  return <QuizRunner key={quiz.quizId} quiz={quiz} />;
}
