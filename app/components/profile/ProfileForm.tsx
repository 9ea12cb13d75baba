// The profile form (spec section 2 'Profile'): username and email read only, cf forced uppercase,
// every field checked as you type by the schema the server checks again (app/lib/forms/profile.ts, same
// messages; loaded with zod when the form is first touched, so the page itself ships neither); Save posts to /profilo's action, only when something changed and no save is running; export of
// all your data as a JSON file.
import type { Profile } from "~/lib/profile";
import { useCallback, useMemo, useRef, useState } from "react";
import { useToast } from "~/components/ui/Toast";
import { formError } from "~/lib/forms";
import { useFormAction } from "~/lib/use-form-action";
import { TIME_ZONE } from "~/lib/constants";

export type ProfileData = Profile;

const EDITABLE = ["phone", "bio", "goal", "city", "school", "schoolYear", "birth", "cf", "address", "zip"] as const;
type Editable = (typeof EDITABLE)[number];
type FormValues = Record<Editable, string>;

function toForm(p: ProfileData): FormValues {
  return Object.fromEntries(EDITABLE.map((k) => [k, p[k] == null ? "" : String(p[k])])) as FormValues;
}

/** The form's values as the action (and POST /api/profile) takes them. */
function bodyOf(v: FormValues) {
  return Object.fromEntries(EDITABLE.map((k) => [k, k === "schoolYear" ? (v[k] ? Number(v[k]) : null) : v[k]]));
}

type FieldErrors = Partial<Record<Editable, string>>;
type Checker = (body: Record<string, unknown>) => Record<string, string>;

/**
 * The schema's verdict per field, in the server's words, once the checker (and zod with it) has arrived: it is
 * fetched on the form's first focus or change. Until then nothing is flagged; the server checks the save anyway.
 */
function useProfileChecker(): [Checker | null, () => void] {
  const [checker, setChecker] = useState<Checker | null>(null);
  const asked = useRef(false);
  const load = useCallback(() => {
    if (asked.current) return;
    asked.current = true;
    import("./profile-checks").then(
      (m) => setChecker(() => m.profileFieldErrors),
      () => {
        asked.current = false; // offline: try again on the next focus
      },
    );
  }, []);
  return [checker, load];
}

const dateTime = new Intl.DateTimeFormat("it-IT", { dateStyle: "long", timeStyle: "short", timeZone: TIME_ZONE });

