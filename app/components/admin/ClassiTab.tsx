/** Admin console tab 'Classi' (teachers and admins): create a class, share its join link, invite students by e-mail, manage members. */
import { ExtraTimePicker } from "./ExtraTimePicker";
import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { PROGRESS_UI as P } from "~/components/classes/progress-texts";
import { CLASS_UI as T } from "~/components/classes/texts";
import { Modal } from "~/components/ui/Modal";
import { useToast } from "~/components/ui/Toast";
import { ApiError } from "~/lib/api-client";
import { RefusedError, succeeded } from "~/lib/forms";
import { CLASS_NAME_MAX, ClassNameInput } from "~/lib/forms/classes";
import { useFormAction } from "~/lib/use-form-action";
import { ErrorText, formatDateTime, TableWrap } from "./admin-shared";
import "~/styles/admin-classes.css";

// The server's own row types (type-only: nothing of the server reaches the browser).
export type { ClassMember as Member, TeacherClass } from "~/server/classes.server";
import type { ClassMember as Member, TeacherClass } from "~/server/classes.server";
import type { InvitationResult, SentInvitation } from "~/server/class-invitations.server";

/**
 * `classes` and the `open` class's members come from the tab's loader (/admin/classi?classe=ID): the open dialog is
 * in the URL, and React Router reloads both after each write to the tab's action.
 */
