// Server time of / and /dashboard next to a static asset fetched in the same run, the gzipped JavaScript each
// screen loads above the floor every signed-in screen shares (issue 33: a student screen at most floor + 20 KB,
// the admin console floor + 40 KB; past it the suite FAILs), the phone profile (bench/phone.ts) and the dashboard's
// interaction at 4x CPU.
import { gzipSync } from "node:zlib";
import { benchInteraction } from "./interaction.ts";
import { D1_ROUNDS_HEADER, parseD1Rounds } from "../app/lib/d1-rounds.ts";
import { benchPhone } from "./phone.ts";
import { devCookie, type LocalServer } from "./lib/server.ts";
import { kb, ms, percentile, timeRequests } from "./lib/stats.ts";

const REQUESTS = 300;

/** KB of gzipped JavaScript a screen may ship above the floor (issue 33). */
const BUDGET_KB = { student: 20, admin: 40 } as const;

// The landing and every signed-in screen (the admin console as the admin), so a change that moves
// weight from one screen to another shows in the same table.
const PAGES: [path: string, who: "student" | "admin"][] = [
  ["/", "student"],
  ["/dashboard", "student"],
  ["/profilo", "student"],
  ["/rush", "student"],
  ["/test/nuovo", "student"],
  ["/ripasso/errori", "student"],
  ["/tentativi", "student"],
  ["/segnalato", "student"],
  ["/admin", "admin"],
];

/** At most the session, then one batch (issue 33). */
const SEQUENTIAL_D1_GOAL = 2;

/**
 * The D1 round trips each screen's server render waits on one after the other (and in all), as the development
 * server counts them when asked (app/server/d1-rounds.server.ts); the body is read to its end, streamed parts too.
 */
async function sequentialD1(baseUrl: string, cookies: { student: string; admin: string }) {
  const out: Record<string, { sequential: number; total: number }> = {};
  for (const [path, who] of PAGES) {
    const response = await fetch(`${baseUrl}${path}`, {
      headers: { cookie: cookies[who], [D1_ROUNDS_HEADER]: "1" },
    });
    await response.arrayBuffer();
    const rounds = parseD1Rounds(response.headers.get(D1_ROUNDS_HEADER));
    if (!rounds) throw new Error(`${path}: no ${D1_ROUNDS_HEADER} in the answer (${response.status})`);
    out[path] = rounds;
  }
  return out;
}

/** gzip -9 size of each script URL, fetched once per run. */
const gzipOf = new Map<string, number>();

async function pageJsBytes(
  baseUrl: string,
  path: string,
  cookie: string,
): Promise<{ files: number; gzip: number; urls: string[] }> {
  const html = await (await fetch(`${baseUrl}${path}`, { headers: { cookie } })).text();
  const urls = new Set<string>();
  for (const match of html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)) urls.add(match[1]!);
  for (const match of html.matchAll(/import\(?\s*["']([^"']+\.js)["']/g)) urls.add(match[1]!);
  for (const match of html.matchAll(/<script[^>]+src="([^"]+\.js)"/g)) urls.add(match[1]!);
  let gzip = 0;
  for (const url of urls) {
    if (!gzipOf.has(url)) {
      const body = Buffer.from(await (await fetch(new URL(url, baseUrl))).arrayBuffer());
      gzipOf.set(url, gzipSync(body, { level: 9 }).length);
    }
    gzip += gzipOf.get(url)!;
  }
  return { files: urls.size, gzip, urls: [...urls] };
}

