import { useEffect, useRef, useState } from "react";
import { Link, redirect, useLoaderData, useNavigate, useSearchParams } from "react-router";
import { T } from "~/components/quiz/messages";
import { QuizRunner } from "~/components/quiz/QuizRunner";
import { ApiError, apiFetch } from "~/lib/api-client";
import { UNTIMED_ABANDON_MS } from "~/lib/constants";
import { attemptDeadline } from "~/lib/timer";
import { getEnv } from "~/server/context";
import { getDb } from "~/server/db/client.server";
import { HttpError } from "~/server/errors.server";
import { requirePageUser } from "~/server/page-guard.server";
import { getQuiz, type DrawnQuiz } from "~/server/quiz.server";
import "~/styles/quiz.css";
import type { Route } from "./+types/test";

// /test?id=   → the stored quiz (resumable: a reload keeps the same quiz and the server's clock)
// /test?subject=&topic=&q=&time=  or  /test?redo=1  → the browser draws the quiz (it alone knows
// sessionStorage qr_event and localStorage redo_ids), then replaces the URL with ?id=.
export async function loader(args: Route.LoaderArgs) {
  const user = await requirePageUser(args);
  const id = Number(new URL(args.request.url).searchParams.get("id"));
  if (!Number.isInteger(id) || id <= 0) return { quiz: null, error: null };
  try {
    const quiz = await getQuiz(getDb(getEnv(args.context).DB), user.id, id);
    if (quiz.status === "completed" && quiz.attemptId) throw redirect(`/test/riepilogo/${quiz.attemptId}`);
    const deadline = attemptDeadline(Date.parse(quiz.startedAt), quiz.timeLimitSec, UNTIMED_ABANDON_MS);
    if (quiz.status === "abandoned" || Date.now() > deadline) {
      return { quiz: null, error: "Tempo scaduto: questo quiz è stato interrotto. Avviane uno nuovo." };
    }
    return { quiz, error: null };
  } catch (error) {
    if (error instanceof HttpError) return { quiz: null, error: error.message };
    throw error;
  }
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
  return (Array.isArray(list) ? list : [])
    .map((v) => Number(v))
    .filter((n) => Number.isInteger(n) && n > 0);
}

function drawQuery(params: URLSearchParams): { query: string; error: string | null } {
  const time = positiveInt(params.get("time"));
  if (params.get("redo") === "1") {
    const ids = redoIds();
    if (ids.length === 0) return { query: "", error: T.noRedo };
    const q = new URLSearchParams({ ids: ids.join(",") });
    if (time) q.set("time", String(time));
    return { query: q.toString(), error: null };
  }
  const subject = positiveInt(params.get("subject"));
  if (!subject) return { query: "", error: "Scegli una materia da Nuovo test per iniziare un quiz." };
  const q = new URLSearchParams({ subjectId: String(subject), count: params.get("q") ?? "10" });
  const topic = positiveInt(params.get("topic"));
  if (topic) q.set("topicId", String(topic));
  if (time) q.set("time", String(time));
  if (params.get("mode") === "mirato") q.set("mode", "mirato");
  // Quiz Rush: the event id from the query or from session storage (only a positive integer, and only
  // for the subject the rush screen started).
  // The stored id is consumed by this one draw, whatever its outcome, so a leftover never turns a
  // later ordinary quiz into a rush.
  const qrSubject = sessionStorage.getItem("qr_subject");
  const storedEvent = !qrSubject || qrSubject === String(subject) ? positiveInt(sessionStorage.getItem("qr_event")) : null;
  if (storedEvent) sessionStorage.removeItem("qr_event");
  const rushEventId = positiveInt(params.get("rushEventId")) ?? storedEvent;
  if (rushEventId) q.set("rushEventId", String(rushEventId));
  return { query: q.toString(), error: null };
}

export default function TestScreen() {
  const data = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [mounted, setMounted] = useState(false);
  const drawing = useRef<string | null>(null);
  const quiz = data.quiz as DrawnQuiz | null;

  useEffect(() => setMounted(true), []);

  useEffect(() => {
    if (quiz || data.error) return;
    const key = params.toString();
    if (drawing.current === key) return;
    drawing.current = key;
    const { query, error: invalid } = drawQuery(params);
    if (invalid) {
      setError(invalid);
      return;
    }
    setError(null);
    apiFetch<DrawnQuiz>(`/api/quiz?${query}`)
      .then((drawn) => {
        navigate(`/test?id=${drawn.quizId}`, { replace: true });
      })
      .catch((err: unknown) => setError(err instanceof ApiError && err.message !== "Errore di rete" ? `${T.loadError}: ${err.message}` : T.loadError));
  }, [data.error, navigate, params, quiz]);

  const shownError = data.error ?? error;
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
