// npm run bank:draws — for the closing note: over N simulated semestre filtro draws (31 questions, 15 mc +
// 16 gap) of each unit subject in seed/bank, the target share per unit (credits / 6 × 31) against the
// average drawn, with the shortfalls seen. Usage: node scripts/draw-report.ts [DRAWS] [DIR]
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { BankFile } from "../app/lib/bank-rules.ts";
import { drawQuestions } from "../app/lib/draw.ts";

const draws = Number(process.argv[2] ?? 1000);
const dir = process.argv[3] ?? join("seed", "bank");
let failed = false;
for (const name of ["chimica", "fisica", "biologia"]) {
  const bank = JSON.parse(readFileSync(join(dir, `${name}.json`), "utf8")) as BankFile;
  const units = bank.units ?? [];
  const candidates = bank.questions.map((q) => ({
    id: q.id,
    type: q.type,
    unit: q.unit ?? null,
    legacy: q.legacy === true,
  }));
  const legacy = new Set(candidates.filter((c) => c.legacy).map((c) => c.id));
  const sums = new Map(units.map((u) => [u.number, 0]));
  let legacySeen = 0;
  let shortDraws = 0;
  for (let i = 0; i < draws; i++) {
    const r = drawQuestions({ candidates, count: 31, mix: { mc: 15, gap: 16 }, units, excludeLegacy: true });
    if (r.ids.some((id) => legacy.has(id))) legacySeen++;
    if (r.shortfalls.length) shortDraws++;
    for (const s of r.shares) sums.set(s.unit, (sums.get(s.unit) ?? 0) + s.drawn);
  }
  const credits = units.reduce((s, u) => s + u.credits, 0);
  console.log(`\n${bank.subject.name}: ${bank.questions.length} domande, ${draws} estrazioni da 31 (15 mc + 16 gap)`);
  console.log("| unità | CFU | domande nella banca (mc/gap) | target /31 | media estratta | scarto |");
  console.log("|---|---|---|---|---|---|");
  for (const u of units) {
    const target = (u.credits / credits) * 31;
    const drawn = sums.get(u.number)! / draws;
    const inUnit = bank.questions.filter((q) => !q.legacy && q.unit === u.number);
    if (Math.abs(drawn - target) >= 1) failed = true;
    console.log(
      `| ${u.number} ${u.title} | ${u.credits} | ${inUnit.length} (${inUnit.filter((q) => q.type === "mc").length}/${inUnit.filter((q) => q.type === "gap").length}) | ${target.toFixed(2)} | ${drawn.toFixed(2)} | ${(drawn - target >= 0 ? "+" : "") + (drawn - target).toFixed(2)} |`,
    );
  }
  console.log(`Domande legacy estratte: ${legacySeen}; estrazioni con un'unità scoperta: ${shortDraws}.`);
  if (legacySeen) failed = true;
}
if (failed) {
  console.error("\nbank:draws: una quota media fuori di una domanda dal target, o una domanda legacy estratta.");
  process.exit(1);
}
