// The phone profile alone (bench/phone.ts) against servers already running: to compare builds served side by side.
// Usage: npm run bench:phone -- http://localhost:PORT [http://localhost:PORT2 ...]
// With several servers their runs are interleaved (a first and a repeat visit of each in turn, run after run), so a
// busy minute of the machine weighs on each alike; a table of every server's figures per page closes the run, with the
// load average at its start and end.
import { loadavg } from "node:os";
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
