// npm run bank:blind -- … — the blind check of new or changed questions (issues 30 and 48): a checker who never sees the
// keys solves each question from its text, and the answers are compared through the real grader.
//   node scripts/bank-blind.ts sheet IDS OUT [DIR]     writes the keyless sheet of the questions listed in IDS (a
//                                                     file of ids or ranges such as 2476-2675, one per line or
//                                                     comma-separated): stem, lettered options, the unit after the
//                                                     blank. No key, tolerance or explanation.
//   node scripts/bank-blind.ts grade ANSWERS [DIR]     ANSWERS is {"2476": "C", "2477": "uracile", ...}: a letter
//                                                     for multiple choice, the typed text for completamento. Prints
//                                                     the agreements and every disagreement with the key and the
//                                                     explanation; exits 1 when any answer disagrees or is missing.
// DIR defaults to seed/bank. Pure TypeScript with erasable syntax only (Node runs it directly).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BankFile, BankQuestion } from "../app/lib/bank-rules.ts";
import { gradeGapAnswer } from "../app/lib/gap-answer.ts";

const FILES = ["biologia", "chimica", "matematica", "fisica", "ragionamento"];
const LETTERS = "ABCDE";

function loadBank(dir: string): Map<number, { subject: string; question: BankQuestion }> {
  const out = new Map<number, { subject: string; question: BankQuestion }>();
  for (const name of FILES) {
    const file = JSON.parse(readFileSync(join(dir, `${name}.json`), "utf8")) as BankFile;
    for (const question of file.questions) out.set(question.id, { subject: file.subject.name, question });
  }
  return out;
}

/** "2476-2480, 1501\n4533" → [2476, 2477, 2478, 2479, 2480, 1501, 4533]. */
function parseIds(text: string): number[] {
  const ids: number[] = [];
  for (const part of text.split(/[\s,]+/).filter(Boolean)) {
    const range = /^(\d+)-(\d+)$/.exec(part);
    if (range) for (let id = Number(range[1]); id <= Number(range[2]); id++) ids.push(id);
    else if (/^\d+$/.test(part)) ids.push(Number(part));
    else throw new Error(`id non valido: ${part}`);
  }
  return ids;
}

function sheet(idsPath: string, outPath: string, dir: string) {
  const bank = loadBank(dir);
  const rows = parseIds(readFileSync(idsPath, "utf8"))
    .filter((id) => bank.has(id))
    .map((id) => {
      const { subject, question: q } = bank.get(id)!;
      return q.type === "mc"
        ? { id, subject, type: "mc", stem: q.stem, options: (q.options ?? []).map((o, i) => `${LETTERS[i]}) ${o}`) }
        : { id, subject, type: "gap", stem: q.stem, ...(q.measure ? { unitAfterBlank: q.measure } : {}) };
    });
  writeFileSync(outPath, `${JSON.stringify(rows, null, 2)}\n`);
  console.log(`${rows.length} domande senza chiave in ${outPath}`);
}

function grade(answersPath: string, dir: string) {
  const bank = loadBank(dir);
  const answers = JSON.parse(readFileSync(answersPath, "utf8")) as Record<string, string>;
  const bySubject = new Map<string, { agreed: number; total: number }>();
  const disagreements: string[] = [];
  for (const [key, given] of Object.entries(answers)) {
    const entry = bank.get(Number(key));
    if (!entry) {
      disagreements.push(`${key}: domanda inesistente`);
      continue;
    }
    const { subject, question: q } = entry;
    const tally = bySubject.get(subject) ?? { agreed: 0, total: 0 };
    bySubject.set(subject, tally);
    tally.total++;
    const text = String(given ?? "").trim();
    const right =
      q.type === "mc"
        ? LETTERS.indexOf(text.toUpperCase()) === q.correct
        : gradeGapAnswer(text, { accepted: q.accepted ?? [], measure: q.measure, tolerance: q.tolerance }).correct;
    if (right) {
      tally.agreed++;
      continue;
    }
    const keyText =
      q.type === "mc" ? `${LETTERS[q.correct ?? 0]}) ${q.options?.[q.correct ?? 0]}` : (q.accepted ?? []).join(" | ");
    disagreements.push(
      `${q.id} (${subject}, ${q.type}): risposta del verificatore «${text}», chiave «${keyText}»\n    ${q.stem}\n    spiegazione: ${q.explanation}`,
    );
  }
  for (const [subject, { agreed, total }] of bySubject) console.log(`${subject}: ${agreed} / ${total} concordi`);
  if (disagreements.length) {
    console.log(`\n${disagreements.length} disaccordi:\n${disagreements.map((d) => `- ${d}`).join("\n")}`);
    process.exit(1);
  }
  console.log("nessun disaccordo.");
}

const [command, first, second, third] = process.argv.slice(2);
if (command === "sheet" && first && second) sheet(first, second, third ?? join("seed", "bank"));
else if (command === "grade" && first) grade(first, second ?? join("seed", "bank"));
else {
  console.error("uso: node scripts/bank-blind.ts sheet IDS OUT [DIR] | grade ANSWERS [DIR]");
  process.exit(2);
}
