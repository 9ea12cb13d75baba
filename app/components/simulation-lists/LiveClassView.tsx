/** The teacher's live view of a class simulation (issue 32, point 3): the room's clock, each pupil's status and answers in the current subject, the leaderboard after each subject (top 3 unless asked). */
import { useEffect, useMemo, useState } from "react";
import { Link } from "react-router";
import { TableWrap } from "~/components/admin/admin-shared";
import { LIVE_UI as T } from "~/components/classes/progress-texts";
import { formatDecimal } from "~/lib/format";
import { leaderboard, mergedPupils, pupilStatus, shownRows, STATUS_LABEL } from "~/lib/live-view";
import { phaseAt } from "~/lib/simulation";
import type { LivePage } from "~/server/class-live.server";
import { useStaffRooms } from "./useStaffRooms";
import "~/styles/admin-simulations.css";

/** Server time: the loader's instant plus the time spent on the page, or the sockets' clock once measured. */
function useRoomNow(loaderNow: number, offset: number | null) {
  const [now, setNow] = useState(loaderNow);
  useEffect(() => {
    const base = performance.now();
    const tick = () => setNow(offset != null ? performance.now() + offset : loaderNow + (performance.now() - base));
    tick();
    const timer = setInterval(tick, 500);
    return () => clearInterval(timer);
  }, [loaderNow, offset]);
  return now;
}

const mmss = (ms: number) => {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${String(Math.floor(s / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
};

export function LiveClassView({ page }: { page: LivePage }) {
  const { rooms, connected, offset } = useStaffRooms(page.id, page.rooms, page.shards);
  const now = useRoomNow(page.now, offset);
  const [showAll, setShowAll] = useState(false);
  const started = rooms.find((r) => r?.startTime != null);
  const graded = rooms.length > 0 && rooms.every((r) => r?.graded);
  const phase = phaseAt(page.flow, started?.startTime ?? null, now);
  const current = phase.kind === "waiting" ? 0 : phase.index;
  const subject = page.flow[current];
  const merged = useMemo(() => mergedPupils(rooms), [rooms]);
  const board = useMemo(() => leaderboard(rooms), [rooms]);
  const names = new Map(page.pupils.map((p) => [p.userId, p.name]));
  const pupils = [
    ...page.pupils,
    ...[...merged.keys()].filter((id) => !names.has(id)).map((userId) => ({ userId, name: `Utente ${userId}` })),
  ];
  const statuses = pupils.map((p) => pupilStatus(merged.get(p.userId), current));
  const count = (s: string) => statuses.filter((x) => x === s).length;

  const clock = graded
    ? T.graded
    : phase.kind === "waiting"
      ? T.waiting
      : phase.kind === "subject"
        ? T.running(subject?.name ?? "")
        : phase.kind === "break"
          ? T.onBreak(page.flow[phase.index + 1]?.name ?? "")
          : T.finished;

  return (
    <div className="live-view" data-testid="live-view">
      <p>
        <Link to="/admin/simulazioni">{T.back}</Link>
      </p>
      <h2>{T.title(page.title)}</h2>
      <p role="status" data-testid="live-connection" className={connected ? "muted" : "alert alert--error"}>
        {connected ? T.live : T.offline}
      </p>
      <section className="live-view__clock" aria-label={T.remaining}>
        <p data-testid="live-phase" data-phase={graded ? "graded" : phase.kind} data-subject-index={current}>
          <strong>{clock}</strong>
        </p>
        {!graded && (phase.kind === "subject" || phase.kind === "break") ? (
          <p>
            {T.remaining}:{" "}
            <span className="live-view__countdown" data-testid="live-countdown">
              {mmss(phase.endsAt - now)}
            </span>
          </p>
        ) : null}
        <p className="muted" data-testid="live-summary">
          {T.summary(count("connesso") + count("risponde"), count("risponde"), count("consegnato"), pupils.length)}
        </p>
      </section>

      <section aria-labelledby="live-pupils-title">
        <h3 id="live-pupils-title">{T.pupilsTitle}</h3>
        {!pupils.length ? (
          <p className="muted">{T.noPupils}</p>
        ) : (
          <TableWrap label={T.pupilsTitle}>
            <table className="adm-table">
              <thead>
                <tr>
                  <th scope="col">{T.colPupil}</th>
                  <th scope="col">{T.colStatus}</th>
                  <th scope="col">{T.colAnswered(subject?.name ?? "")}</th>
                </tr>
              </thead>
              <tbody>
                {pupils.map((p, i) => {
                  const row = merged.get(p.userId);
                  const status = statuses[i]!;
                  return (
                    <tr key={p.userId} data-testid={`live-pupil-${p.userId}`} data-status={status}>
                      <td>{p.name}</td>
                      <td>
                        <span className={`live-view__status live-view__status--${status}`}>{STATUS_LABEL[status]}</span>
                      </td>
                      <td data-testid={`live-answered-${p.userId}`}>
                        {T.answered(row?.answered[current] ?? 0, subject?.questionCount ?? 0)}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </TableWrap>
        )}
      </section>

      <section aria-labelledby="live-board-title" data-testid="live-leaderboard">
        <h3 id="live-board-title">
          {board.closed > 0 ? T.leaderboardTitle(page.flow[board.closed - 1]?.name ?? "") : T.leaderboardTitle("…")}
        </h3>
        {board.rows.length === 0 ? (
          <p className="muted">{T.leaderboardNone}</p>
        ) : (
          <>
            <TableWrap label={T.leaderboardTitle(page.flow[board.closed - 1]?.name ?? "")}>
              <table className="adm-table" id="live-board-table">
                <thead>
                  <tr>
                    <th scope="col">{T.colPos}</th>
                    <th scope="col">{T.colPupil}</th>
                    {page.flow.slice(0, board.closed).map((s, i) => (
                      <th scope="col" key={`${s.id}:${i}`}>
                        {s.name}
                      </th>
                    ))}
                    <th scope="col">{T.colTotal}</th>
                  </tr>
                </thead>
                <tbody>
                  {shownRows(board.rows, showAll).map((r) => (
                    <tr key={r.userId} data-testid={`live-rank-${r.userId}`}>
                      <td>#{r.pos}</td>
                      <td>{names.get(r.userId) ?? `Utente ${r.userId}`}</td>
                      {r.scores.map((s, i) => (
                        // biome-ignore lint/suspicious/noArrayIndexKey: one cell per closed subject, in flow order
                        <td key={i}>{formatDecimal(s, 1)}</td>
                      ))}
                      <td>
                        <strong>{formatDecimal(r.total, 1)}</strong>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
            {board.rows.length > shownRows(board.rows, false).length || showAll ? (
              <button
                type="button"
                className="btn"
                aria-expanded={showAll}
                aria-controls="live-board-table"
                onClick={() => setShowAll((v) => !v)}
              >
                {showAll ? T.showTop : T.showAll}
              </button>
            ) : null}
          </>
        )}
      </section>
    </div>
  );
}
