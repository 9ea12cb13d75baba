/**
 * Who may enter a simulation, picked by name: students found with the console search (name, username or
 * e-mail) and classes from a list, both shown as removable chips. Nobody types an id.
 */
import { useId, useState } from "react";
import { useLookup } from "~/lib/use-lookup";
import { useSettled } from "~/lib/use-settled";
import type { TeacherClass } from "./ClassiTab";
import "~/styles/admin-classes.css";

export type Chip = { id: number; label: string };
type FoundUser = { id: number; name: string; username: string | null; email: string };

const MIN_QUERY = 2;

export const PICKER_TEXT = {
  legend: "Chi partecipa",
  classes: "Classi",
  noClasses: "Nessuna classe: creane una nella scheda Classi.",
  search: "Cerca studenti (nome, username o email)",
  searchPlaceholder: "es. Giulia o giulia.rossi",
  noResults: "Nessuno studente trovato.",
  selected: "Partecipanti scelti",
  none: "Nessun partecipante scelto.",
  remove: (label: string) => `Rimuovi ${label}`,
  members: (n: number) => (n === 1 ? "1 studente" : `${n} studenti`),
} as const;

/** `classes`: the user's classes, from the tab's loader; the students are searched as the user types. */
export function AudiencePicker(props: {
  classes: TeacherClass[];
  users: Chip[];
  classIds: number[];
  onUsers: (users: Chip[]) => void;
  onClasses: (ids: number[]) => void;
}) {
  const id = useId();
  const [q, setQ] = useState("");
  // Students found by the console's search route once typing settles (a fetcher: /admin/cerca).
  const text = useSettled(q.trim(), 200);
  const found =
    useLookup<{ users: FoundUser[] }>(text.length >= MIN_QUERY ? `/admin/cerca?q=${encodeURIComponent(text)}` : null)
      .data?.users ?? null;
  const { classes } = props;

  const addUser = (u: FoundUser) => {
    if (!props.users.some((c) => c.id === u.id))
      props.onUsers([...props.users, { id: u.id, label: u.name ? `${u.name} (${u.email})` : u.email }]);
    setQ("");
  };
  const toggleClass = (classId: number, on: boolean) =>
    props.onClasses(on ? [...new Set([...props.classIds, classId])] : props.classIds.filter((c) => c !== classId));
  const classLabel = (classId: number) => classes.find((c) => c.id === classId)?.name ?? `Classe ${classId}`;

  return (
    <fieldset className="adm-picker">
      <legend>{PICKER_TEXT.legend}</legend>
      <div>
        <p className="muted small">{PICKER_TEXT.classes}</p>
        {classes.length === 0 ? (
          <p className="muted small">{PICKER_TEXT.noClasses}</p>
        ) : (
          <div className="adm-picker__classes">
            {classes.map((c) => (
              <label key={c.id}>
                <input
                  type="checkbox"
                  checked={props.classIds.includes(c.id)}
                  onChange={(e) => toggleClass(c.id, e.target.checked)}
                />
                {c.name} <span className="muted">({PICKER_TEXT.members(c.memberCount)})</span>
              </label>
            ))}
          </div>
        )}
      </div>
      <label htmlFor={`${id}-q`}>{PICKER_TEXT.search}</label>
      <input
        id={`${id}-q`}
        type="search"
        autoComplete="off"
        value={q}
        placeholder={PICKER_TEXT.searchPlaceholder}
        onChange={(e) => setQ(e.target.value)}
      />
      {found ? (
        found.length === 0 ? (
          <p className="muted small" role="status">
            {PICKER_TEXT.noResults}
          </p>
        ) : (
          <ul className="adm-picker__results" aria-label={PICKER_TEXT.search}>
            {found.map((u) => (
              <li key={u.id}>
                <button type="button" onClick={() => addUser(u)}>
                  {u.name || u.email}{" "}
                  <span className="muted">
                    · {u.username ? `${u.username} · ` : ""}
                    {u.email}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )
      ) : null}
      <p className="muted small">{PICKER_TEXT.selected}</p>
      {props.users.length + props.classIds.length === 0 ? (
        <p className="muted small">{PICKER_TEXT.none}</p>
      ) : (
        <ul className="adm-picker__chips" aria-label={PICKER_TEXT.selected}>
          {props.classIds.map((classId) => (
            <li key={`c${classId}`} className="adm-picker__chip">
              {classLabel(classId)}
              <button
                type="button"
                aria-label={PICKER_TEXT.remove(classLabel(classId))}
                onClick={() => toggleClass(classId, false)}
              >
                ✕
              </button>
            </li>
          ))}
          {props.users.map((u) => (
            <li key={`u${u.id}`} className="adm-picker__chip">
              {u.label}
              <button
                type="button"
                aria-label={PICKER_TEXT.remove(u.label)}
                onClick={() => props.onUsers(props.users.filter((x) => x.id !== u.id))}
              >
                ✕
              </button>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}
