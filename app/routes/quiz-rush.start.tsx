// /quiz-rush/start: 'Preparazione quiz…', then /test for a rush quiz (replacing history), for links and bookmarks.
// The server checks the window and the one-attempt-per-subject rule here and claims nothing: /test shows the quiz's
// settings and waits for "Avvia", whose POST draws the quiz and claims the slot (a link cannot, issue 28). The
// /rush screen's own "Avvia quiz" posts to /rush directly.
import { useEffect } from "react";
import { redirect, useLoaderData, useNavigate } from "react-router";
import { RUSH_STORAGE, RUSH_TEXT, rushTestQuery } from "~/lib/rush";
import { dbOf } from "~/server/context";
import { HttpError } from "~/server/errors.server";
import { checkRushStart, RUSH_DUPLICATE_MESSAGE } from "~/server/rush.server";
import { requirePageUser } from "~/server/page-guard.server";
import type { Route } from "./+types/quiz-rush.start";

export async function loader(args: Route.LoaderArgs) {
  const user = await requirePageUser(args);
  const url = new URL(args.request.url);
  const subject = url.searchParams.get("subject");
  if (!subject) throw redirect("/rush");
  try {
    const subjectId = Number(subject);
    if (!Number.isInteger(subjectId) || subjectId <= 0) throw new HttpError(400, "Materia non valida.");
    const event = await checkRushStart(dbOf(args.context), { userId: user.id, subjectId });
    const query = rushTestQuery({
      subject,
      topic: url.searchParams.get("topic"),
      q: url.searchParams.get("q"),
      time: url.searchParams.get("time"),
      eventId: event.id,
    });
    if (!query) throw new HttpError(400, "Parametri del quiz non validi.");
    return { target: `/test?${query}`, subjectId, eventId: event.id };
  } catch (error) {
    // Spec: any failure goes back to /rush; a repeated subject says why there.
    if (error instanceof HttpError && error.message === RUSH_DUPLICATE_MESSAGE)
      throw redirect("/rush?errore=duplicato");
    if (error instanceof HttpError) throw redirect("/rush");
    throw error;
  }
}

export default function QuizRushStart() {
  const { target, subjectId, eventId } = useLoaderData<typeof loader>();
  const navigate = useNavigate();
  useEffect(() => {
    try {
      sessionStorage.setItem(RUSH_STORAGE.sessionSubject, String(subjectId));
      sessionStorage.setItem(RUSH_STORAGE.sessionEvent, String(eventId));
    } catch {
      // Storage may be unavailable (private mode); the event id also travels in the URL.
    }
    navigate(target, { replace: true });
  }, [target, subjectId, eventId, navigate]);
  return (
    <section className="page">
      <p role="status" aria-live="polite">
        {RUSH_TEXT.preparing}
      </p>
    </section>
  );
}
