// The bank against an exam edition's syllabus (issue 30): every core question's 2026/27 unit (`unit2627`, null =
// fuori programma), and whether the pool holds enough full papers of the edition without a repeat.
// Run by `npm run bank:check` (scripts/bank-check.ts) next to the row and file rules of bank-rules.ts.
// Pure TypeScript with erasable syntax only (Node runs it directly).
import { readsAsNumber } from "./gap-answer.ts";
import { type BankFile, type BankIssue, type BankQuestion, type BankUnit, UNIT_SUBJECT_IDS } from "./bank-rules.ts";

/** What a full paper is: multiple choice + completamento (2026/27: 21 + 10). */
export type PaperSplit = { mc: number; gap: number };

/** The goals of issues 30 and 48 for the 2026/27 pool. */
export const COVERAGE_GOALS = {
  /** Full papers without a repeat per core subject (issue 48: a season of daily practice). */
  papers: 20,
  /** Multiple-choice questions per core subject on the syllabus (what runs out first). */
  mc: 440,
  /** Share of one-word completamento answers on the syllabus, per subject id (Chimica, Biologia 60 %, Fisica 45 %). */
  oneWordShare: new Map<number, number>([
    [2, 0.6],
    [1, 0.6],
    [4, 0.45],
  ]),
  /** The real exam's mix per subject and type: easy (1-2), medium (3-4), hard (5), each within ± `slack`. */
  difficulty: { target: [0.2, 0.5, 0.3] as const, slack: 0.05 },
  /** Words in a stem; longer only when a case needs it (bank:check prints the longest). */
  stemWords: 60,
} as const;

/** Words of a stem, as a reader counts them. */
export const stemWords = (stem: string): number => stem.split(/\s+/).filter(Boolean).length;

/** A completamento answer that is one technical word (a term, a name, a symbol), not a number nor several words. */
export function isOneWordAnswer(question: BankQuestion): boolean {
  const first = question.accepted?.[0]?.trim() ?? "";
  if (!first || /\s/.test(first)) return false;
  return !readsAsNumber(first);
}

/** The 2026/27 unit field of every core question: present, null or a unit of the 2026/27 syllabus; legacy → null. */
export function unit2627Issues(files: readonly BankFile[], syllabus: Map<number, BankUnit[]>): BankIssue[] {
  const out: BankIssue[] = [];
  for (const file of files) {
    const sid = file.subject?.id;
    if (!UNIT_SUBJECT_IDS.includes(sid)) continue;
    const units = syllabus.get(sid) ?? [];
    for (const q of file.questions ?? []) {
      const add = (message: string) =>
        out.push({ key: `unit2627:${q.id}`, subjectId: sid, questionId: q.id, message: `domanda ${q.id}: ${message}` });
      if (!("unit2627" in q)) add('manca "unit2627" (unità 2026/27, oppure null se fuori programma)');
      else if (q.unit2627 === null) continue;
      else if (q.legacy) add('una domanda legacy ha "unit2627": null');
      else if (!units.some((u) => u.number === q.unit2627)) add(`unità 2026/27 ${q.unit2627} inesistente`);
    }
  }
  return out;
}

export type UnitCoverage = BankUnit & {
  mc: number;
  gap: number;
  /** 10 papers' worth of this unit, per type (credits / 6 × split × papers). */
  mcFloor: number;
  gapFloor: number;
  /** Papers this unit can fill without a repeat. */
  papers: number;
};

export type SubjectCoverage = {
  subjectId: number;
  name: string;
  mc: number;
  gap: number;
  outside: number;
  oneWordShare: number;
  /** Share of easy (1-2), medium (3-4) and hard (5) questions in the pool, per type. */
  difficulty: { mc: [number, number, number]; gap: [number, number, number] };
  units: UnitCoverage[];
  /** Full papers without a repeat: the fewest any unit or type allows. */
  papers: number;
  /** The longest stem on the syllabus (id and words) and how many stems pass `COVERAGE_GOALS.stemWords`. */
  longestStem: { id: number; words: number };
  longStems: number;
};

/**
 * Per core subject, the pool of one edition: questions on its syllabus (`unitOf` gives a question's unit in it,
 * null when outside), per unit against `papers` × its share, the one-word share of completamento, and how many
 * full papers fit without a repeat (a unit's quota per paper is credits / total × split, the largest-remainder
 * draw takes at most its ceiling).
 */
