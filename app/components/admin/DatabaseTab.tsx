// Admin console tab 'Database': the imports (JSON or CSV, all-or-nothing, formats in docs/imports.md)
// with upload progress, regrading, aggregate rebuild and the database reset (with confirmation).
import { useRef, useState } from "react";
import { Modal } from "~/components/ui/Modal";
import { useToast } from "~/components/ui/Toast";
import { reportSessionProblem } from "~/lib/session-events";
import { T } from "./admin-shared";
import { succeeded } from "~/lib/forms";
import { useFormAction } from "~/lib/use-form-action";

type Counts = Record<string, number | boolean | Record<string, number> | string[]>;

const COUNT_LABELS: Record<string, string> = {
  importedQuestions: "domande",
  importedUsers: "utenti",
  importedAttempts: "tentativi",
  importedReports: "segnalazioni",
  importedSubjects: "materie",
  importedTopics: "argomenti",
  importedSubtopics: "sotto-argomenti",
  updatedQuestions: "domande aggiornate",
  updatedAttempts: "tentativi aggiornati",
  recalculated: "tentativi ricalcolati",
};

/** "Importati: 2 domande, 1 utenti" from the counts the server answers. */
export function describeCounts(prefix: string, counts: Counts) {
  const parts = Object.entries(counts)
    .filter(([k, v]) => typeof v === "number" && COUNT_LABELS[k])
    .map(([k, v]) => `${v} ${COUNT_LABELS[k]}`);
  return parts.length ? `${prefix}: ${parts.join(", ")}` : prefix;
}

type Job = { phase: "upload" | "server"; percent: number } | null;

/** POSTs a file with upload progress (XMLHttpRequest); same session overlay as apiFetch on 401/403/423. */
function postWithProgress(
  path: string,
  body: Blob | string | null,
  contentType: string | null,
  onProgress: (p: NonNullable<Job>) => void,
): Promise<Counts> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", path);
    xhr.withCredentials = true;
    if (contentType) xhr.setRequestHeader("Content-Type", contentType);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress({ phase: "upload", percent: Math.round((e.loaded / e.total) * 100) });
    };
    xhr.upload.onload = () => onProgress({ phase: "server", percent: 100 });
    xhr.onerror = () => reject(new Error("Errore di rete: controlla la connessione e riprova."));
    xhr.onload = () => {
      let data: Record<string, unknown> = {};
      try {
        data = JSON.parse(xhr.responseText || "{}");
      } catch {
        // a non-JSON answer: fall through with an empty body
      }
      if (xhr.status >= 200 && xhr.status < 300) return resolve(data as Counts);
      if (xhr.status === 423) reportSessionProblem({ kind: "suspended", reason: String(data.reason ?? "") });
      else if (xhr.status === 401) reportSessionProblem({ kind: "expired" });
      reject(new Error(typeof data.error === "string" ? data.error : `Errore ${xhr.status}`));
    };
    xhr.send(body);
  });
}

type ImportSpec = { key: string; path: string; title: string; help: string; errorToast: string };

const IMPORTS: ImportSpec[] = [
  {
    key: "import",
    path: "/api/admin/import",
    title: "Importa domande (e dati)",
    help: "JSON con questions, users, attempts, reports; oppure CSV di domande.",
    errorToast: T.importError,
  },
  {
    key: "taxonomy",
    path: "/api/admin/import-taxonomy",
    title: "Importa materie e argomenti",
    help: "JSON ad albero o CSV con materia, argomento, sotto-argomento.",
    errorToast: T.taxonomyError,
  },
  {
    key: "difficulty",
    path: "/api/admin/import-difficulty",
    title: "Importa difficoltà",
    help: "JSON o CSV con question_id e difficulty (1-5).",
    errorToast: T.difficultyError,
  },
  {
    key: "users",
    path: "/api/admin/import-users",
    title: "Importa utenti e tentativi",
    help: "JSON { users, attempts } o CSV di utenti.",
    errorToast: T.usersError,
  },
  {
    key: "attempts",
    path: "/api/admin/import-attempts",
    title: "Importa tentativi",
    help: "JSON con le risposte (valutate dal server) o CSV con i totali.",
    errorToast: T.attemptsError,
  },
];

