// /test/offline: the quizzes downloaded on this device; /test/offline/:quizId: one of them in the runner (issue 47).
// Nothing is read from the server: the page is the same for every quiz (the service worker keeps it as one page for
// the account, app/lib/offline-routes.ts) and reads the device's IndexedDB once in the browser, so it opens with no
// network.
import { useParams, useRouteLoaderData } from "react-router";
import { DownloadedQuizzes } from "~/components/offline/DownloadedQuizzes";
import { O } from "~/components/offline/messages";
import { OfflineQuiz } from "~/components/offline/OfflineQuiz";
import { useEffect, useState } from "react";
import type { loader as layoutLoader } from "./app-layout";
import "~/styles/quiz.css";

export default function OfflineQuizzes() {
  const layout = useRouteLoaderData<typeof layoutLoader>("routes/app-layout");
  const { quizId } = useParams();
  // The device is read after hydration: the server's HTML is the same for every quiz.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const account = layout?.user.id;
  const id = Number(quizId);
  if (!hydrated || account == null) return <p role="status">Caricamento…</p>;
  if (quizId && Number.isInteger(id) && id > 0) return <OfflineQuiz account={account} quizId={id} />;
  return (
    <section className="page practice-stack">
      <h1 className="page__title">{O.downloadedList}</h1>
      <DownloadedQuizzes account={account} />
    </section>
  );
}
