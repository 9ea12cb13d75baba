// npm run bench:capacity: docs/capacity.md's table, the peaks of a 60-room (60,000-candidate) day, computed from
// bench/results/latest.json: `room` (BENCH_ONLY=room: the room's CPU per answer and per reconnect, its D1 queries per
// phase) and `national` (BENCH_ONLY=national: rows written per student). `BENCH_ONLY=room,national npm run bench` writes
// both in one file. A figure missing there is taken from DEFAULTS (the README's last measured national figures) or
// shown as "—", and the table's first line says which. Prints the table; `-- --write` puts it in docs/capacity.md
// between its markers. The formulas are docs/capacity.md's.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  endSubmitSpreadMs,
  KEY_SPREAD_MS,
  PINGS_PER_SYNC,
  QUESTIONS_FALLBACK_SPREAD_MS,
  RESYNC_MS,
} from "../app/lib/runner-timing.ts";
import { COMEBACK_DEFAULT_MS, ROOM_CAPACITY } from "../app/lib/simulation-protocol.ts";
import { REAL_DAY } from "./room/pace.ts";

/** The day on paper: 60 rooms of ROOM_CAPACITY candidates; the lobby fills over LOBBY_MIN minutes (an assumption). */
export const ROOMS = 60;
const LOBBY_MIN = 15;
/** The rooms' grading stagger (workers/room/grading.ts: 150 ms a shard, at most 6 s). */
const GRADE_STAGGER_S = Math.min(((ROOMS - 1) * 150) / 1000, 6);
/**
 * The documented limits: an object's soft limit of about 1,000 requests a second
 * (https://developers.cloudflare.com/durable-objects/platform/limits/); a D1 database runs its queries one at a time,
 * about 1,000 a second at 1 ms each (https://developers.cloudflare.com/d1/platform/limits/).
 */
export const OBJECT_LIMIT_PER_S = 1000;
export const D1_MS_PER_QUERY = 1;
const D1_LIMIT_PER_S = 1000 / D1_MS_PER_QUERY;

/** Used when latest.json lacks them: the README's last national figures (fresh clone of 2781dd7, 6,000 students). */
const DEFAULTS: Record<string, number> = { "national.d1RowsWrittenPerClient": 198 };

type Latest = { date?: string; room?: Record<string, unknown>; national?: Record<string, unknown> };
type Row = { phase: string; objectPerS: number; busy: number; d1PerS: number; what: string };

