// The student analytics dashboard body (spec section 2): pickers, KPI cards, small cards, panels,
// footer, friend comparison and the guided tour. Receives the analytics already loaded.
import { useEffect, useMemo, useRef, useState } from "react";
import { Link } from "react-router";
import type { Marker } from "~/components/charts/DistributionChart";
import type { TopicRow } from "~/components/charts/TopicBars";
import type { TrendSeries } from "~/components/charts/TrendChart";
import { SubjectTopicPicker } from "~/components/SubjectTopicPicker";
import { O } from "~/components/offline/messages";
import { mean, normalizeScore, truncateLabel } from "~/lib/analytics";
import type { StudentAnalytics } from "~/lib/analytics-types";
import { useLookup } from "~/lib/use-lookup";
import { INACTIVITY_NOTICE_DAYS, RECENT_STUDY_DAYS, SCORE_SCALE } from "~/lib/constants";
import { unitStats, weakestUnits } from "~/lib/unit-stats";
import { BarChart, DistributionChart, TopicBars, TrendChart } from "./charts";
import type { TourHandle } from "./tour";
import { daysAgoText, filterAttempts, fmt1, pickDefaultSubject, signedPct, subjectView } from "./view-model";

export const ANALYTICS_CACHE_KEY = "unicum_analytics_json";
export const FRIEND_CACHE_KEY = "unicum_friend_analytics_json";

const COLORS = { you: "#ff9233", peer: "#8b8cff", site: "#a9adb7", top: "#4ade80", p90: "#ffd166" };

export type FriendSummary = { userId: number; name: string };

function readCache(key: string): StudentAnalytics | null {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as StudentAnalytics) : null;
  } catch {
    return null;
  }
}

function writeCache(key: string, value: StudentAnalytics) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // storage full or unavailable: the cache is only a fallback
  }
}

/** The site's daily averages over a 7-day window, weighted by attempts (one day is too noisy). */
function rollingSiteAverage(days: { date: string; avgScore: number; attempts: number }[]) {
  return days.map((d, i) => {
    const from = Date.parse(d.date) - 6 * 86_400_000;
    let sum = 0;
    let n = 0;
    for (let j = i; j >= 0 && Date.parse(days[j]!.date) >= from; j--) {
      sum += days[j]!.avgScore * days[j]!.attempts;
      n += days[j]!.attempts;
    }
    return { date: Date.parse(`${d.date}T12:00:00Z`), score: normalizeScore(n ? sum / n : d.avgScore) };
  });
}

