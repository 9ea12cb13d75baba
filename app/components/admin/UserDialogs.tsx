// The user detail dialog (admin user view with every stat) and the create/edit form of the Utenti tab.
import { ExtraTimePicker } from "./ExtraTimePicker";
import { useState } from "react";
import { Modal } from "~/components/ui/Modal";
import { useLookup } from "~/lib/use-lookup";
import { useToast } from "~/components/ui/Toast";
import { ApiError } from "~/lib/api-client";
import { RefusedError, succeeded } from "~/lib/forms";
import { useFormAction } from "~/lib/use-form-action";
import {
  ErrorText,
  formatDate,
  formatDateTime,
  formatNumber,
  LabelOptions,
  Loading,
  ROLE_LABEL,
  STATUS_LABEL,
  T,
} from "./admin-shared";

export type AdminUser = {
  id: number;
  name: string;
  email: string;
  phone: string | null;
  username: string | null;
  city: string | null;
  school: string | null;
  year: number | null;
  telegram: string | null;
  instagram: string | null;
  bio: string | null;
  verified: boolean;
  marketing: boolean;
  theme: "dark" | "light";
  role: "studente" | "docente" | "moderator" | "admin";
  status: "attivo" | "sospeso";
  suspensionReason: string | null;
  /** Accommodation: extra time in simulations (0-100 %). */
  extraTimePct?: number;
  createdAt: string;
  lastLogin: string | null;
  attempts?: number;
};

type Stats = {
  attempts: number;
  avgScore: number;
  percentile: number;
  lastLogin: string | null;
  totalTimeMin: number;
  correct: number;
  wrong: number;
  unanswered: number;
  avgTimeSec: number;
  streak: number;
  bestStreak: number;
};

// The spec's rule for the detail view: numbers floored at 0, percentile clamped to 0-100.
const floor0 = (n: number | null | undefined) => Math.max(0, Math.floor(Number(n) || 0));
const clampPct = (n: number | null | undefined) => Math.min(100, Math.max(0, Math.round(Number(n) || 0)));

export function UserDetailDialog({ userId, onClose }: { userId: number; onClose: () => void }) {
  const { data, error, loading } = useLookup<AdminUser & { stats: Stats }>(`/admin/utente/${userId}`);
  const s = data?.stats;
  return (
    <Modal title={data ? `Utente: ${data.name}` : "Dettagli utente"} onClose={onClose} maxWidth={760}>
      {loading && !data ? <Loading /> : null}
      {error ? <ErrorText message={error} /> : null}
      {data && s ? (
        <>
          <dl className="adm-stats" aria-label="Profilo">
            {[
              ["ID", data.id],
              ["Email", data.email],
              ["Telefono", data.phone],
              ["Username", data.username],
              ["Città", data.city],
              ["Scuola", data.school],
              ["Anno", data.year],
              ["Telegram", data.telegram],
              ["Instagram", data.instagram],
              ["Verificato", data.verified ? "Sì" : "No"],
              ["Newsletter", data.marketing ? "Sì" : "No"],
              ["Tema", data.theme === "dark" ? "Scuro" : "Chiaro"],
              ["Ruolo", ROLE_LABEL[data.role]],
              ["Stato", STATUS_LABEL[data.status]],
              ["Tempo aggiuntivo", data.extraTimePct ? `+${data.extraTimePct} %` : "Nessuno"],
              ["Registrato il", formatDate(data.createdAt)],
            ].map(([label, value]) => (
              <div key={String(label)}>
                <dt>{label}</dt>
                <dd>{value === null || value === undefined || value === "" ? "—" : String(value)}</dd>
              </div>
            ))}
          </dl>
          {data.status === "sospeso" && data.suspensionReason ? (
            <p className="alert">Motivo della sospensione: {data.suspensionReason}</p>
          ) : null}
          {data.bio ? (
            <p>
              <strong>Bio:</strong> {data.bio}
            </p>
          ) : null}
          <h3>Statistiche</h3>
          <dl className="adm-stats" aria-label="Statistiche">
            {[
              ["Tentativi", floor0(s.attempts)],
              ["Punteggio medio", `${formatNumber(Math.max(0, s.avgScore))}/31`],
              ["Percentile", `${clampPct(s.percentile)}°`],
              ["Ultimo accesso", formatDateTime(s.lastLogin)],
              ["Tempo totale", `${floor0(s.totalTimeMin)} min`],
              ["Corrette", floor0(s.correct)],
              ["Sbagliate", floor0(s.wrong)],
              ["Non risposte", floor0(s.unanswered)],
              ["Tempo medio per domanda", `${floor0(s.avgTimeSec)} s`],
              ["Serie attuale", `${floor0(s.streak)} giorni`],
              ["Serie migliore", `${floor0(s.bestStreak)} giorni`],
            ].map(([label, value]) => (
              <div key={String(label)}>
                <dt>{label}</dt>
                <dd>{String(value)}</dd>
              </div>
            ))}
          </dl>
          <p>
            <a href={`/admin/tentativi?userId=${data.id}`}>Vedi i tentativi di questo utente</a>
          </p>
        </>
      ) : null}
    </Modal>
  );
}

type FormState = {
  name: string;
  email: string;
  phone: string;
  username: string;
  city: string;
  school: string;
  year: string;
  telegram: string;
  instagram: string;
  bio: string;
  verified: boolean;
  marketing: boolean;
  theme: "dark" | "light";
  role: "studente" | "docente" | "moderator" | "admin";
  extraTimePct: number;
};

const TEXT_FIELDS: [keyof FormState, string, string?][] = [
  ["name", "Nome"],
  ["email", "Email", "email"],
  ["phone", "Telefono", "tel"],
  ["username", "Username"],
  ["city", "Città"],
  ["school", "Scuola"],
  ["telegram", "Telegram"],
  ["instagram", "Instagram"],
];

