// npm run bank:check — checks seed/bank/*.json against the bank's rules (app/lib/bank-rules.ts, the same
// functions POST /api/admin/import runs) and SYLLABUS.md, prints the coverage table and fails with the list
// of problems. Usage: node scripts/bank-check.ts [DIR] (default seed/bank).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { bankTable, checkBank, parseSyllabus, type BankFile } from "../app/lib/bank-rules.ts";

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
const syllabus = parseSyllabus(readFileSync(syllabusPath, "utf8"));
const issues = checkBank(files, { syllabus, idRanges: true });
problems.push(...issues.map((i) => i.message));

console.log(bankTable(files));
console.log(`\n${files.reduce((n, f) => n + (f.questions?.length ?? 0), 0)} domande in ${files.length} file.`);
if (problems.length) {
  console.error(`\nbank:check: ${problems.length} problemi\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  process.exit(1);
}
console.log("bank:check: nessun problema.");
