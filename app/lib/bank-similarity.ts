// Near-duplicate questions (issues 30 and 48): two questions that ask the same thing in other words, e.g. the same
// 20 % adenine asked as Biologia's multiple choice and as Chimica's completamento. The exact-text rule is `stemKey` in
// bank-rules.ts; this one compares the content words of the whole question (stem, options, the key of a
// completamento), case, accents and punctuation ignored, numbers kept (the data identify a problem), function words
// and short words dropped. Jaccard over those sets: tuned on the bank, the pairs above SIMILARITY_LIMIT are the same
// problem restated, the pairs just below it are the same topic asked differently.
// Pure TypeScript with erasable syntax only (Node runs it directly in scripts/bank-check.ts).
import type { BankFile, BankIssue, BankQuestion } from "./bank-rules.ts";

/** Above this share of shared content words two questions of different subjects ask the same thing. */
export const SIMILARITY_LIMIT = 0.35;

/** Words that say nothing of what is asked (the stem templates' and articles' words of four letters or more). */
const FUNCTION_WORDS = new Set(
  (
    "della delle dello degli dalla dalle dallo nella nelle nello negli sulla sulle sullo sugli alla alle allo agli " +
    "quale quali quella quello questo questa seguenti seguente affermazioni affermazione corretta corretto falsa " +
    "falso sono come tutte tutti viene vengono dopo prima mentre perche quando ogni nessuna nessuno essere ha hanno " +
    "anche solo sempre circa"
  ).split(" "),
);

/** The question's content words: folded, at least four letters (or holding a digit), function words dropped. */
export function questionWords(q: Pick<BankQuestion, "stem" | "options" | "accepted">): Set<string> {
  const text = `${q.stem} ${(q.options ?? []).join(" ")} ${(q.accepted ?? []).slice(0, 1).join(" ")}`;
  const folded = text
    .toLowerCase()
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/[^\p{L}\p{N},]+/gu, " ");
  return new Set(
    folded.split(" ").filter((w) => (w.length >= 4 || /\d/.test(w)) && !FUNCTION_WORDS.has(w) && w !== ","),
  );
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (!a.size || !b.size) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const s of small) if (large.has(s)) shared++;
  return shared / (a.size + b.size - shared);
}

export type SimilarPair = { a: number; b: number; subjectA: number; subjectB: number; score: number };

/** Every pair of questions sharing more than `limit` of their content words, most similar first. */
export function similarPairs(files: readonly BankFile[], limit = SIMILARITY_LIMIT): SimilarPair[] {
  const rows: Array<{ id: number; subjectId: number; words: Set<string> }> = [];
  for (const file of files)
    for (const q of file.questions ?? [])
      if (typeof q.stem === "string") rows.push({ id: q.id, subjectId: file.subject.id, words: questionWords(q) });
  // An inverted index over words: only pairs sharing one are compared.
  const index = new Map<string, number[]>();
  rows.forEach((row, i) => {
    for (const w of row.words) {
      const list = index.get(w);
      if (list) list.push(i);
      else index.set(w, [i]);
    }
  });
  const out: SimilarPair[] = [];
  rows.forEach((row, i) => {
    const seen = new Set<number>();
    for (const w of row.words)
      for (const j of index.get(w) ?? []) {
        if (j <= i || seen.has(j)) continue;
        seen.add(j);
        const score = jaccard(row.words, rows[j]!.words);
        if (score > limit)
          out.push({ a: row.id, b: rows[j]!.id, subjectA: row.subjectId, subjectB: rows[j]!.subjectId, score });
      }
  });
  return out.sort((x, y) => y.score - x.score);
}

/**
 * Pairs above the limit read by a person and found to ask different things (the same words, another question), each
 * with why. Kept short: a pair belongs here only after reading both questions.
 */
export const DISTINCT_PAIRS: ReadonlyArray<readonly [number, number, string]> = [
  [
    1278,
    2066,
    "both list disaccharides; one asks which pair differs only by the glycosidic bond, the other which is not reducing",
  ],
];

const isDistinct = (a: number, b: number) =>
  DISTINCT_PAIRS.some(([x, y]) => (x === a && y === b) || (x === b && y === a));

/** The bank's rule: no question asks what a question of another subject already asks. */
export function crossSubjectDuplicates(files: readonly BankFile[], limit = SIMILARITY_LIMIT): BankIssue[] {
  return similarPairs(files, limit)
    .filter((p) => p.subjectA !== p.subjectB && !isDistinct(p.a, p.b))
    .map((p) => ({
      key: `similar:${p.a}:${p.b}`,
      subjectId: p.subjectA,
      questionId: p.a,
      message: `domanda ${p.a} e domanda ${p.b} (altra materia): chiedono la stessa cosa (${Math.round(p.score * 100)} % delle parole in comune)`,
    }));
}
