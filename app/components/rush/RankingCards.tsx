import { estimatedOverallPosition, RUSH_TEXT } from "~/lib/rush";

type Leaderboard = {
  items: { subjectId: number; position: number; participants: number }[];
  overall: number | null;
  participants: number;
};

/** 'Classifica per materia': the position per subject (#n) or a dash. */
export function SubjectRankingCard(props: {
  subjects: { id: number; name: string }[];
  leaderboard: Leaderboard | null;
}) {
  const positions = new Map(props.leaderboard?.items.map((i) => [i.subjectId, i]) ?? []);
  return (
    <section className="rush-card" aria-labelledby="rush-ranking-title">
      <h2 id="rush-ranking-title" className="rush-card__title">
        {RUSH_TEXT.perSubject}
      </h2>
      <ul className="rush-ranking">
        {props.subjects.map((s) => {
          const p = positions.get(s.id);
          return (
            <li key={s.id} data-subject-id={s.id}>
              <span>{s.name}</span>
              <span className="rush-ranking__pos">
                {p ? (
                  <>
                    <strong>#{p.position}</strong> <span className="muted small">su {p.participants}</span>
                  </>
                ) : (
                  <span role="img" aria-label="nessuna posizione">
                    —
                  </span>
                )}
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/**
 * 'Posizione totale': the server's overall position; when the server could not answer, the estimate of
 * spec section 9 from the average of the known scores, labelled as such.
 */
export function OverallCard(props: {
  leaderboard: Leaderboard | null;
  completed: number;
  total: number;
  knownScores: number[];
}) {
  const { leaderboard, completed, total } = props;
  const percent = total > 0 ? Math.round((completed / total) * 100) : 0;
  let position: React.ReactNode = (
    <span role="img" aria-label="nessuna posizione">
      —
    </span>
  );
  if (leaderboard?.overall != null) {
    position = (
      <>
        <strong data-testid="rush-overall-position">#{leaderboard.overall}</strong>{" "}
        <span className="muted">su {leaderboard.participants}</span>
      </>
    );
  } else if (!leaderboard && props.knownScores.length > 0) {
    const average = props.knownScores.reduce((a, b) => a + b, 0) / props.knownScores.length;
    position = (
      <>
        <strong data-testid="rush-overall-position">#{estimatedOverallPosition(average)}</strong>{" "}
        <span className="rush-badge rush-badge--estimate">{RUSH_TEXT.estimate}</span>
      </>
    );
  }
  return (
    <section className="rush-card rush-overall" aria-labelledby="rush-overall-title">
      <h2 id="rush-overall-title" className="rush-card__title">
        {RUSH_TEXT.overall}
      </h2>
      <p className="rush-overall__position">{position}</p>
      <p className="small">
        Completate {completed} / {total}
      </p>
      <div
        className="rush-bar"
        role="progressbar"
        aria-label="Materie completate"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <span className="rush-bar__fill" style={{ width: `${percent}%` }} />
      </div>
      <p className="muted small">{RUSH_TEXT.overallNote}</p>
    </section>
  );
}
