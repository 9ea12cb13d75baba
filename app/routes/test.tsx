import { useEffect, useRef, useState } from "react";
import { Link, redirect, useActionData, useLoaderData, useNavigation, useSearchParams, useSubmit } from "react-router";
import { T } from "~/components/quiz/messages";
import { OnlineQuiz } from "~/components/quiz/OnlineQuiz";
import { QuizStartConfirm, type QuizStartSettings } from "~/components/quiz/QuizStartConfirm";
import { formError, orFailure } from "~/lib/forms";
import { newQuizSchema } from "~/lib/forms/new-quiz";
import { runnerSubmissionSchema } from "~/lib/forms/quiz-submission";
import { offlineQuizPath } from "~/lib/offline-routes";
import { clampQuestionCount } from "~/lib/timer";
import { submitQuizAttempt } from "~/server/attempts.server";
import { dbOf, executionCtxOf, getEnv } from "~/server/context";
import { afterResponse, refreshForecastDay } from "~/server/forecast-days.server";
import { HttpError } from "~/server/errors.server";
import { handleForm, handleJson } from "~/server/form.server";
import { requirePageUser } from "~/server/page-guard.server";
import { drawRequested, getQuiz, subjectTopicNames, type DrawnQuiz } from "~/server/quiz.server";
import { limitAction } from "~/server/security.server";
import "~/styles/quiz.css";
import type { Route } from "./+types/test";

// /test?id=   → the stored quiz (resumable: a reload keeps the same quiz and the server's clock)
// POST /test (a form: newQuizSchema)  → draws and stores a quiz, then redirects to /test?id=: the screens that
//   start a quiz (Nuovo test, redo, review of the day) post here; the loader then reads the quiz once. A POST must
//   come from our own pages (the Worker's same-origin rule) and counts against the draw limit (QUIZ_LIMITER).
// POST /test (JSON: runnerSubmissionSchema) → the runner's submission, the same service as POST /api/quiz/{id}/attempt.
// /test?subject=&topic=&q=&time=[&rushEventId=]  or  /test?redo=1  → links and bookmarks of the older form: a GET
//   never writes. The page posts the same request on arrival (it alone knows localStorage redo_ids) only for a
//   practice link reached from our own pages or typed/bookmarked; a Rush link, or a link followed from another
//   site, shows the quiz's settings and waits for "Avvia" (issue 28: a link must not burn a Rush attempt).
export async function loader(args: Route.LoaderArgs) {
  const user = await requirePageUser(args);
  const url = new URL(args.request.url);
  const id = Number(url.searchParams.get("id"));
  if (!Number.isInteger(id) || id <= 0) return { quiz: null, error: null, arrival: await linkArrival(args, url) };
  try {
    const quiz = await getQuiz(dbOf(args.context), user.id, id);
    if (quiz.status === "completed" && quiz.attemptId) throw redirect(`/test/riepilogo/${quiz.attemptId}`);
    // A downloaded quiz runs from the device, timed from its start there (issue 47), never on the server's clock.
    if (quiz.offline) throw redirect(offlineQuizPath(quiz.quizId));
    // getQuiz reads the status by attemptOpen: "in_progress" only while it can still be submitted.
    if (quiz.status !== "in_progress") {
      return { quiz: null, error: "Tempo scaduto: questo quiz è stato interrotto. Avviane uno nuovo.", arrival: null };
    }
    return { quiz, error: null, arrival: null };
  } catch (error) {
    if (error instanceof HttpError) return { quiz: null, error: error.message, arrival: null };
    throw error;
  }
}

/**
 * How an older link starts. The browser's Sec-Fetch-Site says where the navigation came from: `same-origin` (our
 * pages, and every client-side navigation's data request) or `none` (address bar, bookmark) may post at once; a
 * link followed from another site (`cross-site`, `same-site`) or a browser that does not say must ask first, and so
 * must every Rush link. The names are for the settings shown while waiting.
 */