export function ProfileForm({ initial }: { initial: ProfileData }) {
  const toast = useToast();
  const [saved, setSaved] = useState<FormValues>(() => toForm(initial));
  const [values, setValues] = useState<FormValues>(saved);
  const { busy: saving, submit } = useFormAction<ProfileData>("/profilo");
  const [serverError, setServerError] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const [checker, loadChecker] = useProfileChecker();
  const errors = useMemo((): FieldErrors => (checker ? checker(bodyOf(values)) : {}), [checker, values]);
  const dirty = EDITABLE.some((k) => values[k] !== saved[k]);
  const hasErrors = Object.keys(errors).length > 0;

  const set = (key: Editable) => (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => {
    const value = key === "cf" ? e.target.value.toUpperCase() : e.target.value;
    loadChecker();
    setValues((v) => ({ ...v, [key]: value }));
    setServerError(null);
  };

  function save(e: React.FormEvent) {
    e.preventDefault();
    if (!dirty || saving || hasErrors) return;
    setServerError(null);
    submit({ intent: "profile", ...bodyOf(values) }, (reply) => {
      const refused = formError(reply);
      if (refused || !reply.value) {
        toast("Salvataggio fallito", "error");
        setServerError(refused ?? "Errore di rete: controlla la connessione e riprova.");
        return;
      }
      const next = toForm(reply.value);
      setSaved(next);
      setValues(next);
      toast("Profilo aggiornato!", "success");
    });
  }

  async function exportData() {
    setExporting(true);
    try {
      const response = await fetch("/api/profile/export", { credentials: "same-origin" });
      if (!response.ok) throw new Error(String(response.status));
      const blob = await response.blob();
      const name =
        /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") ?? "")?.[1] ?? "unicum-dati.json";
      const url = URL.createObjectURL(blob);
      const link = document.createElement("a");
      link.href = url;
      link.download = name;
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch {
      toast("Esportazione fallita", "error");
    } finally {
      setExporting(false);
    }
  }

  const field = (key: Editable, label: string, props: React.InputHTMLAttributes<HTMLInputElement> = {}) => (
    <label className="field">
      <span>{label}</span>
      <input
        name={key}
        value={values[key]}
        onChange={set(key)}
        aria-invalid={errors[key] ? true : undefined}
        aria-describedby={errors[key] ? `${key}-error` : undefined}
        {...props}
        className={props.className ? `input ${props.className}` : "input"}
      />
      {errors[key] ? (
        <span id={`${key}-error`} className="field__error">
          {errors[key]}
        </span>
      ) : null}
    </label>
  );

  return (
    <form className="profile__card" onSubmit={save} onFocus={loadChecker} noValidate aria-labelledby="profile-data">
      <h2 id="profile-data" className="profile__h2">
        I tuoi dati
      </h2>
      <div className="profile__grid">
        <label className="field">
          <span>Nome utente</span>
          <input
            name="username"
            value={initial.username ?? ""}
            readOnly
            aria-readonly="true"
            className="input is-readonly"
          />
        </label>
        <label className="field">
          <span>Email (account Google, non modificabile)</span>
          <input
            name="email"
            type="email"
            value={initial.email}
            readOnly
            aria-readonly="true"
            className="input is-readonly"
          />
        </label>
        {field("phone", "Telefono", { type: "tel", inputMode: "tel", autoComplete: "tel" })}
        {field("birth", "Data di nascita", { type: "date" })}
        {field("cf", "Codice fiscale", {
          maxLength: 16,
          autoComplete: "off",
          spellCheck: false,
          className: "is-upper",
        })}
        {field("city", "Città", { autoComplete: "address-level2" })}
        {field("address", "Indirizzo", { autoComplete: "street-address" })}
        {field("zip", "CAP", { inputMode: "numeric", maxLength: 5, autoComplete: "postal-code" })}
        {field("school", "Scuola")}
        <label className="field">
          <span>Anno scolastico</span>
          <select className="select" name="schoolYear" value={values.schoolYear} onChange={set("schoolYear")}>
            <option value="">Non indicato</option>
            {[1, 2, 3, 4, 5].map((y) => (
              <option key={y} value={y}>
                {y}° anno
              </option>
            ))}
          </select>
        </label>
        {field("goal", "Obiettivo", { placeholder: "Es. Medicina a Milano" })}
        <label className="field profile__wide">
          <span>Bio</span>
          <textarea className="textarea" name="bio" rows={3} value={values.bio} onChange={set("bio")} maxLength={500} />
        </label>
      </div>
      {serverError ? (
        <p className="alert alert--error" role="alert">
          {serverError}
        </p>
      ) : null}
      <dl className="profile__meta">
        <div>
          <dt>Iscritto dal</dt>
          <dd data-testid="created-at">{dateTime.format(new Date(initial.createdAt))}</dd>
        </div>
        <div>
          <dt>Ultimo accesso</dt>
          <dd data-testid="last-login">{initial.lastLogin ? dateTime.format(new Date(initial.lastLogin)) : "—"}</dd>
        </div>
      </dl>
      <div className="profile__actions">
        <button type="submit" className="btn btn--primary" disabled={!dirty || saving || hasErrors}>
          {saving ? "Salvataggio…" : "Salva"}
        </button>
        <button type="button" className="btn" onClick={exportData} disabled={exporting}>
          {exporting ? "Esportazione…" : "Esporta i miei dati (JSON)"}
        </button>
      </div>
    </form>
  );
}