export function Dashboard({
  analytics,
  friends,
  now,
}: {
  analytics: StudentAnalytics;
  friends: FriendSummary[];
  now: number;
}) {
  const [subjectId, setSubjectId] = useState<number | null>(() => pickDefaultSubject(analytics));
  const [topicId, setTopicId] = useState<number | null>(null);
  const [compare, setCompare] = useState(false);
  /** Group the accuracy panel and the suggestions by syllabus unit instead of topic. */
  const [byUnit, setByUnit] = useState(false);
  const [friendId, setFriendId] = useState<number | null>(friends[0]?.userId ?? null);
  const friend = friends.find((f) => f.userId === friendId) ?? null;
  // The friend's analytics load (a fetcher: /dashboard/amico/:id) when the comparison is switched on; a refusal
  // or no network falls back to the cached copy of that friend (spec section 7).
  const friendLookup = useLookup<StudentAnalytics>(compare && friend ? `/dashboard/amico/${friend.userId}` : null);
  const friendData = friendShown(friendLookup, friend?.userId);
  const friendState =
    friendLookup.loading && !friendData ? "loading" : friendLookup.error && !friendData ? "error" : "idle";
  const tourRef = useRef<TourHandle | null>(null);
  const guideButton = useRef<HTMLButtonElement>(null);

  useEffect(() => writeCache(ANALYTICS_CACHE_KEY, analytics), [analytics]);
  useEffect(() => () => tourRef.current?.destroy(), []);

  useEffect(() => {
    if (friendLookup.data) writeCache(FRIEND_CACHE_KEY, friendLookup.data);
  }, [friendLookup.data]);

  const view = useMemo(() => subjectView(analytics, subjectId, topicId, now), [analytics, subjectId, topicId, now]);
  const subject = view.subject;
  const showFriend = compare && friend != null && friendData != null;
  const friendSubject = showFriend ? friendData.subjects.find((s) => s.id === subjectId) : undefined;
  const friendAttempts = filterAttempts(friendSubject, topicId);
  const friendMean = mean(friendAttempts.map((a) => normalizeScore(a.score)));
  const friendLabel = friend ? truncateLabel(friend.name.split(" ")[0] ?? friend.name, 12) : "Amico";

  const trendSeries: TrendSeries[] = [
    {
      key: "you",
      label: "Tu",
      color: COLORS.you,
      points: view.attempts.map((a) => ({ date: Date.parse(a.date), score: normalizeScore(a.score) })),
    },
  ];
  if (showFriend) {
    trendSeries.push({
      key: "friend",
      label: friend!.name,
      color: COLORS.peer,
      points: friendAttempts.map((a) => ({ date: Date.parse(a.date), score: normalizeScore(a.score) })),
    });
  }
  if (subject && view.attempts.length) {
    const since = Date.parse(view.attempts[0]!.date) - 86_400_000;
    trendSeries.push({
      key: "site",
      label: "Media sito (7 giorni)",
      color: COLORS.site,
      dashed: true,
      points: rollingSiteAverage(subject.siteAggregate.attemptsOverTime).filter((p) => p.date >= since),
    });
  }

  const agg = subject?.siteAggregate;
  const markers: Marker[] = [];
  if (agg?.p80 != null) markers.push({ key: "p80", label: "Top 20%", value: agg.p80, color: COLORS.top });
  if (agg?.p90 != null) markers.push({ key: "p90", label: "P90", value: agg.p90, color: COLORS.p90 });
  if (view.mean != null) markers.push({ key: "you", label: "Tu", value: view.mean, color: COLORS.you });
  if (showFriend && friendMean != null)
    markers.push({ key: "friend", label: friendLabel, value: friendMean, color: COLORS.peer });

  const compareItems = [
    { key: "you", label: "Tua media", value: view.mean, color: COLORS.you },
    ...(showFriend ? [{ key: "friend", label: friendLabel, value: friendMean, color: COLORS.peer }] : []),
    { key: "site", label: "Media globale", value: agg?.average ?? null, color: COLORS.site },
    { key: "top", label: "Top 20%", value: agg?.p80 ?? null, color: COLORS.top },
  ];

  const units = unitStats(subject);
  const showUnits = byUnit && units.length > 0 && topicId == null;
  const friendUnits = showUnits ? unitStats(friendSubject) : [];
  const unitRows: TopicRow[] = units.map((u) => {
    const fr = friendUnits.find((f) => f.unit === u.unit);
    const site = agg?.unitAccuracy?.[u.unit];
    return {
      topicId: u.unit,
      name: u.name,
      values: [
        { key: "you", value: u.answered ? (u.correct / u.answered) * 100 : null, color: COLORS.you },
        ...(showFriend
          ? [{ key: "friend", value: fr && fr.answered ? (fr.correct / fr.answered) * 100 : null, color: COLORS.peer }]
          : []),
        { key: "site", value: site == null ? null : site * 100, color: COLORS.site },
      ],
    };
  });
  const suggestions = showUnits
    ? weakestUnits(units).map((u) => ({
        key: `u${u.unit}`,
        name: u.name,
        accuracy: u.accuracy,
        topicId: u.weakestTopicId,
      }))
    : view.weakest.map((t) => ({
        key: `t${t.topicId}`,
        name: t.name,
        accuracy: t.accuracy,
        topicId: t.topicId as number | null,
      }));
  const unitToggle =
    units.length > 0 && topicId == null ? (
      <div className="seg" role="group" aria-label="Raggruppa per">
        <button type="button" className="btn btn--ghost" aria-pressed={!byUnit} onClick={() => setByUnit(false)}>
          Argomenti
        </button>
        <button type="button" className="btn btn--ghost" aria-pressed={byUnit} onClick={() => setByUnit(true)}>
          Unità del syllabus
        </button>
      </div>
    ) : null;

  const topicRows: TopicRow[] = showUnits
    ? unitRows
    : view.topicStats
        .filter((t) => topicId == null || t.topicId === topicId)
        .map((t) => {
          const fr = friendSubject?.studentTopicAccuracy[t.topicId];
          const site = agg?.topicAccuracy[t.topicId];
          return {
            topicId: t.topicId,
            name: t.name,
            values: [
              { key: "you", value: t.answered ? (t.correct / t.answered) * 100 : null, color: COLORS.you },
              ...(showFriend
                ? [
                    {
                      key: "friend",
                      value: fr && fr.answered ? (fr.correct / fr.answered) * 100 : null,
                      color: COLORS.peer,
                    },
                  ]
                : []),
              { key: "site", value: site == null ? null : site * 100, color: COLORS.site },
            ],
          };
        });

  const openTour = async () => {
    tourRef.current?.destroy();
    // The tour (driver.js and its styles) is fetched the first time 'Guida' is pressed.
    const { startTour } = await import("./tour");
    tourRef.current = await startTour(() => {
      tourRef.current = null;
      // Back to where the keyboard user started the tour.
      guideButton.current?.focus();
    });
  };

  const monthPct = analytics.improvementLastMonthPct;
  const topics = subject ? Object.entries(subject.topics).map(([id, name]) => ({ id: Number(id), name })) : [];

  return (
    <>
      <div className="dash__intro">
        <p className="dash__month">
          Variazione mese:{" "}
          <strong className={monthPct == null ? "" : monthPct >= 0 ? "is-up" : "is-down"} data-testid="month-change">
            {signedPct(monthPct)}
          </strong>
        </p>
        <div className="dash__actions">
          <Link to="/test/nuovo" className="btn btn--primary">
            Nuovo test
          </Link>
          <button type="button" className="btn" onClick={openTour} ref={guideButton} aria-haspopup="dialog">
            Guida
          </button>
        </div>
      </div>

      <div className="dash__filters" data-tour="subject">
        <SubjectTopicPicker
          subjects={analytics.subjects}
          topics={topics}
          subjectId={subjectId}
          topicId={topicId}
          onChange={(nextSubject, nextTopic) => {
            setSubjectId(nextSubject);
            setTopicId(nextTopic);
          }}
        />
        {friends.length > 1 ? (
          <div className="dash__compare-many">
            <label className="dash__compare">
              <input type="checkbox" checked={compare} onChange={(e) => setCompare(e.target.checked)} />
              <span>Confronta con un amico</span>
            </label>
            <label className="field">
              <span>Amico</span>
              <select className="select" value={friendId ?? ""} onChange={(e) => setFriendId(Number(e.target.value))}>
                {friends.map((f) => (
                  <option key={f.userId} value={f.userId}>
                    {f.name}
                  </option>
                ))}
              </select>
            </label>
          </div>
        ) : friend ? (
          <label className="dash__compare">
            <input type="checkbox" checked={compare} onChange={(e) => setCompare(e.target.checked)} />
            <span>
              Confronta con <strong className="peer">{friend.name}</strong>
            </span>
          </label>
        ) : (
          <p className="small muted dash__compare-hint">
            Vuoi confrontarti con un amico? <Link to="/profilo#amici">Invitalo dal profilo</Link>.
          </p>
        )}
      </div>
      {compare && friendState === "loading" ? (
        <p className="muted" role="status">
          Caricamento dati…
        </p>
      ) : null}
      {compare && friendState === "error" ? (
        <p className="alert alert--error" role="alert">
          Non riesco a caricare i dati del tuo amico: riprova tra poco.
        </p>
      ) : null}

      <section className="dash__kpis" aria-label="Indicatori principali">
        <article className="kpi" data-tour="preparation">
          <h2 className="kpi__title">Livello di preparazione</h2>
          <p className="kpi__value">{view.preparation ? `${view.preparation.pct}%` : "—"}</p>
          <p className="kpi__sub">
            {view.preparation ? `Preparazione ${view.preparation.label.toLowerCase()}` : "Servono tentativi completati"}
          </p>
        </article>
        <article className="kpi" data-tour="average">
          <h2 className="kpi__title">Punt. medio &amp; mediana</h2>
          <p className="kpi__value">
            {fmt1(view.mean)} <span className="kpi__unit">/ {SCORE_SCALE}</span>
          </p>
          <p className="kpi__sub">Mediana {fmt1(view.median)}</p>
        </article>
        <article className="kpi" data-tour="accuracy">
          <h2 className="kpi__title">Accuratezza &amp; tempo</h2>
          <p className="kpi__value">{view.accuracyPct == null ? "—" : `${view.accuracyPct}%`}</p>
          <p className="kpi__sub">
            {view.secondsPerQuestion == null ? "Nessun dato sul tempo" : `${view.secondsPerQuestion} s per domanda`}
          </p>
        </article>
      </section>

      <section className="dash__smalls" aria-label="In breve">
        <article className="mini" data-tour="coverage">
          <h2 className="mini__title">Copertura argomenti</h2>
          <p className="mini__value">
            {view.coverage.covered}/{view.coverage.total} coperti
          </p>
        </article>
        <article className="mini" data-tour="last">
          <h2 className="mini__title">Ultima simulazione</h2>
          <p className="mini__value">{daysAgoText(view.daysSinceLast)}</p>
        </article>
        <article className="mini" data-tour="momentum">
          <h2 className="mini__title">Momentum (ultimi 3)</h2>
          {view.momentum ? (
            <p className="mini__value">
              <span className={view.momentum.delta >= 0 ? "is-up" : "is-down"}>
                {view.momentum.delta >= 0 ? "▲ +" : "▼ "}
                {fmt1(view.momentum.delta)}
              </span>{" "}
              <span className="small muted">
                {fmt1(view.momentum.last)} contro {fmt1(view.momentum.previous)} dei 3 precedenti
              </span>
            </p>
          ) : (
            <p className="mini__value small muted">Servono almeno 6 tentativi</p>
          )}
        </article>
      </section>

      <div className="dash__panels">
        <section className="panel" aria-labelledby="p-suggest">
          <h2 id="p-suggest" className="panel__title">
            {showUnits ? "Suggeriti da ripassare (per unità)" : "Suggeriti da ripassare"}
          </h2>
          {suggestions.length && subject ? (
            <ul className="suggest">
              {suggestions.map((t) => (
                <li key={t.key}>
                  <span>
                    <strong title={t.name}>{truncateLabel(t.name)}</strong>
                    <span className="small muted"> {Math.round(t.accuracy * 100)}% corrette</span>
                  </span>
                  <Link
                    className="btn"
                    to={`/test/nuovo?subject=${subject.id}${t.topicId != null ? `&topic=${t.topicId}` : ""}`}
                    aria-label={`Ripasso mirato: ${t.name}`}
                  >
                    Ripasso mirato
                  </Link>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">Nessun suggerimento: servono più tentativi.</p>
          )}
        </section>

        <section className="panel panel--wide" aria-labelledby="p-trend" data-tour="trend">
          <h2 id="p-trend" className="panel__title">
            Andamento simulazioni
          </h2>
          {view.attempts.length ? (
            <>
              <TrendChart
                series={trendSeries}
                summary={`Punteggi dei tuoi ${view.attempts.length} tentativi, dall'ultimo: ${view.scores.slice(-5).reverse().map(fmt1).join(", ")}.`}
              />
              {view.offlineCount ? (
                <p className="muted small" data-testid="offline-attempts">
                  {O.dashboardOffline(view.offlineCount)}
                </p>
              ) : null}
            </>
          ) : (
            <p className="muted">Nessun tentativo completato con questi filtri: fai un test per iniziare.</p>
          )}
        </section>

        <section className="panel" aria-labelledby="p-dist" data-tour="distribution">
          <h2 id="p-dist" className="panel__title">
            Distribuzione punteggi (tutti)
          </h2>
          {view.hasDistribution && agg ? (
            <>
              <DistributionChart
                bins={agg.scoreDistribution}
                markers={markers}
                summary={`Distribuzione dei punteggi di tutti gli studenti: Top 20% da ${fmt1(agg.p80)}, 90° percentile ${fmt1(agg.p90)}.`}
              />
              <p className="panel__note" data-testid="rank">
                {view.rank != null
                  ? `Tu sopra al ${view.rank}% degli studenti`
                  : "Fai un test per vedere la tua posizione."}
              </p>
            </>
          ) : (
            <p className="muted">Nessun dato aggregato disponibile.</p>
          )}
        </section>

        <section className="panel" aria-labelledby="p-compare">
          <h2 id="p-compare" className="panel__title">
            Confronta la media
          </h2>
          <BarChart
            title="Confronta la media"
            testId="chart-compare"
            items={compareItems}
            max={SCORE_SCALE}
            summary={compareItems.map((i) => `${i.label}: ${fmt1(i.value)}`).join("; ")}
          />
        </section>

        <section className="panel panel--topics" aria-labelledby="p-topics" data-tour="topics">
          <h2 id="p-topics" className="panel__title">
            {showUnits ? "Accuratezza per unità" : "Accuratezza per argomento"}
          </h2>
          {unitToggle}
          {topicRows.length ? (
            <TopicBars
              rows={topicRows}
              legend={[
                { label: "Tu", color: COLORS.you },
                ...(showFriend ? [{ label: friend!.name, color: COLORS.peer }] : []),
                { label: "Media sito", color: COLORS.site },
              ]}
              summary={
                (showUnits ? units : view.topicStats)
                  .filter((t) => t.answered)
                  .map((t) => `${t.name}: ${Math.round((t.correct / t.answered) * 100)}%`)
                  .join("; ") || "Nessun argomento ancora affrontato."
              }
            />
          ) : (
            <p className="muted">Nessun argomento per questa materia.</p>
          )}
        </section>
      </div>

      <footer className="dash__footer">
        <p>
          Argomenti sotto il 60%: <strong data-testid="weak-count">{view.weakCount}</strong>
        </p>
        <p>
          Minuti di studio negli ultimi {RECENT_STUDY_DAYS} giorni:{" "}
          <strong data-testid="minutes">{view.minutesLast7Days}</strong>
        </p>
        {view.inactiveDays != null && view.inactiveDays > INACTIVITY_NOTICE_DAYS ? (
          <p className="dash__idle" role="note">
            Sei fermo da {view.inactiveDays} giorni
          </p>
        ) : null}
      </footer>
    </>
  );
}

/** The loaded analytics of this friend, or after a refusal or without network the cached copy of the same friend. */
function friendShown(lookup: { data: StudentAnalytics | null; error: string | null }, friendId: number | undefined) {
  if (friendId == null) return null;
  if (lookup.data?.studentId === friendId) return lookup.data;
  if (!lookup.error) return null;
  const cached = readCache(FRIEND_CACHE_KEY);
  return cached?.studentId === friendId ? cached : null;
}