export function editionCoverage(
  files: readonly BankFile[],
  syllabus: Map<number, BankUnit[]>,
  split: PaperSplit,
  unitOf: (q: BankQuestion) => number | null | undefined,
  papers = COVERAGE_GOALS.papers,
): SubjectCoverage[] {
  const out: SubjectCoverage[] = [];
  for (const file of files) {
    const sid = file.subject?.id;
    if (!UNIT_SUBJECT_IDS.includes(sid)) continue;
    const units = syllabus.get(sid) ?? [];
    const credits = units.reduce((s, u) => s + u.credits, 0) || 1;
    const inside = (file.questions ?? []).filter((q) => !q.legacy && unitOf(q) != null);
    const gaps = inside.filter((q) => q.type === "gap");
    const unitRows = units.map((u): UnitCoverage => {
      const mine = inside.filter((q) => unitOf(q) === u.number);
      const mc = mine.filter((q) => q.type === "mc").length;
      const gap = mine.length - mc;
      const mcQuota = (u.credits / credits) * split.mc;
      const gapQuota = (u.credits / credits) * split.gap;
      return {
        ...u,
        mc,
        gap,
        mcFloor: Math.ceil(mcQuota * papers - 1e-9),
        gapFloor: Math.ceil(gapQuota * papers - 1e-9),
        papers: Math.min(mcQuota ? mc / mcQuota : Infinity, gapQuota ? gap / gapQuota : Infinity),
      };
    });
    const mc = inside.length - gaps.length;
    const bands = (list: readonly BankQuestion[]): [number, number, number] => {
      const n = list.length || 1;
      const share = (lo: number, hi: number) => list.filter((q) => q.difficulty >= lo && q.difficulty <= hi).length / n;
      return [share(1, 2), share(3, 4), share(5, 5)];
    };
    out.push({
      subjectId: sid,
      name: file.subject.name,
      mc,
      gap: gaps.length,
      outside: (file.questions ?? []).length - inside.length,
      oneWordShare: gaps.length ? gaps.filter(isOneWordAnswer).length / gaps.length : 0,
      difficulty: { mc: bands(inside.filter((q) => q.type === "mc")), gap: bands(gaps) },
      units: unitRows,
      papers: Math.floor(Math.min(mc / split.mc, gaps.length / split.gap, ...unitRows.map((u) => u.papers)) + 1e-9),
      longestStem: inside.reduce(
        (best, q) => (stemWords(q.stem) > best.words ? { id: q.id, words: stemWords(q.stem) } : best),
        { id: 0, words: 0 },
      ),
      longStems: inside.filter((q) => stemWords(q.stem) > COVERAGE_GOALS.stemWords).length,
    });
  }
  return out;
}

/** The printed report of one edition's coverage (Italian, for bank:check). */
export function coverageTable(label: string, rows: readonly SubjectCoverage[]): string {
  const lines = [`\nCopertura ${label}`];
  for (const s of rows) {
    lines.push(
      `${s.name}: ${s.mc} scelta multipla + ${s.gap} completamento nel programma, ${s.outside} fuori programma; completamento di una parola: ${Math.round(s.oneWordShare * 100)} %; prove complete senza ripetizioni: ${s.papers}`,
    );
    const pct = (b: [number, number, number]) => b.map((x) => `${Math.round(x * 100)} %`).join(" / ");
    lines.push(
      `  difficoltà facile / media / difficile: scelta multipla ${pct(s.difficulty.mc)}, completamento ${pct(s.difficulty.gap)}`,
      `  testo più lungo: domanda ${s.longestStem.id}, ${s.longestStem.words} parole; oltre ${COVERAGE_GOALS.stemWords} parole: ${s.longStems}`,
    );
    for (const u of s.units)
      lines.push(
        `  U${u.number} ${u.title.slice(0, 48).padEnd(48)} ${String(u.credits).padStart(4)} CFU  mc ${String(u.mc).padStart(3)}/${String(u.mcFloor).padStart(3)}  gap ${String(u.gap).padStart(3)}/${String(u.gapFloor).padStart(3)}`,
      );
  }
  return lines.join("\n");
}

/** The goals the 2026/27 pool must meet: enough papers, every unit at its floor, the one-word share. */
export function coverageIssues(rows: readonly SubjectCoverage[]): BankIssue[] {
  const out: BankIssue[] = [];
  for (const s of rows) {
    const add = (key: string, message: string) =>
      out.push({ key, subjectId: s.subjectId, message: `${s.name} 2026/27: ${message}` });
    if (s.papers < COVERAGE_GOALS.papers)
      add(`papers:${s.subjectId}`, `${s.papers} prove complete senza ripetizioni, ne servono ${COVERAGE_GOALS.papers}`);
    if (s.mc < COVERAGE_GOALS.mc)
      add(`mc:${s.subjectId}`, `${s.mc} domande a scelta multipla, ne servono ${COVERAGE_GOALS.mc}`);
    const { target, slack } = COVERAGE_GOALS.difficulty;
    const bandNames = ["facili", "medie", "difficili"];
    for (const type of ["mc", "gap"] as const)
      s.difficulty[type].forEach((share, band) => {
        if (Math.abs(share - target[band]!) > slack + 1e-9)
          add(
            `difficulty:${s.subjectId}:${type}:${band}`,
            `${type === "mc" ? "scelta multipla" : "completamento"}: ${Math.round(share * 100)} % ${bandNames[band]}, l'obiettivo è ${Math.round(target[band]! * 100)} % ± ${Math.round(slack * 100)}`,
          );
      });
    for (const u of s.units) {
      if (u.mc < u.mcFloor)
        add(
          `unit-pool:${s.subjectId}:${u.number}:mc`,
          `unità ${u.number}: ${u.mc} a scelta multipla, ne servono ${u.mcFloor}`,
        );
      if (u.gap < u.gapFloor)
        add(
          `unit-pool:${s.subjectId}:${u.number}:gap`,
          `unità ${u.number}: ${u.gap} di completamento, ne servono ${u.gapFloor}`,
        );
    }
    const goal = COVERAGE_GOALS.oneWordShare.get(s.subjectId) ?? 0;
    if (s.oneWordShare < goal)
      add(
        `one-word:${s.subjectId}`,
        `completamento di una parola ${Math.round(s.oneWordShare * 100)} %, l'obiettivo è ${Math.round(goal * 100)} %`,
      );
  }
  return out;
}