export function UserFormDialog({
  user,
  onClose,
  onSaved,
}: {
  user: AdminUser | null;
  onClose: () => void;
  onSaved: (user: AdminUser) => void;
}) {
  const [form, setForm] = useState<FormState>({
    name: user?.name ?? "",
    email: user?.email ?? "",
    phone: user?.phone ?? "",
    username: user?.username ?? "",
    city: user?.city ?? "",
    school: user?.school ?? "",
    year: user?.year != null ? String(user.year) : "",
    telegram: user?.telegram ?? "",
    instagram: user?.instagram ?? "",
    bio: user?.bio ?? "",
    verified: user?.verified ?? false,
    marketing: user?.marketing ?? false,
    theme: user?.theme ?? "dark",
    role: user?.role ?? "studente",
    extraTimePct: user?.extraTimePct ?? 0,
  });
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  // The save posts to the Utenti tab's action (/admin/utenti, intent "save-user").
  const write = useFormAction<AdminUser>("/admin/utenti").call;
  const toast = useToast();
  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => setForm((f) => ({ ...f, [key]: value }));

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!form.name.trim() || !form.email.trim()) {
      setError(T.missingNameEmail);
      return;
    }
    const body = {
      ...form,
      name: form.name.trim(),
      email: form.email.trim(),
      // year is sent as a number or null (spec section 5).
      year: form.year.trim() === "" ? null : Number(form.year),
      phone: form.phone || null,
      username: form.username || null,
      city: form.city || null,
      school: form.school || null,
      telegram: form.telegram || null,
      instagram: form.instagram || null,
      bio: form.bio || null,
    };
    setSaving(true);
    setError(null);
    try {
      const saved = succeeded(await write({ intent: "save-user", id: user?.id ?? null, user: body }), T.saveError);
      onSaved(saved!);
    } catch (e) {
      setError(e instanceof ApiError || e instanceof RefusedError ? e.message : T.saveError);
      setSaving(false);
      toast(T.saveError, "error");
    }
  };

  return (
    <Modal
      title={user ? "Modifica utente" : "Nuovo utente"}
      onClose={onClose}
      maxWidth={760}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>
            Annulla
          </button>
          <button type="submit" form="adm-user-form" className="btn btn--primary" disabled={saving}>
            Salva
          </button>
        </>
      }
    >
      <form id="adm-user-form" className="adm-form" onSubmit={(e) => void submit(e)} noValidate>
        {TEXT_FIELDS.map(([key, label, type]) => (
          <label key={key} className="adm-field">
            <span>{label}</span>
            <input
              type={type ?? "text"}
              value={form[key] as string}
              onChange={(e) => set(key, e.target.value as never)}
              autoComplete="off"
            />
          </label>
        ))}
        <label className="adm-field">
          <span>Anno</span>
          <input type="number" min={1} max={10} value={form.year} onChange={(e) => set("year", e.target.value)} />
        </label>
        <label className="adm-field">
          <span>Ruolo</span>
          <select value={form.role} onChange={(e) => set("role", e.target.value as FormState["role"])}>
            <LabelOptions labels={ROLE_LABEL} />
          </select>
        </label>
        <div className="adm-field">
          <span>Tempo aggiuntivo nelle simulazioni</span>
          <ExtraTimePicker value={form.extraTimePct} onChange={(pct) => set("extraTimePct", pct)} />
        </div>
        <label className="adm-field">
          <span>Tema</span>
          <select value={form.theme} onChange={(e) => set("theme", e.target.value as FormState["theme"])}>
            <option value="dark">Scuro</option>
            <option value="light">Chiaro</option>
          </select>
        </label>
        <label className="adm-field adm-field--check">
          <input type="checkbox" checked={form.verified} onChange={(e) => set("verified", e.target.checked)} />
          <span>Verificato</span>
        </label>
        <label className="adm-field adm-field--check">
          <input type="checkbox" checked={form.marketing} onChange={(e) => set("marketing", e.target.checked)} />
          <span>Newsletter</span>
        </label>
        <label className="adm-field adm-field--wide">
          <span>Bio</span>
          <textarea value={form.bio} onChange={(e) => set("bio", e.target.value)} />
        </label>
        {error ? (
          <div className="adm-field--wide">
            <ErrorText message={error} />
          </div>
        ) : null}
      </form>
    </Modal>
  );
}

/** Asks the suspension reason; cancelling aborts (spec section 4). */
export function SuspendDialog({
  user,
  onCancel,
  onConfirm,
}: {
  user: AdminUser;
  onCancel: () => void;
  onConfirm: (reason: string) => Promise<void>;
}) {
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) {
      setError("Indica il motivo della sospensione.");
      return;
    }
    setBusy(true);
    await onConfirm(reason.trim()).finally(() => setBusy(false));
  };
  return (
    <Modal
      title={`Sospendi ${user.name}`}
      onClose={onCancel}
      footer={
        <>
          <button type="button" className="btn" onClick={onCancel}>
            Annulla
          </button>
          <button type="submit" form="adm-suspend-form" className="btn btn--primary" disabled={busy}>
            Sospendi
          </button>
        </>
      }
    >
      <form id="adm-suspend-form" onSubmit={(e) => submit(e).catch(() => {})}>
        <label className="adm-field">
          <span>Motivo della sospensione</span>
          <textarea value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} autoFocus />
        </label>
        <p className="muted small">L'utente vedrà questo motivo alla sua prossima azione.</p>
        {error ? <ErrorText message={error} /> : null}
      </form>
    </Modal>
  );
}