export function capacityMarkdown(latest: Latest): string {
  const provenance = new Map<string, "README" | "missing">();
  const get = (path: string): number => {
    let value: unknown = latest;
    for (const key of path.split(".")) value = (value as Record<string, unknown> | undefined)?.[key];
    if (typeof value === "number" && Number.isFinite(value)) return value;
    provenance.set(path, path in DEFAULTS ? "README" : "missing");
    return DEFAULTS[path] ?? Number.NaN;
  };
  const C = ROOM_CAPACITY;
  const students = ROOMS * C;
  // The bench's room may be smaller: its per-room figures scale to ROOM_CAPACITY candidates.
  const scale = C / get("room.clients");
  const pings = (C * PINGS_PER_SYNC) / (RESYNC_MS / 1000);
  const answers = (C * REAL_DAY.questions) / (REAL_DAY.subjects * REAL_DAY.subjectMin * 60);
  const steady = pings + answers;
  const steadyBusy = (get("room.cpuMsPerSecondAtRest") * scale + answers * get("room.cpuMsPerAnswerMarginal")) / 1000;
  const openings = 3 * get("room.clients");
  const asked = get("room.keys.requested") / openings;
  const fellBack = get("room.keys.fallback") / openings;
  const lobbyQueries = get("room.d1.lobbyPerClient");
  const spreadS = endSubmitSpreadMs(ROOMS) / 1000;
  const grading = get("room.d1.grading") * scale;
  const deploy = (windowS: number, how: string): Row => ({
    phase: `the deploy, back over ${windowS} s (${how})`,
    // A reconnect's clock estimate is recent (its last sync under RESYNC_MS ago): no pings at once (syncsOnOpen).
    objectPerS: steady + C / windowS,
    busy: steadyBusy + (C * get("room.cpuMsPerReconnect")) / 1000 / windowS,
    d1PerS: 0,
    what:
      `every room at once: each socket's upgrade (no clock sync: the estimate is recent); no D1 with the resume ` +
      `token (through the session, as when the server was down longer than a first retry: ${n((students * get("room.d1.deployPerClient")) / windowS)}/s)`,
  });
  const rows: Row[] = [
    {
      phase: `the lobby (arrivals over ${LOBBY_MIN} min)`,
      objectPerS: pings + (C * (1 + PINGS_PER_SYNC)) / (LOBBY_MIN * 60),
      busy: (get("room.cpuMsPerSecondAtRest") * scale) / 1000,
      d1PerS: (students * lobbyQueries) / (LOBBY_MIN * 60),
      what: "the page, the flow (every subject sealed), the socket: GETs, which read replicas can serve",
    },
    {
      phase: "steady (between the events)",
      objectPerS: steady,
      busy: steadyBusy,
      d1PerS: 0,
      what: "clock syncs and answers at the real day's rate; no D1",
    },
    {
      phase: "the start (Avvia)",
      objectPerS: steady + 2,
      busy: steadyBusy,
      d1PerS: ROOMS * get("room.d1.start"),
      what: "one start call and one alarm a room; Avvia's queries and each room's plan read, counted per room (an upper bound)",
    },
    {
      phase: "each opening",
      objectPerS: steady + 1 + (C * asked) / (KEY_SPREAD_MS / 1000),
      busy: steadyBusy,
      d1PerS: (students * fellBack * lobbyQueries) / (QUESTIONS_FALLBACK_SPREAD_MS / 1000),
      what: "the alarm pushes the keys; keys asked for and flows fetched as the last fallback, at the bench's shares",
    },
    deploy(1, "a drop: the first retry's 0.5–1.5 s"),
    deploy(COMEBACK_DEFAULT_MS / 1000, "a 1012 close naming its window"),
    {
      phase: "the end: the grading writes",
      objectPerS: steady - answers,
      busy: Number.NaN,
      d1PerS: (ROOMS * grading) / GRADE_STAGGER_S,
      what:
        `${n(grading)} queries a room, every room within ${GRADE_STAGGER_S} s: D1 busy ` +
        `${n((ROOMS * grading * D1_MS_PER_QUERY) / 1000)} s; ${n(students * get("national.d1RowsWrittenPerClient"))} rows written`,
    },
    {
      phase: `the end: the results (over ${spreadS} s)`,
      objectPerS: pings + C / spreadS,
      busy: Number.NaN,
      d1PerS: (students * get("room.d1.attemptCall")) / spreadS,
      what:
        `the attempt (a POST: the primary, counted here) and the ranking (a GET: ` +
        `${n((students * get("room.d1.rankingCall")) / spreadS)}/s over the read replicas)`,
    },
  ];
  const load = (r: Row) => Math.max(r.objectPerS / OBJECT_LIMIT_PER_S, r.d1PerS / D1_LIMIT_PER_S, r.busy || 0);
  const over = rows.filter((r) => load(r) > 1).sort((a, b) => load(b) - load(a));
  const room = latest.room ?? {};
  const sources = [...provenance].map(([k, s]) => `\`${k}\` ${s === "README" ? "from the README" : "missing (—)"}`);
  return [
    `Computed by \`npm run bench:capacity\` from \`bench/results/latest.json\` of ${latest.date ?? "(no date)"}: ` +
      `the room bench's ${room.clients ?? "—"} candidates at ${room.rate ?? "—"}× (pinned: ${room.pinned ?? "—"})` +
      (sources.length ? `; ${sources.join(", ")}.` : "."),
    "",
    `| phase | Durable Object requests/s a room (soft limit ~${OBJECT_LIMIT_PER_S}) | the room's thread busy | D1 queries/s (~${D1_LIMIT_PER_S} at ${D1_MS_PER_QUERY} ms) | what |`,
    "|---|---|---|---|---|",
    ...rows.map((r) => `| ${r.phase} | ${n(r.objectPerS)} | ${pct(r.busy)} | ${n(r.d1PerS)} | ${r.what} |`),
    "",
    over.length
      ? `Over a limit: ${over.map((r) => `**${r.phase}** (${n(load(r))}×)`).join(", ")}; the furthest over its limit first.`
      : "No phase is over a documented limit.",
  ].join("\n");
}

const n = (x: number) =>
  x === 0
    ? "0"
    : Number.isFinite(x)
      ? Math.abs(x) >= 100
        ? Math.round(x).toLocaleString("en")
        : x.toFixed(x >= 10 ? 1 : 2)
      : "—";
const pct = (x: number) => (Number.isFinite(x) ? `${Math.round(x * 100)} %` : "—");

const BEGIN = "<!-- capacity:begin -->";
const END = "<!-- capacity:end -->";

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = "bench/results/latest.json";
  const table = capacityMarkdown(existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Latest) : {});
  console.log(table);
  if (process.argv.includes("--write")) {
    const doc = readFileSync("docs/capacity.md", "utf8");
    const at = doc.indexOf(BEGIN);
    const end = doc.indexOf(END);
    if (at < 0 || end < at) throw new Error(`docs/capacity.md has no ${BEGIN} … ${END}`);
    writeFileSync("docs/capacity.md", `${doc.slice(0, at + BEGIN.length)}\n${table}\n${doc.slice(end)}`);
    console.log("\nwritten into docs/capacity.md");
  }
}