export async function benchPages(server: LocalServer) {
  const { baseUrl } = server;
  const cookie = await devCookie(baseUrl, "studente@example.com");
  const rows: Record<string, string | number>[] = [];
  const measure = async (label: string, path: string, withCookie: boolean) => {
    const times = await timeRequests(REQUESTS, () =>
      fetch(`${baseUrl}${path}`, { headers: withCookie ? { cookie } : {} }),
    );
    return { label, p50: percentile(times, 50), p95: percentile(times, 95) };
  };
  const asset = await measure("static asset /favicon.svg", "/favicon.svg", false);
  const results = [
    asset,
    await measure("GET / (SSR)", "/", false),
    await measure("GET /dashboard (SSR, signed in)", "/dashboard", true),
  ];
  for (const r of results) {
    rows.push({
      what: r.label,
      requests: REQUESTS,
      p50: ms(r.p50),
      p95: ms(r.p95),
      "p50 / asset p50": (r.p50 / asset.p50).toFixed(1) + "x",
    });
  }
  console.log("\nServer time over loopback (sequential requests, after 20 warm-up):");
  console.table(rows);
  const adminCookie = await devCookie(baseUrl, "admin@example.com");
  const weights = [];
  const gzipByPage: Record<string, number> = {};
  let shared: Set<string> | null = null;
  for (const [path, who] of PAGES) {
    const { files, gzip, urls } = await pageJsBytes(baseUrl, path, who === "admin" ? adminCookie : cookie);
    gzipByPage[path] = gzip;
    weights.push({ page: path, "JS files": files, "JS gzipped": kb(gzip) });
    // What every signed-in screen loads: React, React Router and the app's shell (not the landing, which ships none).
    if (path !== "/") shared = shared ? new Set(urls.filter((u) => shared!.has(u))) : new Set(urls);
  }
  console.log("JavaScript each page loads (gzip -9 of every script and modulepreload in its HTML):");
  console.table(weights);
  const floor = [...(shared ?? [])].reduce((sum, url) => sum + gzipOf.get(url)!, 0);
  console.log(
    `Floor: every signed-in screen loads ${kb(floor)} of the same scripts (React, React Router, the app shell): ` +
      `${[...(shared ?? [])].map((u) => `${u.replace(/^.*\//, "")} ${kb(gzipOf.get(u)!)}`).join(", ")}`,
  );
  // Each screen's own weight: what it loads beyond the floor (the landing ships no React: all of it is its own).
  const aboveFloorKb: Record<string, number> = {};
  const overBudget: string[] = [];
  const budgetRows = PAGES.map(([path, who]) => {
    const above = (gzipByPage[path]! - (path === "/" ? 0 : floor)) / 1024;
    aboveFloorKb[path] = Math.round(above * 10) / 10;
    const ok = above <= BUDGET_KB[who];
    if (!ok) overBudget.push(path);
    return {
      screen: path,
      "KB above floor": above.toFixed(1),
      budget: `${BUDGET_KB[who]} KB`,
      verdict: ok ? "ok" : "FAIL",
    };
  });
  console.log("JavaScript above the floor per screen (gzipped) against its budget:");
  console.table(budgetRows);
  if (overBudget.length) {
    console.log(`FAIL: over budget: ${overBudget.join(", ")}`);
    process.exitCode = 1;
  }
  const dashboardRatio = results[2]!.p50 / asset.p50;
  console.log(
    `Goal: /dashboard p50 at most 3.0x the static asset: ${dashboardRatio <= 3 ? "met" : "MISSED"} (${dashboardRatio.toFixed(1)}x)`,
  );
  const rounds = await sequentialD1(baseUrl, { student: cookie, admin: adminCookie });
  console.log(`D1 round trips each screen's server render waits on in sequence (goal: at most ${SEQUENTIAL_D1_GOAL}):`);
  console.table(
    Object.entries(rounds).map(([screen, r]) => ({
      screen,
      sequential: r.sequential,
      "all calls": r.total,
      verdict: r.sequential <= SEQUENTIAL_D1_GOAL ? "ok" : "FAIL",
    })),
  );
  const sequentialD1ByPage = Object.fromEntries(Object.entries(rounds).map(([p, r]) => [p, r.sequential]));
  if (Object.values(rounds).some((r) => r.sequential > SEQUENTIAL_D1_GOAL)) process.exitCode = 1;
  const phone = await benchPhone(server);
  const lcpPhoneP50Ms: Record<string, number> = {};
  const usablePhoneP50Ms: Record<string, number> = {};
  const lcpPhoneRepeatP50Ms: Record<string, number> = {};
  const usablePhoneRepeatP50Ms: Record<string, number> = {};
  const clsPhone: Record<string, number> = {};
  for (const p of phone.pages) {
    lcpPhoneP50Ms[p.page] = Math.round(p.lcpP50);
    usablePhoneP50Ms[p.page] = Math.round(p.usableP50);
    lcpPhoneRepeatP50Ms[p.page] = Math.round(p.repeat.lcpP50);
    usablePhoneRepeatP50Ms[p.page] = Math.round(p.repeat.usableP50);
    clsPhone[p.page] = Math.round(Math.max(p.cls, p.repeat.cls) * 1000) / 1000;
  }
  // Issue 47's goals (bench/phone.ts GOALS): first and repeat visits, layout shifts, answering.
  if (phone.verdict === "FAIL") process.exitCode = 1;
  const interaction = await benchInteraction(server);
  return {
    latency: results,
    weights,
    sharedFloorGzip: floor,
    aboveFloorKb,
    lcpPhoneP50Ms,
    usablePhoneP50Ms,
    lcpPhoneRepeatP50Ms,
    usablePhoneRepeatP50Ms,
    clsPhone,
    phoneVerdict: phone.verdict,
    answerPaintP95Ms: Math.round(phone.answerPaintP95Ms),
    answerPaintSamples: phone.answerPaintSamples,
    sequentialD1: sequentialD1ByPage,
    d1Calls: rounds,
    phone,
    interaction,
  };
}
