// npm run bank:draws — for the closing note: over N simulated full papers of each core subject in seed/bank, per
// exam edition (seed/editions.ts: 2025/26 is 15 + 16 on the bank's `unit`, 2026/27 is 21 + 10 on `unit2627`), the
// target share per unit (credits / 6 × 31) against the average drawn, the worst single paper, the exact split
// every time, and no legacy or fuori programma question. Fails otherwise. Usage: node scripts/draw-report.ts [DRAWS] [DIR]
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { BankFile, BankQuestion } from "../app/lib/bank-rules.ts";
import { drawQuestions } from "../app/lib/draw.ts";
import { SEED_EDITIONS } from "../seed/editions.ts";

const draws = Number(process.argv[2] ?? 1000);
const dir = process.argv[3] ?? join("seed", "bank");
const SUBJECTS: Array<[string, number]> = [
  ["chimica", 2],
  ["fisica", 4],
  ["biologia", 1],
];
const unitOf: Record<string, (q: BankQuestion) => number | null> = {
  "2025/26": (q) => (q.legacy ? null : (q.unit ?? null)),
  "2026/27": (q) => (q.legacy ? null : (q.unit2627 ?? null)),
};

let failed = false;
for (const edition of SEED_EDITIONS) {
  const pick = unitOf[edition.academicYear];
  if (!pick) continue;
  for (const [name, subjectId] of SUBJECTS) {
    const bank = JSON.parse(readFileSync(join(dir, `${name}.json`), "utf8")) as BankFile;
    const row = edition.format.subjects.find((s) => s.subjectId === subjectId)!;
    const split = { mc: row.mc, gap: row.gap };
    const units = edition.format.units.filter((u) => u.subjectId === subjectId);
    const inside = bank.questions.filter((q) => pick(q) != null);
    const candidates = inside.map((q) => ({ id: q.id, type: q.type, unit: pick(q), legacy: false }));
    const allowed = new Set(candidates.map((c) => c.id));
    const sums = new Map(units.map((u) => [u.number, 0]));
    let worst = 0;
    let outside = 0;
    let wrongSplit = 0;
    let shortDraws = 0;
    const typeOf = new Map(inside.map((q) => [q.id, q.type]));
    const credits = units.reduce((s, u) => s + u.credits, 0);
    for (let i = 0; i < draws; i++) {
      const r = drawQuestions({ candidates, count: split.mc + split.gap, mix: split, units, excludeLegacy: true });
      outside += r.ids.filter((id) => !allowed.has(id)).length;
      const mc = r.ids.filter((id) => typeOf.get(id) === "mc").length;
      if (mc !== split.mc || r.ids.length - mc !== split.gap) wrongSplit++;
      if (r.shortfalls.length) shortDraws++;
      for (const s of r.shares) {
        sums.set(s.unit, (sums.get(s.unit) ?? 0) + s.drawn);
        const target = ((units.find((u) => u.number === s.unit)?.credits ?? 0) / credits) * (split.mc + split.gap);
        worst = Math.max(worst, Math.abs(s.drawn - target));
      }
    }
    console.log(
      `\n${bank.subject.name} ${edition.academicYear}: ${inside.length} domande nel programma, ${draws} prove da ${split.mc + split.gap} (${split.mc} mc + ${split.gap} completamento)`,
    );
    console.log("| unità | CFU | domande (mc/gap) | target | media estratta | scarto |");
    console.log("|---|---|---|---|---|---|");
    for (const u of units) {
      const target = (u.credits / credits) * (split.mc + split.gap);
      const drawn = sums.get(u.number)! / draws;
      const mine = inside.filter((q) => pick(q) === u.number);
      if (Math.abs(drawn - target) >= 1) failed = true;
      console.log(
        `| ${u.number} ${u.title} | ${u.credits} | ${mine.length} (${mine.filter((q) => q.type === "mc").length}/${mine.filter((q) => q.type === "gap").length}) | ${target.toFixed(2)} | ${drawn.toFixed(2)} | ${(drawn - target >= 0 ? "+" : "") + (drawn - target).toFixed(2)} |`,
      );
    }
    console.log(
      `Split ${split.mc} + ${split.gap} mancato: ${wrongSplit}; domande fuori programma o legacy estratte: ${outside}; scarto massimo di un'unità in una prova: ${worst.toFixed(2)}; prove con un'unità scoperta: ${shortDraws}.`,
    );
    if (wrongSplit || outside || worst >= 1) failed = true;
  }
}
if (failed) {
  console.error(
    "\nbank:draws: uno split mancato, una domanda fuori programma estratta, o una quota fuori di una domanda dal target.",
  );
  process.exit(1);
}
