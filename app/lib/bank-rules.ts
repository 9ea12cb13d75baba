// The rules of the question bank (seed/bank/FORMAT.md), in one place: `npm run bank:check` runs them on
// seed/bank/*.json and POST /api/admin/import runs them on the bank an import would leave behind (where a rule of
// style, STYLE_RULES, is a warning: an official paper imports as published).
// Pure TypeScript with erasable syntax only (Node runs it directly in scripts/bank-check.ts).
// Every message is Italian: the admin reads them in the import's refusal.
import { gradeGapAnswer, isNumberWord, parseGapNumber, readsAsNumber, sheetFormOf } from "./gap-answer.ts";
import { nearMisses, numericKeyForm } from "./gap-spellings.ts";

export type BankUnit = { number: number; title: string; credits: number };
export type BankTopic = { id: number; name: string; parent?: number | null; unit?: number | null; legacy?: boolean };
export type BankQuestion = {
  id: number;
  topic: number | null;
  unit?: number | null;
  /** The 2026/27 unit (SYLLABUS.md, 2026/27 section); null: fuori programma 2026/27. */
  unit2627?: number | null;
  legacy?: boolean;
  type: "mc" | "gap";
  stem: string;
  options?: string[] | null;
  correct?: number | null;
  accepted?: string[] | null;
  measure?: string | null;
  tolerance?: number | null;
  explanation: string;
  difficulty: number;
};
export type BankFile = {
  subject: { id: number; name: string };
  units?: BankUnit[];
  topics: BankTopic[];
  questions: BankQuestion[];
};

/** The semestre filtro subjects (their questions carry a syllabus unit): Biologia, Chimica, Fisica. */
export const UNIT_SUBJECT_IDS: readonly number[] = [1, 2, 4];
export const MC_OPTIONS = 5;
/** The real answer sheet has 16 boxes (2025 rules): what a check without the editions' own count assumes. */
export const GAP_MAX_CHARS = 16;
export const MIN_PER_TOPIC = 6;
export const MIN_PER_UNIT = 6;
/** Each correct position holds 15-25 % of a subject's mc questions (checked from this many mc questions). */
export const POSITION_SHARE = { min: 0.15, max: 0.25, from: 20 } as const;
export const GAP_BLANK = "____";

export type BankIssue = {
  /** A stable key: the import refuses only problems it would add (aggregate ones are compared by key). */
  key: string;
  subjectId: number;
  questionId?: number;
  message: string;
  /** A rule of the bank we write, not of the exam (STYLE_RULES): an error for bank:check, a warning for an import. */
  style?: true;
};

/**
 * Rules of style for the bank we write that the ministry's own papers do not follow: `npm run bank:check` fails on
 * them, the admin import only warns, so an official paper imports as published (issue 44: 9 of the 77 completamento
 * items of the 2025 papers have an article before the blank, "coincide con il ____ scambiato", "è il ____").
 */
export const STYLE_RULES: ReadonlySet<string> = new Set(["article"]);

export type CheckOptions = {
  /** Units per subject as SYLLABUS.md lists them; when given, a file's `units` must match exactly. */
  syllabus?: Map<number, BankUnit[]>;
  /** Ids in the ranges of FORMAT.md (subjectId*100+n, subjectId*1000+n): the seed files, not imports. */
  idRanges?: boolean;
  /** The completamento boxes of the sheet (the smallest of the editions' `gapBoxes`); GAP_MAX_CHARS by default. */
  gapBoxes?: number;
};

/** Stems compared after normalising: case, accents, punctuation and spacing ignored. */
export function stemKey(stem: string): string {
  return stem
    .toLowerCase()
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/[^\p{L}\p{N}_]+/gu, " ")
    .trim();
}

const optionKey = (o: string) => o.toLowerCase().normalize("NFD").replace(/\p{M}/gu, "").replace(/\s+/g, " ").trim();

/** Accepted forms that look like numbers (digits and number punctuation only) must parse as numbers. */
const NUMBER_LIKE = /^(?=.*\d)[\d\s.,+\-\u2212/^×·*%°]+$/;

const q = (id: number) => `domanda ${id}`;

