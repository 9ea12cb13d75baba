// npm run bank:check — checks seed/bank/*.json against the bank's rules (app/lib/bank-rules.ts, the same
// functions POST /api/admin/import runs) and SYLLABUS.md, prints the coverage table and fails with the list
// of problems. Usage: node scripts/bank-check.ts [DIR] (default seed/bank).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { coverageIssues, coverageTable, editionCoverage, unit2627Issues } from "../app/lib/bank-editions.ts";
import { bankTable, checkBank, parseSyllabus, type BankFile } from "../app/lib/bank-rules.ts";
import { crossSubjectDuplicates, SIMILARITY_LIMIT, similarPairs } from "../app/lib/bank-similarity.ts";
import { SEED_EDITIONS } from "../seed/editions.ts";

const dir = process.argv[2] ?? join("seed", "bank");
const FILES = ["biologia", "chimica", "matematica", "fisica", "ragionamento"];

const files: BankFile[] = [];
const problems: string[] = [];
for (const name of FILES) {
  const path = join(dir, `${name}.json`);
  try {
    files.push(JSON.parse(readFileSync(path, "utf8")) as BankFile);
  } catch (error) {
    problems.push(`${path}: JSON non leggibile (${(error as Error).message})`);
  }
}
const syllabusPath = existsSync(join(dir, "SYLLABUS.md"))
  ? join(dir, "SYLLABUS.md")
  : join("seed", "bank", "SYLLABUS.md");
const syllabusText = readFileSync(syllabusPath, "utf8");
const syllabus = parseSyllabus(syllabusText);
// Every key's sheet form must fit the boxes of every edition (the smallest count; 16 in both seeded editions).
const gapBoxes = Math.min(...SEED_EDITIONS.map((e) => e.format.gapBoxes));
const issues = checkBank(files, { syllabus, idRanges: true, gapBoxes });
problems.push(...issues.map((i) => i.message));
// Issue 48: no question asks what another subject's question asks (the same case in other words).
const crossSubject = crossSubjectDuplicates(files);
problems.push(...crossSubject.map((i) => i.message));
const sameSubject = similarPairs(files).filter((p) => p.subjectA === p.subjectB);

// Issue 30: the 2026/27 syllabus of SYLLABUS.md is the seed edition's (seed/editions.ts), every core question has
// its 2026/27 unit, and the pools of both editions are printed; the 2026/27 one must hold ten papers.
const editionOf = (year: string) => SEED_EDITIONS.find((e) => e.academicYear === year)!;
const syllabus2627 = parseSyllabus(syllabusText, "2026/27");
for (const [subjectId, units] of syllabus2627) {
  const seeded = editionOf("2026/27").format.units.filter((u) => u.subjectId === subjectId);
  const same =
    seeded.length === units.length &&
    seeded.every(
      (u, i) => u.number === units[i]!.number && u.title === units[i]!.title && u.credits === units[i]!.credits,
    );
  if (!same) problems.push(`SYLLABUS.md 2026/27, materia ${subjectId}: le unità non coincidono con seed/editions.ts`);
}
problems.push(...unit2627Issues(files, syllabus2627).map((i) => i.message));
const splitOf = (year: string) => {
  const s = editionOf(year).format.subjects[0]!;
  return { mc: s.mc, gap: s.gap };
};
const coverage2526 = editionCoverage(files, syllabus, splitOf("2025/26"), (q) => q.unit);
const coverage2627 = editionCoverage(files, syllabus2627, splitOf("2026/27"), (q) => q.unit2627);
problems.push(...coverageIssues(coverage2627).map((i) => i.message));

console.log(bankTable(files));
console.log(coverageTable("2025/26 (15 + 16)", coverage2526));
console.log(coverageTable("2026/27 (21 + 10)", coverage2627));
console.log(
  `\nquasi doppioni (oltre ${Math.round(SIMILARITY_LIMIT * 100)} % delle parole in comune): tra materie ${crossSubject.length}, nella stessa materia ${sameSubject.length} (varianti con altri dati, ammesse)`,
);
console.log(`\ncaselle del completamento: ${gapBoxes} (la più piccola delle edizioni)`);
console.log(`\n${files.reduce((n, f) => n + (f.questions?.length ?? 0), 0)} domande in ${files.length} file.`);
const paperCount = (name: string) => coverage2627.find((c) => c.name.startsWith(name))?.papers ?? 0;
console.log(
  `papers without a repeat, 2026/27: Chimica ${paperCount("Chimica")}, Fisica ${paperCount("Fisica")}, Biologia ${paperCount("Biologia")}`,
);
if (problems.length) {
  console.error(`\nbank:check: ${problems.length} problemi\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  process.exit(1);
}
console.log("bank:check: nessun problema.");
