// The phone profile alone (bench/phone.ts) against servers already running: to compare builds served side by side
// in the same minutes. Usage: node bench/phone-only.ts http://localhost:PORT [http://localhost:PORT2 ...]
// With several servers, each is measured in turn (PHONE_ROUNDS times, default 1, alternating), and a table of every
// round's figures per page closes the run, with the load average at its start.
import { loadavg } from "node:os";
import { benchPhone } from "./phone.ts";

const bases = process.argv.slice(2);
if (!bases.length) throw new Error("usage: node bench/phone-only.ts http://localhost:PORT [...]");
const rounds = Number(process.env.PHONE_ROUNDS ?? 1);
const rows: Record<string, string | number>[] = [];
for (let round = 1; round <= rounds; round++) {
  for (const baseUrl of bases) {
    const load = loadavg()[0]!.toFixed(2);
    const result = await benchPhone({ baseUrl, stop: async () => {} });
    for (const p of result.pages)
      rows.push({
        server: baseUrl,
        round,
        "load (1 min)": load,
        page: p.page,
        "LCP p50": Math.round(p.lcpP50),
        "usable p50": Math.round(p.usableP50),
        "repeat LCP p50": Math.round(p.repeat.lcpP50),
        "repeat usable p50": Math.round(p.repeat.usableP50),
        CLS: Math.max(p.cls, p.repeat.cls).toFixed(3),
      });
    rows.push({
      server: baseUrl,
      round,
      "load (1 min)": load,
      page: "answer paint p95",
      "LCP p50": Math.round(result.answerPaintP95Ms),
    });
    console.log(`${baseUrl}: ${result.verdict}${result.missed.length ? ` (${result.missed.join("; ")})` : ""}`);
  }
}
console.table(rows);
