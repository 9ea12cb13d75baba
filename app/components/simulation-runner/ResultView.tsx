import { Link } from "react-router";
import { RANKING_TOP } from "~/lib/constants";
import type { SubjectResult } from "~/lib/simulation";
import type { SubjectGrade } from "~/lib/simulation-day";
import { RANK_TEXT, type RankKey } from "~/lib/rank-key";
import { SOLO_DAY_MIN_PEERS, SOLO_TEXT, type SoloStanding } from "~/lib/solo-day";
import { T } from "./texts";

export type RankState =
  | { status: "loading" }
  | { status: "error" }
  | {
      status: "ok";
      pos: number | null;
      percentile: number | null;
      ranking: { userId: number; pos: number; score: number }[];
      /** Issue 31: the participants around this one and how many took part (absent from older answers). */
      around?: { userId: number; pos: number; score: number }[];
      participants?: number | null;
      /** False while other rooms are still grading: positions come once every room has. */
      final?: boolean;
      /** The viewer's user id, as the ranking call names it. */
      me?: number;
      /** A day alone (issue 46): where it stands among the days other students have done, instead of a ranking. */
      solo?: SoloStanding;
    };

/** `grade`: the subject's grade out of 30 (a simulation of an exam edition's day). */
export type StoredResult = {
  attemptId?: number;
  totale: number;
  percTot: number;
  subjects: (SubjectResult & { grade?: SubjectGrade })[];
  /** The exam edition the simulation followed (a template simulation), shown with its grades. */
  edition?: { label: string; academicYear: string } | null;
  /** What ranks it (rankKey): an edition's day by section and passed grades, shown instead of the total out of 31. */
  rank?: RankKey;
};

function rankBadge(rank: RankState): string {
  if (rank.status === "loading" || (rank.status === "ok" && rank.final === false)) return "...";
  if (rank.status === "error") return "??";
  if (rank.pos === null) return "--";
  return Number.isFinite(rank.pos) ? `#${rank.pos}` : "??";
}

/** 'Risultato simulazione': rank badge, Totale and Percentile chips, per-subject rows, Top 5. */
export function ResultView({
  result,
  rank,
  alert,
  userId,
}: {
  result: StoredResult;
  rank: RankState;
  alert?: string | null;
  /** The viewer (their row is marked in the list around them). */
  userId?: number;
}) {
  const top = rank.status === "ok" ? rank.ranking.slice(0, RANKING_TOP) : [];
  const around = rank.status === "ok" ? (rank.around ?? []) : [];
  const participants = rank.status === "ok" ? (rank.participants ?? null) : null;
  const topIds = new Set(top.map((r) => r.userId));
  const graded = result.subjects.some((s) => s.grade);
  // An edition's day reads as the real one: each exam on /30, the section and the ranking score, never a total on 31.
  const section = result.rank?.section ?? null;
  const byEdition = graded && section != null && result.rank != null;
  const solo = rank.status === "ok" ? rank.solo : undefined;
  return (
    <main className="sim-result">
      <header className="sim-result__head">
        <div>
          <h1>{T.resultTitle}</h1>
          <p className="muted">{T.resultSubtitle}</p>
          {result.edition ? (
            <p className="muted small" data-testid="sim-edition">
              {T.editionOf(result.edition.label)}
            </p>
          ) : null}
          <Link to="/dashboard">{T.backToDashboard}</Link>
        </div>
        {solo ? null : (
          <span className="sim-rank" data-testid="sim-rank" role="group" aria-label="Posizione in classifica">
            {rankBadge(rank)}
          </span>
        )}
      </header>
      {alert ? (
        <p className="alert alert--error" role="alert">
          {alert}
        </p>
      ) : null}
      <div className="sim-chips">
        {byEdition ? (
          <span className="sim-chip" data-testid="sim-section">
            {RANK_TEXT.section(section)}
          </span>
        ) : (
          <span className="sim-chip">
            {T.total}: {result.totale}/31
          </span>
        )}
        <span className="sim-chip">
          {T.percentile}: {rank.status === "ok" && rank.percentile !== null ? `${rank.percentile}%` : "--"}
        </span>
        {participants ? (
          <span className="sim-chip" data-testid="sim-participants">
            {T.participants(participants)}
          </span>
        ) : null}
      </div>
      {rank.status === "ok" && rank.final === false ? (
        <p className="muted" role="status">
          {T.rankingPending}
        </p>
      ) : null}
      <section className="sim-result__grid">
        <div className="sim-card">
          {byEdition ? (
            <p className="sim-result__big" data-testid="sim-total">
              {result.rank!.key}
              <small> {RANK_TEXT.rankingScore.toLowerCase()}</small>
            </p>
          ) : (
            <p className="sim-result__big" data-testid="sim-total">
              {result.totale}
              <small>/31</small>
            </p>
          )}
          <p className="muted">
            {T.percentCorrect}: {result.percTot}%
          </p>
          <table className="sim-table">
            <thead>
              <tr>
                <th scope="col">Materia</th>
                <th scope="col">Corrette</th>
                {byEdition ? null : <th scope="col">Punteggio</th>}
                {graded ? <th scope="col">{T.grade}</th> : null}
              </tr>
            </thead>
            <tbody>
              {result.subjects.map((s) => (
                <tr key={s.id}>
                  <td>{s.name}</td>
                  <td>{s.perc}%</td>
                  {byEdition ? null : <td>{s.score31}/31</td>}
                  {graded ? (
                    <td data-testid="sim-grade" data-passed={s.grade?.passed ?? false}>
                      {s.grade?.text ?? "—"}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {solo ? (
          <div className="sim-card" data-testid="sim-solo-standing">
            <h2>{SOLO_TEXT.standingTitle}</h2>
            <p>
              {solo.percentile != null
                ? SOLO_TEXT.standing(solo.percentile, solo.peers)
                : SOLO_TEXT.standingHidden(SOLO_DAY_MIN_PEERS, solo.peers)}
            </p>
          </div>
        ) : (
          <div className="sim-card">
            <h2>{T.top5}</h2>
            {top.length === 0 ? (
              <p className="muted">{T.rankingEmpty}</p>
            ) : (
              <ol className="sim-top">
                {top.map((r) => (
                  <li key={r.userId}>
                    <span>#{r.pos}</span> <span>{T.user(r.userId)}</span> <span>{T.points(r.score)}</span>
                  </li>
                ))}
              </ol>
            )}
            {around.some((r) => !topIds.has(r.userId)) ? (
              <>
                <h3>{T.aroundYou}</h3>
                <ol className="sim-top" data-testid="sim-around">
                  {around.map((r) => (
                    <li key={r.userId} aria-current={r.userId === userId ? "true" : undefined}>
                      <span>#{r.pos}</span> <span>{r.userId === userId ? T.you : T.user(r.userId)}</span>{" "}
                      <span>{T.points(r.score)}</span>
                    </li>
                  ))}
                </ol>
              </>
            ) : null}
          </div>
        )}
      </section>
      <footer className="muted small sim-footer">© {new Date().getFullYear()} Unicum</footer>
    </main>
  );
}