export function ClassiTab({
  classes,
  open: opened,
}: {
  classes: TeacherClass[];
  open: { id: number; members: Member[]; invitations: SentInvitation[] } | null;
}) {
  const toast = useToast();
  const [name, setName] = useState("");
  const [nameError, setNameError] = useState<string | null>(null);
  const write = useFormAction<{ id: number }>("/admin/classi").call;
  const [busy, setBusy] = useState(false);
  const [, setParams] = useSearchParams();
  const setOpenId = (id: number | null) => setParams(id ? { classe: String(id) } : {}, { preventScrollReset: true });
  const open = classes.find((c) => c.id === opened?.id) ?? null;
  const showOwner = classes.some((c) => c.ownerId !== classes[0]?.ownerId);

  const create = async (event: React.FormEvent) => {
    event.preventDefault();
    // The server's own schema (app/lib/forms/classes.ts): the same rule and message before the class is saved.
    const checked = ClassNameInput.safeParse({ name });
    setNameError(checked.success ? null : (checked.error.issues[0]?.message ?? T.createError));
    if (!checked.success) return;
    const trimmed = checked.data.name;
    setBusy(true);
    try {
      const created = succeeded(await write({ intent: "create", name: trimmed }), T.createError)!;
      toast(T.created, "success");
      setName("");
      setOpenId(created.id);
    } catch (error) {
      const message = error instanceof ApiError || error instanceof RefusedError ? error.message : T.createError;
      setNameError(message);
      toast(T.createError, "error");
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="adm-classes">
      <h2>{T.title}</h2>
      <form className="adm-classes__new" onSubmit={create} noValidate>
        <label>
          {T.nameLabel}
          <input
            className="input"
            value={name}
            maxLength={CLASS_NAME_MAX + 20}
            placeholder={T.namePlaceholder}
            aria-invalid={nameError ? true : undefined}
            onChange={(e) => setName(e.target.value)}
          />
        </label>
        <button type="submit" className="btn btn--primary" disabled={busy}>
          {T.create}
        </button>
        {nameError ? <ErrorText message={nameError} /> : null}
      </form>

      {classes.length === 0 ? (
        <p className="muted">{T.empty}</p>
      ) : (
        <TableWrap label={T.title}>
          <table className="adm-table">
            <thead>
              <tr>
                <th scope="col">{T.colName}</th>
                <th scope="col">{T.colCode}</th>
                <th scope="col">{T.colMembers}</th>
                {showOwner ? <th scope="col">{T.colTeacher}</th> : null}
                <th scope="col">{T.colActions}</th>
              </tr>
            </thead>
            <tbody>
              {classes.map((c) => (
                <tr key={c.id} data-testid={`class-row-${c.id}`}>
                  <td>{c.name}</td>
                  <td>
                    <code>{c.code}</code>
                  </td>
                  <td>{c.memberCount}</td>
                  {showOwner ? <td>{c.ownerName}</td> : null}
                  <td>
                    <button
                      type="button"
                      className="btn"
                      onClick={() => setOpenId(c.id)}
                      aria-label={`${T.manage} ${c.name}`}
                    >
                      {T.manage}
                    </button>{" "}
                    <Link className="btn" to={`/admin/classi/${c.id}/progressi`} aria-label={P.openLabel(c.name)}>
                      {P.open}
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}

      {open ? (
        <ClassDialog
          key={open.id}
          cls={open}
          members={opened?.members ?? []}
          invitations={opened?.invitations ?? []}
          onDeleted={() => setOpenId(null)}
          onClose={() => setOpenId(null)}
        />
      ) : null}
    </div>
  );
}

function joinLink(code: string) {
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  return `${origin}/classi/unisciti/${code}`;
}

function ClassDialog({
  cls,
  members,
  invitations,
  onDeleted,
  onClose,
}: {
  cls: TeacherClass;
  members: Member[];
  invitations: SentInvitation[];
  onDeleted: () => void;
  onClose: () => void;
}) {
  const toast = useToast();
  const [emails, setEmails] = useState("");
  const [addBusy, setAddBusy] = useState(false);
  const [addResult, setAddResult] = useState<InvitationResult | null>(null);
  const [addError, setAddError] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const link = joinLink(cls.code);

  const fail = (error: unknown, fallback: string) =>
    toast(error instanceof ApiError || error instanceof RefusedError ? error.message : fallback, "error");
  const write = useFormAction<InvitationResult>("/admin/classi").call;

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      toast(T.copied, "success");
    } catch {
      // Clipboard refused (permissions): the link stays selectable on screen.
    }
  };

  const renew = async () => {
    try {
      succeeded(await write({ intent: "renew-code", classId: cls.id }), T.createError);
      toast(T.newCodeDone, "success");
    } catch (error) {
      fail(error, T.createError);
    }
  };

  const add = async (event: React.FormEvent) => {
    event.preventDefault();
    setAddBusy(true);
    setAddError(null);
    try {
      const result = succeeded(await write({ intent: "add-members", classId: cls.id, emails }), T.createError)!;
      setAddResult(result);
      setEmails(result.malformed.join("\n"));
    } catch (error) {
      setAddError(error instanceof ApiError || error instanceof RefusedError ? error.message : T.createError);
    } finally {
      setAddBusy(false);
    }
  };

  const remove = async (member: Member) => {
    try {
      succeeded(await write({ intent: "remove-member", classId: cls.id, userId: member.userId }), T.deleteError);
      toast(T.removed, "success");
    } catch (error) {
      fail(error, T.deleteError);
    }
  };

  const destroy = async () => {
    try {
      succeeded(await write({ intent: "delete", classId: cls.id }), T.deleteError);
      toast(T.deleted, "success");
      onDeleted();
    } catch (error) {
      fail(error, T.deleteError);
    }
  };

  return (
    <Modal title={cls.name} onClose={onClose} maxWidth={820}>
      <div className="adm-classes__dialog">
        <section className="adm-classes__join" aria-label={T.joinLink}>
          <p>
            {T.colCode}:{" "}
            <strong className="adm-classes__code" data-testid="class-code">
              {cls.code}
            </strong>
          </p>
          <label>
            {T.joinLink}
            <input
              className="input"
              readOnly
              value={link}
              data-testid="class-link"
              onFocus={(e) => e.currentTarget.select()}
            />
          </label>
          <div className="adm-classes__buttons">
            <button type="button" className="btn" onClick={() => void copy()}>
              {T.copyLink}
            </button>
            <button type="button" className="btn" onClick={() => void renew()}>
              {T.newCode}
            </button>
            <button type="button" className="btn btn--ghost" onClick={() => setConfirmDelete(true)}>
              {T.deleteClass}
            </button>
          </div>
        </section>

        <form className="adm-classes__paste" onSubmit={add}>
          <label>
            {T.pasteLabel}
            <textarea
              className="textarea"
              rows={4}
              value={emails}
              aria-describedby="class-invite-hint"
              onChange={(e) => setEmails(e.target.value)}
            />
          </label>
          <p className="muted small" id="class-invite-hint">
            {T.pasteHint}
          </p>
          <button type="submit" className="btn btn--primary" disabled={addBusy || !emails.trim()}>
            {T.add}
          </button>
          {addError ? <ErrorText message={addError} /> : null}
          {addResult ? (
            <div role="status" className="adm-classes__result">
              <p>{T.addResult(addResult.invited, addResult.alreadyMembers)}</p>
              {addResult.malformed.length ? (
                <>
                  <p>{T.malformed}</p>
                  <ul>
                    {addResult.malformed.map((e) => (
                      <li key={e}>{e}</li>
                    ))}
                  </ul>
                </>
              ) : null}
            </div>
          ) : null}
        </form>

        <h3>{T.members}</h3>
        {!members.length ? (
          <p className="muted">{T.noMembers}</p>
        ) : (
          <TableWrap label={T.members}>
            <table className="adm-table">
              <thead>
                <tr>
                  <th scope="col">{T.colStudent}</th>
                  <th scope="col">{T.colEmail}</th>
                  <th scope="col">{T.colJoined}</th>
                  <th scope="col">{T.colExtraTime}</th>
                  <th scope="col">{T.colActions}</th>
                </tr>
              </thead>
              <tbody>
                {members.map((m) => (
                  <tr key={m.userId}>
                    <td>{m.name}</td>
                    <td>{m.email}</td>
                    <td>{formatDateTime(m.joinedAt)}</td>
                    <td>
                      <MemberExtraTime classId={cls.id} member={m} />
                    </td>
                    <td>
                      <button
                        type="button"
                        className="btn btn--ghost"
                        onClick={() => void remove(m)}
                        aria-label={`${T.remove} ${m.name}`}
                      >
                        {T.remove}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        )}

        <h3>{T.invitations}</h3>
        {!invitations.length ? (
          <p className="muted">{T.noInvitations}</p>
        ) : (
          <TableWrap label={T.invitations}>
            <table className="adm-table">
              <thead>
                <tr>
                  <th scope="col">{T.colEmail}</th>
                  <th scope="col">{T.colInvited}</th>
                </tr>
              </thead>
              <tbody>
                {invitations.map((i) => (
                  <tr key={i.id}>
                    <td>{i.email}</td>
                    <td>{formatDateTime(i.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        )}
      </div>
      {confirmDelete ? (
        <Modal
          title={T.deleteConfirmTitle}
          onClose={() => setConfirmDelete(false)}
          footer={
            <>
              <button type="button" className="btn btn--ghost" onClick={() => setConfirmDelete(false)}>
                Annulla
              </button>
              <button type="button" className="btn btn--primary" onClick={() => void destroy()}>
                Elimina
              </button>
            </>
          }
        >
          <p>{T.deleteConfirm(cls.name)}</p>
        </Modal>
      ) : null}
    </Modal>
  );
}

/** A pupil's accommodation in this class (the teacher's choice), saved with its own button. */
function MemberExtraTime({ classId, member }: { classId: number; member: Member }) {
  const toast = useToast();
  const [pct, setPct] = useState(member.extraTimePct);
  const [busy, setBusy] = useState(false);
  const write = useFormAction<{ extraTimePct: number }>("/admin/classi").call;
  const save = async () => {
    setBusy(true);
    try {
      succeeded(
        await write({ intent: "extra-time", classId, userId: member.userId, extraTimePct: pct }),
        T.extraTimeError,
      );
      toast(T.extraTimeSaved(member.name, pct), "success");
    } catch (error) {
      toast(error instanceof ApiError || error instanceof RefusedError ? error.message : T.extraTimeError, "error");
    } finally {
      setBusy(false);
    }
  };
  return (
    <span className="adm-classes__extra" data-testid={`extra-time-${member.userId}`}>
      <ExtraTimePicker value={pct} onChange={setPct} label={`${T.colExtraTime}: ${member.name}`} disabled={busy} />
      <button
        type="button"
        className="btn"
        disabled={busy || pct === member.extraTimePct}
        onClick={() => void save()}
        aria-label={`${T.saveExtraTime} ${T.colExtraTime.toLowerCase()} ${member.name}`}
      >
        {T.saveExtraTime}
      </button>
    </span>
  );
}
