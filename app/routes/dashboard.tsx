import { Suspense, useEffect, useState } from "react";
import { Await, useLoaderData } from "react-router";
import { ANALYTICS_CACHE_KEY, Dashboard, type FriendSummary } from "~/components/dashboard/Dashboard";
import { AssignmentsDue } from "~/components/dashboard/AssignmentsDue";
import { type Happening, HappeningCards } from "~/components/dashboard/HappeningCards";
import { BestGrades } from "~/components/simulation-lists/BestGrades";
import { LearningCards } from "~/components/learning/LearningCards";
import { TodayCard } from "~/components/plan/TodayCard";
import type { StudentAnalytics } from "~/lib/analytics-types";
import { nextSimulation } from "~/lib/my-simulations";
import { studentAnalytics } from "~/server/analytics.server";
import { dueReminders, myAssignments } from "~/server/assignments.server";
import { dbOf } from "~/server/context";
import { acceptedFriends } from "~/server/friends.server";
import { dueCount, scoreForecast } from "~/server/learning-advice.server";
import { requirePageUser } from "~/server/page-guard.server";
import { EDITION_TEXT, nextSitting, nextSittingText } from "~/lib/edition";
import { defaultEdition } from "~/server/editions.server";
import { bestSimulationGrades } from "~/server/grades.server";
import { rushHeadsUp } from "~/server/rush.server";
import { mySimulations } from "~/server/simulation/mine.server";
import { todayCard } from "~/server/study-plan.server";
// The charts arrive in a later chunk, but their frames are in the first HTML: their styles come with the page.
import "~/styles/charts.css";
import "~/styles/dashboard.css";
import "~/styles/simulations.css";
import "~/styles/assignments.css";
import "~/styles/plan.css";
import type { Route } from "./+types/dashboard";

export async function loader(args: Route.LoaderArgs) {
  const user = await requirePageUser(args);
  const db = dbOf(args.context);
  // Streamed: the greeting renders at once, the panels when the data arrives ('Caricamento dati…').
  const data = Promise.all([
    studentAnalytics(db, user.id),
    acceptedFriends(db, user.id),
    dueCount(db, user.id),
    scoreForecast(db, user.id),
  ]).then(([analytics, friends, due, forecast]) => ({
    analytics,
    friends: friends.map((f): FriendSummary => ({ userId: f.userId, name: f.name })),
    dueCount: due,
    forecast: forecast.subjects,
    section: forecast.section,
    now: Date.now(),
  }));
  // What is happening (issue 34), streamed apart so a failure hides the cards and nothing else: the live or next
  // simulation the user is in, and for a student a Quiz Rush event live or opening within 24 hours.
  const now = Date.now();
  const happening: Promise<Happening | null> = Promise.all([
    mySimulations(db, user.id, now, { results: false }),
    user.effectiveRole === "studente" ? rushHeadsUp(db, user.id, now) : null,
  ]).then(
    ([simulations, rush]) => ({ now, simulation: nextSimulation(simulations), rush }),
    (error: unknown) => {
      console.error("dashboard happening cards failed", error);
      return null;
    },
  );
  // What is due (issue 32): the pupil's assignments not submitted yet, streamed apart like the cards above.
  const assignmentsDue = myAssignments(db, user.id, now).then(
    (list) => ({ now, items: dueReminders(list, now) }),
    (error: unknown) => {
      console.error("dashboard assignments reminder failed", error);
      return null;
    },
  );
  // The best grade per exam over the default edition's official-format simulations (issue 29), streamed apart.
  const grades = bestSimulationGrades(db, user.id).catch((error: unknown) => {
    console.error("dashboard best grades failed", error);
    return null;
  });
  // A student's plan to the sitting (issue 46): today's card, read beside the rest (the same round trip), streamed apart.
  const plan =
    user.effectiveRole === "studente"
      ? todayCard(db, user.id, now).catch((error: unknown) => {
          console.error("dashboard plan card failed", error);
          return null;
        })
      : null;
  // The exam the student prepares for (issue 29): the next sitting of the default edition, and whether its format
  // is provisional.
  const edition = await defaultEdition(db).catch(() => null);
  const next = edition ? nextSitting(edition, now) : null;
  return {
    name: user.firstName || user.name,
    exam: edition
      ? {
          next: next ? nextSittingText(next) : null,
          provisional: edition.status === "provvisorio" ? EDITION_TEXT.provisional(edition.academicYear) : null,
        }
      : null,
    data,
    happening,
    assignmentsDue,
    grades,
    plan,
  };
}

function CachedFallback() {
  // GET /api/me/analytics failed: fall back to the cached JSON of the last good load (spec section 7).
  const [cached, setCached] = useState<StudentAnalytics | null | undefined>(undefined);
  useEffect(() => {
    try {
      const raw = localStorage.getItem(ANALYTICS_CACHE_KEY);
      setCached(raw ? (JSON.parse(raw) as StudentAnalytics) : null);
    } catch {
      setCached(null);
    }
  }, []);
  if (cached === undefined) return <p className="muted">Caricamento dati…</p>;
  if (cached === null) {
    return (
      <p className="alert alert--error" role="alert">
        Non riesco a caricare le tue statistiche: ricarica la pagina tra poco.
      </p>
    );
  }
  return (
    <>
      <p className="alert" role="status">
        Dati non aggiornati: mostro le statistiche dell'ultimo caricamento riuscito.
      </p>
      <Dashboard analytics={cached} friends={[]} now={Date.now()} />
    </>
  );
}

export default function DashboardScreen() {
  const { name, exam, data, happening, assignmentsDue, grades, plan } = useLoaderData<typeof loader>();
  return (
    <section className="page dash">
      <h1 className="page__title">Ciao, {name}</h1>
      {exam?.next ? (
        <p className="dash__exam" data-testid="next-sitting">
          {exam.next}
          {exam.provisional ? <span className="muted small"> · {exam.provisional}</span> : null}
        </p>
      ) : null}
      {plan ? (
        <Suspense fallback={null}>
          <Await resolve={plan}>{(loaded) => (loaded ? <TodayCard plan={loaded} /> : null)}</Await>
        </Suspense>
      ) : null}
      <Suspense fallback={null}>
        <Await resolve={happening}>{(loaded) => (loaded ? <HappeningCards happening={loaded} /> : null)}</Await>
      </Suspense>
      <Suspense fallback={null}>
        <Await resolve={assignmentsDue}>
          {(loaded) => (loaded ? <AssignmentsDue items={loaded.items} now={loaded.now} /> : null)}
        </Await>
      </Suspense>
      <Suspense fallback={null}>
        <Await resolve={grades}>{(loaded) => (loaded ? <BestGrades grades={loaded} /> : null)}</Await>
      </Suspense>
      <Suspense
        fallback={
          <p className="muted" role="status">
            Caricamento dati…
          </p>
        }
      >
        <Await resolve={data} errorElement={<CachedFallback />}>
          {(loaded) => (
            <>
              <LearningCards dueCount={loaded.dueCount} forecast={loaded.forecast} section={loaded.section} />
              <Dashboard analytics={loaded.analytics} friends={loaded.friends} now={loaded.now} />
            </>
          )}
        </Await>
      </Suspense>
    </section>
  );
}