/** An article right before the blank gives the answer's gender and number away ("il ____", "l'____", "una ____"). */
const ARTICLE_BEFORE_BLANK =
  /(?:^|[\s(«"])(?:il|lo|la|i|gli|le|un|uno|una)\s+____|(?:^|[\s(«"])(?:l|un|dell|all|nell|sull)['’]\s*____/i;

/** The problems of one question on its own (row rules): schema, options, accepted forms, explanation. */
export function questionIssues(question: BankQuestion, subjectId: number, gapBoxes = GAP_MAX_CHARS): BankIssue[] {
  const out: BankIssue[] = [];
  const add = (code: string, message: string) =>
    out.push({
      key: `${code}:${question.id}`,
      subjectId,
      questionId: question.id,
      message: `${q(question.id)}: ${message}`,
      ...(STYLE_RULES.has(code) ? { style: true as const } : {}),
    });
  if (!Number.isInteger(question.id) || question.id <= 0) add("id", "id non valido");
  if (typeof question.stem !== "string" || !question.stem.trim()) add("stem", "testo mancante");
  if (!Number.isInteger(question.difficulty) || question.difficulty < 1 || question.difficulty > 5)
    add("difficulty", "difficoltà da 1 a 5");
  if (typeof question.explanation !== "string" || !question.explanation.trim())
    add("explanation", "spiegazione mancante");
  if (question.type === "mc") {
    const options = question.options ?? [];
    if (!Array.isArray(options) || options.length !== MC_OPTIONS)
      add(
        "options",
        `servono esattamente ${MC_OPTIONS} opzioni (ce ne sono ${Array.isArray(options) ? options.length : 0})`,
      );
    else if (options.some((o) => typeof o !== "string" || !o.trim())) add("options", "opzione vuota");
    else if (new Set(options.map(optionKey)).size !== options.length) add("options-distinct", "opzioni ripetute");
    if (!Number.isInteger(question.correct) || question.correct! < 0 || question.correct! >= MC_OPTIONS)
      add("correct", `"correct" deve essere l'indice (0-${MC_OPTIONS - 1}) della risposta corretta`);
    if (question.accepted?.length || question.measure)
      add("mc-fields", "una domanda a scelta multipla non ha risposte accettate né unità di misura");
  } else if (question.type === "gap") {
    const blanks = typeof question.stem === "string" ? question.stem.split(GAP_BLANK).length - 1 : 0;
    if (typeof question.stem === "string" && ARTICLE_BEFORE_BLANK.test(question.stem))
      add("article", 'un articolo subito prima dello spazio suggerisce la risposta: riformula ("detto ____")');
    if (blanks !== 1)
      add(
        "blank",
        `il testo di una domanda di completamento deve contenere uno spazio "${GAP_BLANK}" (ne ha ${blanks})`,
      );
    const accepted = question.accepted ?? [];
    if (!Array.isArray(accepted) || !accepted.length || accepted.some((a) => typeof a !== "string" || !a.trim())) {
      add("accepted", "mancano le risposte accettate");
    } else {
      // Every accepted form must fit the sheet's boxes, first of all the one the summary says to write on it.
      const sheet = sheetFormOf(accepted).trim();
      const long = accepted.filter((a) => a.trim().length > gapBoxes);
      if (long.length)
        add(
          "accepted-length",
          long.some((a) => a.trim() === sheet)
            ? `la risposta da scrivere sul foglio "${sheet}" non entra nelle ${gapBoxes} caselle`
            : `risposta accettata più lunga delle ${gapBoxes} caselle del foglio: ${long.map((a) => `"${a}"`).join(", ")}`,
        );
      const words = accepted.filter((a) => isNumberWord(a));
      if (words.length)
        add("number-word", `numeri in lettere tra le risposte accettate (il foglio vuole cifre): ${words.join(", ")}`);
      const bad = accepted.filter((a) => NUMBER_LIKE.test(a) && !readsAsNumber(a));
      if (bad.length)
        add("numeric", `risposta numerica che non si legge come numero: ${bad.map((a) => `"${a}"`).join(", ")}`);
      // A question with a unit of measure or a tolerance has a numeric key (number words may be listed too).
      if ((question.measure != null || question.tolerance != null) && !accepted.some(readsAsNumber)) {
        add("numeric", "ha unità di misura o tolleranza ma nessuna risposta accettata è un numero");
      }
    }
    if (
      question.tolerance != null &&
      (typeof question.tolerance !== "number" || !Number.isFinite(question.tolerance) || question.tolerance < 0)
    ) {
      add("tolerance", "la tolleranza deve essere un numero non negativo");
    }
    if (question.measure != null && (typeof question.measure !== "string" || !question.measure.trim()))
      add("measure", "unità di misura vuota");
    if (Array.isArray(accepted) && accepted.every((a) => typeof a === "string")) {
      for (const message of numericKeyIssues({ accepted, measure: question.measure, tolerance: question.tolerance }))
        add("near-miss", message);
    }
    if (question.options?.length || question.correct != null)
      add("gap-fields", "una domanda di completamento non ha opzioni");
  } else {
    add("type", 'tipo non valido: usa "mc" o "gap"');
  }
  return out;
}

/** A tolerance wider than this share of the key would accept a different answer (checked by bank:check). */
export const MAX_TOLERANCE_SHARE = 0.1;

/**
 * A numeric key against the answers a cheat would try (gap-spellings.ts): none may grade right, and the
 * tolerance stays within MAX_TOLERANCE_SHARE of the key (a key of 0 takes none).
 */
function numericKeyIssues(key: { accepted: string[]; measure?: string | null; tolerance?: number | null }): string[] {
  const form = numericKeyForm(key);
  if (!form) return [];
  const out: string[] = [];
  const value = form.fraction ?? parseGapNumber(form.text)?.value;
  const tolerance = typeof key.tolerance === "number" && key.tolerance > 0 ? key.tolerance : 0;
  if (value !== undefined && tolerance > MAX_TOLERANCE_SHARE * Math.abs(value))
    out.push(`tolleranza ${tolerance} oltre il ${MAX_TOLERANCE_SHARE * 100}% della chiave ${form.text}`);
  const passes = nearMisses(key).filter((m) => gradeGapAnswer(m.typed, key).correct);
  if (passes.length)
    out.push(`risposte sbagliate valutate giuste: ${passes.map((m) => `"${m.typed}" (${m.why})`).join(", ")}`);
  return out;
}

/** Unit rules of one question against its subject and topic (row rules for the semestre filtro subjects). */
export function questionUnitIssues(
  question: BankQuestion,
  subjectId: number,
  topic: BankTopic | undefined,
  units: readonly BankUnit[],
): BankIssue[] {
  const out: BankIssue[] = [];
  const add = (code: string, message: string) =>
    out.push({
      key: `${code}:${question.id}`,
      subjectId,
      questionId: question.id,
      message: `${q(question.id)}: ${message}`,
    });
  if (!UNIT_SUBJECT_IDS.includes(subjectId)) {
    if (question.unit != null) add("unit-none", "Matematica e Ragionamento Logico non hanno unità del syllabus");
    return out;
  }
  if (question.legacy) {
    if (question.unit != null) add("unit-legacy", "una domanda del vecchio test (legacy) non ha unità");
    if (topic && !topic.legacy)
      add("unit-topic", `è legacy ma il suo argomento ${topic.id} appartiene all'unità ${topic.unit ?? "?"}`);
    return out;
  }
  if (question.unit == null) {
    add("unit-missing", 'manca l\'unità del syllabus (oppure "legacy": true per il vecchio test)');
    return out;
  }
  if (!units.some((u) => u.number === question.unit))
    add("unit-unknown", `unità ${question.unit} inesistente per questa materia`);
  if (topic?.legacy) add("unit-topic", `il suo argomento ${topic.id} è legacy: la domanda deve essere "legacy": true`);
  else if (topic && topic.unit != null && topic.unit !== question.unit)
    add("unit-topic", `unità ${question.unit} diversa da quella del suo argomento ${topic.id} (unità ${topic.unit})`);
  return out;
}

/** Every problem of a bank (all subjects together: ids and stems must be unique across subjects). */
export function checkBank(files: readonly BankFile[], options: CheckOptions = {}): BankIssue[] {
  const out: BankIssue[] = [];
  const questionIds = new Map<number, number>();
  const topicIds = new Map<number, number>();
  const stems = new Map<string, number>();
  for (const file of files) {
    const sid = file.subject?.id;
    const add = (key: string, message: string, questionId?: number) =>
      out.push({ key, subjectId: sid, questionId, message });
    if (!Number.isInteger(sid) || !file.subject?.name) {
      add(`subject:${sid}`, "materia senza id o nome");
      continue;
    }
    const units = file.units ?? [];
    const isUnitSubject = UNIT_SUBJECT_IDS.includes(sid);
    // Units: as SYLLABUS.md lists them
    if (isUnitSubject) {
      if (!units.length) add(`units:${sid}`, `${file.subject.name}: mancano le unità del syllabus ("units")`);
      const expected = options.syllabus?.get(sid);
      if (expected) {
        const same =
          expected.length === units.length &&
          expected.every(
            (e, i) => units[i]?.number === e.number && units[i]?.title === e.title && units[i]?.credits === e.credits,
          );
        if (!same)
          add(
            `units-syllabus:${sid}`,
            `${file.subject.name}: le unità non coincidono con SYLLABUS.md (numero, titolo e crediti)`,
          );
      }
    } else if (units.length) {
      add(`units:${sid}`, `${file.subject.name}: non è una materia del semestre filtro e non ha unità`);
    }
    // Topics
    const topics = new Map<number, BankTopic>();
    for (const t of file.topics ?? []) {
      if (topicIds.has(t.id)) add(`topic-dup:${t.id}`, `argomento ${t.id} ripetuto`);
      topicIds.set(t.id, sid);
      topics.set(t.id, t);
      if (options.idRanges && (Math.floor(t.id / 100) !== sid || t.id % 100 === 0))
        add(`topic-range:${t.id}`, `argomento ${t.id}: l'id deve essere ${sid * 100 + 1}-${sid * 100 + 99}`);
      if (t.parent != null && !(file.topics ?? []).some((p) => p.id === t.parent))
        add(`topic-parent:${t.id}`, `argomento ${t.id}: l'argomento padre ${t.parent} non esiste`);
      if (isUnitSubject) {
        if (t.legacy && t.unit != null) add(`topic-unit:${t.id}`, `argomento ${t.id}: legacy e con unità insieme`);
        else if (!t.legacy && t.unit == null)
          add(`topic-unit:${t.id}`, `argomento ${t.id} (${t.name}): manca l'unità (oppure "legacy": true)`);
        else if (t.unit != null && !units.some((u) => u.number === t.unit))
          add(`topic-unit:${t.id}`, `argomento ${t.id}: unità ${t.unit} inesistente`);
      } else if (t.unit != null) {
        add(`topic-unit:${t.id}`, `argomento ${t.id}: la materia non ha unità`);
      }
    }
    // Questions
    const perTopic = new Map<number, number>();
    const perUnit = new Map<number, number>();
    const positions = [0, 0, 0, 0, 0];
    let mcCount = 0;
    for (const question of file.questions ?? []) {
      out.push(...questionIssues(question, sid, options.gapBoxes));
      if (questionIds.has(question.id)) add(`id-dup:${question.id}`, `${q(question.id)}: id ripetuto`, question.id);
      questionIds.set(question.id, sid);
      if (options.idRanges && (Math.floor(question.id / 1000) !== sid || question.id % 1000 === 0)) {
        add(
          `id-range:${question.id}`,
          `${q(question.id)}: l'id deve essere ${sid * 1000 + 1}-${sid * 1000 + 999}`,
          question.id,
        );
      }
      if (typeof question.stem === "string" && question.stem.trim()) {
        const key = stemKey(question.stem);
        const twin = stems.get(key);
        if (twin !== undefined)
          add(`stem-dup:${question.id}`, `${q(question.id)}: stesso testo della domanda ${twin}`, question.id);
        else stems.set(key, question.id);
      }
      const topic = question.topic != null ? topics.get(question.topic) : undefined;
      if (question.topic != null && !topic)
        add(
          `topic-missing:${question.id}`,
          `${q(question.id)}: argomento ${question.topic} inesistente in ${file.subject.name}`,
          question.id,
        );
      if (question.topic != null) perTopic.set(question.topic, (perTopic.get(question.topic) ?? 0) + 1);
      out.push(...questionUnitIssues(question, sid, topic, units));
      if (isUnitSubject && !question.legacy && question.unit != null)
        perUnit.set(question.unit, (perUnit.get(question.unit) ?? 0) + 1);
      if (
        question.type === "mc" &&
        Number.isInteger(question.correct) &&
        question.correct! >= 0 &&
        question.correct! < MC_OPTIONS
      ) {
        positions[question.correct!]!++;
        mcCount++;
      }
    }
    for (const t of topics.values()) {
      const n = perTopic.get(t.id) ?? 0;
      if (n < MIN_PER_TOPIC)
        add(
          `topic-min:${t.id}`,
          `${file.subject.name}, argomento ${t.id} (${t.name}): ${n} domande, ne servono almeno ${MIN_PER_TOPIC}`,
        );
    }
    if (isUnitSubject) {
      for (const u of units) {
        const n = perUnit.get(u.number) ?? 0;
        if (n < MIN_PER_UNIT)
          add(
            `unit-min:${sid}:${u.number}`,
            `${file.subject.name}, unità ${u.number} (${u.title}): ${n} domande, ne servono almeno ${MIN_PER_UNIT}`,
          );
      }
    }
    if (mcCount >= POSITION_SHARE.from) {
      positions.forEach((n, i) => {
        const share = n / mcCount;
        if (share < POSITION_SHARE.min || share > POSITION_SHARE.max) {
          add(
            `position:${sid}:${i}`,
            `${file.subject.name}: la risposta corretta è in posizione ${"ABCDE"[i]} nel ${Math.round(share * 100)} % delle domande a scelta multipla (ammesso 15-25 %)`,
          );
        }
      });
    }
  }
  return out;
}

/** Units per subject read from SYLLABUS.md ("## Title (subject N, ...)" then "| n | title | CFU | ..." rows). */
export function parseSyllabus(markdown: string, year?: string): Map<number, BankUnit[]> {
  // SYLLABUS.md holds one section per syllabus: 2025/26 first (no heading of its own), then "# 2026/27 …".
  const sections = markdown.split(/^# (?=\d{4}\/\d{2}\b)/m);
  const section = year ? (sections.find((s) => s.startsWith(year)) ?? "") : sections[0]!;
  const out = new Map<number, BankUnit[]>();
  let subject: number | null = null;
  for (const line of section.split("\n")) {
    const heading = /^##\s.*\(subject (\d+)/.exec(line);
    if (heading) {
      subject = Number(heading[1]);
      out.set(subject, []);
      continue;
    }
    if (/^##\s/.test(line)) subject = null;
    const row = /^\|\s*(\d+)\s*\|\s*([^|]+?)\s*\|\s*([\d.]+)\s*\|/.exec(line);
    if (subject !== null && row)
      out.get(subject)!.push({ number: Number(row[1]), title: row[2]!, credits: Number(row[3]) });
  }
  return out;
}

/** The coverage table: per subject, per unit and topic, mc / gap / total (text, for the terminal and notes). */
export function bankTable(files: readonly BankFile[]): string {
  const lines: string[] = [];
  const pad = (s: string | number, n: number) => String(s).padEnd(n);
  const num = (s: string | number, n: number) => String(s).padStart(n);
  const row = (label: string, qs: readonly BankQuestion[], extra = "") =>
    lines.push(
      `${pad(label, 66)}${num(qs.filter((x) => x.type === "mc").length, 5)}${num(qs.filter((x) => x.type === "gap").length, 5)}${num(qs.length, 6)}${extra}`,
    );
  lines.push(`${pad("Materia / unità / argomento", 66)}${num("mc", 5)}${num("gap", 5)}${num("tot", 6)}   target/31`);
  for (const file of files) {
    const qs = file.questions ?? [];
    row(`${file.subject.name} (${file.subject.id})`, qs);
    const topicRows = (topics: readonly BankTopic[]) => {
      for (const t of topics)
        row(
          `    ${t.id} ${t.name}`.slice(0, 64),
          qs.filter((x) => x.topic === t.id),
        );
    };
    const units = file.units ?? [];
    const total = units.reduce((s, u) => s + u.credits, 0);
    for (const u of units) {
      row(
        `  U${u.number} ${u.title}`.slice(0, 64),
        qs.filter((x) => !x.legacy && x.unit === u.number),
        `   ${((u.credits / total) * 31).toFixed(1)}`,
      );
      topicRows((file.topics ?? []).filter((t) => t.unit === u.number));
    }
    const rest = (file.topics ?? []).filter((t) => t.unit == null || !units.some((u) => u.number === t.unit));
    if (units.length && rest.length) {
      row(
        "  legacy (vecchio test)",
        qs.filter((x) => x.legacy),
      );
    }
    topicRows(rest);
  }
  const all = files.flatMap((f) => f.questions ?? []);
  row("Totale", all);
  return lines.join("\n");
}