async function linkArrival(args: Route.LoaderArgs, url: URL) {
  const site = args.request.headers.get("Sec-Fetch-Site");
  const rush = positiveInt(url.searchParams.get("rushEventId")) != null;
  const autoStart = !rush && (site === "same-origin" || site === "none");
  if (autoStart) return { autoStart, subject: null, topic: null };
  const subjectId = positiveInt(url.searchParams.get("subject"));
  const topicId = positiveInt(url.searchParams.get("topic"));
  return { autoStart, ...(await subjectTopicNames(dbOf(args.context), subjectId, topicId)) };
}

export async function action(args: Route.ActionArgs) {
  const user = await requirePageUser(args);
  const db = dbOf(args.context);
  if (/^application\/json\b/i.test(args.request.headers.get("Content-Type") ?? "")) {
    return handleJson(args.request, runnerSubmissionSchema, async ({ quizId, ...attempt }) => {
      const { attemptId } = await submitQuizAttempt(db, user.id, quizId, attempt);
      afterResponse(executionCtxOf(args.context), () => refreshForecastDay(db, user.id));
      throw redirect(`/test/riepilogo/${attemptId}`);
    });
  }
  return handleForm(args.request, newQuizSchema, async (request) => {
    await limitAction(getEnv(args.context), "QUIZ_LIMITER", user.id);
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
  // Quiz Rush: the event id travels in the query only (/quiz-rush/start puts it there). A leftover in session storage
  // must never turn an ordinary link into a Rush quiz.
  const rushEventId = positiveInt(params.get("rushEventId"));
  if (rushEventId) fields.rushEventId = String(rushEventId);
  return { fields, error: null };
}

/** What the waiting screen of a link shows: the quiz its request would draw. */
function startSettings(
  fields: Record<string, string>,
  names: { subject: string | null; topic: string | null },
): QuizStartSettings {
  const redo = fields.ids != null;
  return {
    kind: fields.rushEventId ? "rush" : redo ? "redo" : "practice",
    subject: names.subject,
    topic: names.topic,
    count: redo ? fields.ids!.split(",").length : clampQuestionCount(fields.count || undefined, 10),
    timeSec: fields.time ? Number(fields.time) : null,
    targeted: fields.mode === "mirato",
  };
}

export default function TestScreen() {
  const data = useLoaderData<typeof loader>();
  const refused = formError(useActionData<typeof action>());
  const [params] = useSearchParams();
  const submit = useSubmit();
  const navigation = useNavigation();
  const [error, setError] = useState<string | null>(null);
  const handled = useRef<string | null>(null);
  // A link that waits for "Avvia": its draw request.
  const [waiting, setWaiting] = useState<Record<string, string> | null>(null);
  const quiz = data.quiz as DrawnQuiz | null;
  const arrival = data.arrival;

  // An older link: post its draw request once (replacing this history entry with the quiz's /test?id=), or, when it
  // may not start by itself, show its settings and wait for "Avvia".
  useEffect(() => {
    if (quiz || data.error || !arrival) return;
    const key = params.toString();
    if (handled.current === key) return;
    handled.current = key;
    const { fields, error: invalid } = drawFields(params);
    setError(invalid);
    setWaiting(invalid || arrival.autoStart ? null : fields);
    if (!invalid && arrival.autoStart) submit(fields, { method: "post", action: `/test?${key}`, replace: true });
  }, [arrival, data.error, params, quiz, submit]);

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
  if (!quiz && waiting && arrival) {
    return (
      <QuizStartConfirm
        settings={startSettings(waiting, arrival)}
        busy={navigation.state !== "idle"}
        onStart={() => submit(waiting, { method: "post", action: `/test?${params.toString()}`, replace: true })}
      />
    );
  }
  if (!quiz) {
    return (
      <section className="page">
        <p role="status">{T.loading}</p>
      </section>
    );
  }
  return <OnlineQuiz key={quiz.quizId} quiz={quiz} />;
}
