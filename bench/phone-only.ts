// The phone profile alone (bench/phone.ts) against servers already running: to compare builds served side by side.
// Usage: npm run bench:phone -- http://localhost:PORT [http://localhost:PORT2 ...]
// With several servers their runs are interleaved (a first and a repeat visit of each in turn, run after run), so a
// busy minute of the machine weighs on each alike; a table of every server's figures per page closes the run, with the
// load average at its start and end, and each server's paired difference to the first: the median over runs of its
// run minus the first server's run of the same round (the rounds' shared load cancels; the p50s alone moved by
// 50-100 ms between two runs of the same builds here).
import { loadavg } from "node:os";
import { percentile } from "./lib/stats.ts";
import { benchPhoneSideBySide } from "./phone.ts";

const bases = process.argv.slice(2);
if (!bases.length) throw new Error("usage: npm run bench:phone -- http://localhost:PORT [...]");
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(", ");
const loadBefore = load();
const results = await benchPhoneSideBySide(bases.map((baseUrl) => ({ baseUrl, stop: async () => {} })));
const rows: Record<string, string | number>[] = [];
for (const [i, result] of results.entries()) {
  const server = bases[i]!;
  for (const p of result.pages)
    rows.push({
      server,
      page: p.page,
      "LCP p50": Math.round(p.lcpP50),
      "usable p50": Math.round(p.usableP50),
      "repeat LCP p50": Math.round(p.repeat.lcpP50),
      "repeat usable p50": Math.round(p.repeat.usableP50),
      CLS: Math.max(p.cls, p.repeat.cls).toFixed(3),
    });
  rows.push({
    server,
    page: `answer paint p95 (${result.answerPaintSamples} presses)`,
    "LCP p50": Math.round(result.answerPaintP95Ms),
  });
  console.log(`${server}: ${result.verdict}${result.missed.length ? ` (${result.missed.join("; ")})` : ""}`);
}
console.log(`\nSide by side (load average ${loadBefore} at the start, ${load()} at the end):`);
console.table(rows);

if (results.length > 1) {
  const first = results[0]!;
  const paired = (a: number[], b: number[]) =>
    Math.round(
      percentile(
        a.map((v, i) => v - b[i]!),
        50,
      ),
    );
  console.log(`Paired difference to ${bases[0]} (median of run-by-run differences, ms; negative: sooner):`);
  console.table(
    results.slice(1).flatMap((result, i) =>
      result.pages.map((p, k) => ({
        server: bases[i + 1],
        page: p.page,
        "usable Δ": paired(p.usableRuns, first.pages[k]!.usableRuns),
        "repeat usable Δ": paired(p.repeat.usableRuns, first.pages[k]!.repeat.usableRuns),
      })),
    ),
  );
}
