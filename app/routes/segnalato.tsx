import { useState } from "react";
import { useLoaderData } from "react-router";
import { formatDateTime, T } from "~/components/quiz/messages";
import { Modal } from "~/components/ui/Modal";
import { dbOf, getEnv } from "~/server/context";
import { getDb } from "~/server/db/client.server";
import { requirePageUser } from "~/server/page-guard.server";
import { createReport, listMyReports, type MyReport } from "~/server/reports.server";
import { handleForm } from "~/server/form.server";
import { limitAction } from "~/server/security.server";
import { orFailure } from "~/lib/forms";
import { reportSchema } from "~/lib/forms/report";
import { REPORT_UNREACHABLE } from "~/lib/forms/texts";
import "~/styles/quiz.css";
import type { Route } from "./+types/segnalato";

export async function loader(args: Route.LoaderArgs) {
  const user = await requirePageUser(args);
  return { reports: await listMyReports(dbOf(args.context), user.id) };
}

// POST /segnalato: a new report, from the dialog of the runner and of the summary (same service, schema and
// limit as POST /api/report-question). The answer is the form's reply; the dialog says what follows.
export async function action(args: Route.ActionArgs) {
  const user = await requirePageUser(args);
  const env = getEnv(args.context);
  return handleForm(args.request, reportSchema, async (report) => {
    await limitAction(env, "REPORT_LIMITER", user.id);
    await createReport(getDb(env.DB), user.id, report);
  });
}

export function clientAction({ serverAction }: Route.ClientActionArgs) {
  return orFailure(serverAction, REPORT_UNREACHABLE);
}

export default function MyReports() {
  const { reports } = useLoaderData<typeof loader>();
  const [open, setOpen] = useState<MyReport | null>(null);
  return (
    <section className="page practice-stack">
      <h1 className="page__title">{T.reportsTitle}</h1>
      {reports.length === 0 ? (
        <p className="practice-card">{T.reportsEmpty}</p>
      ) : (
        <ul className="list" aria-label={T.reportsTitle}>
          {reports.map((r) => (
            <li key={r.id} className="list-item" data-testid="report-item">
              <div>
                <h3>{r.title}</h3>
                <p className="muted small" style={{ margin: 0 }}>
                  {[r.subject, r.topic].filter(Boolean).join(" · ")} · {formatDateTime(r.createdAt)}
                </p>
              </div>
              <div className="row">
                <span className={`chip ${r.status === "resolved" ? "chip--ok" : "chip--warn"}`}>{r.statusLabel}</span>
                <button
                  type="button"
                  className="btn btn--small"
                  onClick={() => setOpen(r)}
                  aria-label={`Dettagli della segnalazione ${r.id}`}
                >
                  Dettagli
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {open ? (
        <Modal title={`Segnalazione #${open.id}`} onClose={() => setOpen(null)}>
          <dl className="details">
            <dt>Domanda</dt>
            <dd>{open.title}</dd>
            <dt>Materia</dt>
            <dd>{open.subject ?? "—"}</dd>
            <dt>Argomento</dt>
            <dd>{open.topic ?? "—"}</dd>
            <dt>Stato</dt>
            <dd>{open.statusLabel}</dd>
            <dt>Messaggio</dt>
            <dd>{open.message}</dd>
            <dt>La tua risposta</dt>
            <dd>{open.userAnswer || "—"}</dd>
            <dt>Risposta corretta</dt>
            <dd>{open.correctAnswer ?? "Visibile dopo aver consegnato un tentativo con questa domanda"}</dd>
            <dt>Note dello staff</dt>
            <dd>{open.adminNotes || "—"}</dd>
            <dt>Inviata il</dt>
            <dd>{formatDateTime(open.createdAt)}</dd>
            <dt>Aggiornata il</dt>
            <dd>{formatDateTime(open.updatedAt)}</dd>
          </dl>
        </Modal>
      ) : null}
    </section>
  );
}