function ImportCard({ spec, busy, setBusy }: { spec: ImportSpec; busy: boolean; setBusy: (b: boolean) => void }) {
  const toast = useToast();
  const fileRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [job, setJob] = useState<Job>(null);
  const [result, setResult] = useState<{ ok: boolean; text: string; warnings?: string[] } | null>(null);
  const inputId = `adm-file-${spec.key}`;

  const run = async () => {
    if (!file) return;
    setBusy(true);
    setResult(null);
    setJob({ phase: "upload", percent: 0 });
    const type =
      /\.csv$/i.test(file.name) || file.type.includes("csv") ? "text/csv; charset=utf-8" : "application/json";
    try {
      const counts = await postWithProgress(spec.path, file, type, setJob);
      const text = describeCounts("Importazione completata", counts);
      // An official paper imports as published: a rule of style of our bank only warns (issue 44).
      const warnings = Array.isArray(counts.warnings) ? counts.warnings : [];
      setResult({ ok: true, text, warnings });
      toast(text, "success");
      setFile(null);
      if (fileRef.current) fileRef.current.value = "";
    } catch (e) {
      setResult({ ok: false, text: (e as Error).message });
      toast(spec.errorToast, "error");
    } finally {
      setJob(null);
      setBusy(false);
    }
  };

  return (
    <section className="adm-card" aria-labelledby={`${inputId}-title`}>
      <h3 id={`${inputId}-title`}>{spec.title}</h3>
      <p className="muted small">{spec.help} Tutto o niente: una riga non valida non importa nulla.</p>
      <label className="adm-field" htmlFor={inputId}>
        <span>File JSON o CSV</span>
      </label>
      <input
        id={inputId}
        ref={fileRef}
        type="file"
        accept=".json,.csv,application/json,text/csv"
        onChange={(e) => setFile(e.target.files?.[0] ?? null)}
      />
      <div className="adm-actions" style={{ marginTop: "0.75rem" }}>
        <button type="button" className="btn btn--primary" onClick={() => void run()} disabled={!file || busy}>
          Importa
        </button>
      </div>
      {job ? (
        <div role="status" style={{ marginTop: "0.5rem" }}>
          <progress
            className="adm-progress"
            max={100}
            value={job.phase === "upload" ? job.percent : undefined}
            aria-label="Avanzamento importazione"
          />
          <p className="small muted">
            {job.phase === "upload" ? `Caricamento del file: ${job.percent}%` : "Verifica e scrittura sul server…"}
          </p>
        </div>
      ) : null}
      {result ? (
        <p className={result.ok ? "alert" : "alert alert--error"} role={result.ok ? "status" : "alert"}>
          {result.text}
        </p>
      ) : null}
      {result?.warnings?.length ? (
        <div className="alert" role="status">
          <p className="small">
            {T.importWarnings} ({result.warnings.length}):
          </p>
          <ul className="small">
            {result.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}

export function DatabaseTab() {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const [confirmReset, setConfirmReset] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  // The maintenance buttons post to this tab's action (/admin/database); imports keep their upload progress.
  const write = useFormAction<Counts>("/admin/database").call;
  const maintenance = async (
    intent: string,
    okPrefix: string,
    errorToast: string,
    body: Record<string, unknown> = {},
  ) => {
    setBusy(true);
    setMessage(null);
    try {
      const counts = succeeded(await write({ intent, ...body }), errorToast) ?? {};
      const text = describeCounts(okPrefix, counts);
      setMessage({ ok: true, text });
      toast(okPrefix === T.resetDone ? T.resetDone : text, "success");
    } catch (e) {
      setMessage({ ok: false, text: (e as Error).message });
      toast(errorToast, "error");
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="adm-grid">
      <p className="muted">
        Formati dei file ed esempi: <code>docs/imports.md</code> e <code>docs/examples/</code> nel repository.
      </p>
      <div className="adm-db">
        {IMPORTS.map((spec) => (
          <ImportCard key={spec.key} spec={spec} busy={busy} setBusy={setBusy} />
        ))}
      </div>
      <section className="adm-card" aria-labelledby="adm-maint">
        <h3 id="adm-maint">Manutenzione</h3>
        <div className="adm-actions">
          <button
            type="button"
            className="btn"
            disabled={busy}
            onClick={() => void maintenance("reprocess", "Risposte riprocessate", T.reprocessError)}
          >
            Riprocessa risposte dei tentativi
          </button>
          <button
            type="button"
            className="btn"
            disabled={busy}
            onClick={() => void maintenance("recalc-stats", "Statistiche ricalcolate", T.recalcError)}
          >
            Ricalcola statistiche
          </button>
          <button type="button" className="btn adm-danger" disabled={busy} onClick={() => setConfirmReset(true)}>
            Reset database
          </button>
        </div>
        {message ? (
          <p
            className={message.ok ? "alert" : "alert alert--error"}
            role={message.ok ? "status" : "alert"}
            style={{ marginTop: "0.75rem" }}
          >
            {message.text}
          </p>
        ) : null}
      </section>
      {confirmReset ? (
        <Modal
          title="Reset del database"
          onClose={() => setConfirmReset(false)}
          footer={
            <>
              <button type="button" className="btn" onClick={() => setConfirmReset(false)}>
                Annulla
              </button>
              <button
                type="button"
                className="btn btn--primary"
                onClick={() => {
                  setConfirmReset(false);
                  void maintenance("reset-db", T.resetDone, T.resetError, { confirm: "RESET" });
                }}
              >
                Sì, cancella tutto
              </button>
            </>
          }
        >
          <p>
            Verranno cancellati domande, materie, tentativi, segnalazioni, simulazioni, eventi Rush e tutti gli account
            tranne il tuo. Il registro attività resta. L'operazione non si può annullare.
          </p>
          <p className="muted small">Il server la esegue solo se è avviato con ALLOW_DB_RESET=1.</p>
        </Modal>
      ) : null}
    </div>
  );
}
