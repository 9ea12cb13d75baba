// Drawing the questions of a test the way the real exam weighs them (issue 18): each syllabus unit gets a
// share of the questions proportional to its credits (largest-remainder rounding), the mc / gap split is
// exact (15 + 16 in a semestre filtro paper), nothing repeats, and a semestre filtro draw never takes a
// legacy question (older admission test only). When a unit runs short, its missing questions come from the
// nearest units (by syllabus number) and the result says so, for the admin.
// Pure logic: the server loads the candidates and the units and calls drawQuestions.

export type DrawCandidate = { id: number; type: "mc" | "gap"; unit: number | null; legacy: boolean };
export type DrawUnit = { number: number; credits: number };
export type QuestionMix = { mc: number; gap: number };

export type DrawRequest = {
  /** Every active question of the subject (or of the chosen topic). */
  candidates: readonly DrawCandidate[];
  /** How many to draw (ignored when `mix` is given: mix.mc + mix.gap). */
  count: number;
  /** Exact split by type; absent: any type. */
  mix?: QuestionMix;
  /** The subject's syllabus units; empty: no weighting (plain random draw). */
  units: readonly DrawUnit[];
  /** A semestre filtro draw never takes legacy questions; an older-format draw may. */
  excludeLegacy: boolean;
  /** Never make up for a missing type with the other one. */
  strictMix?: boolean;
  random?: () => number;
};

export type UnitShare = { unit: number; target: number; drawn: number };
export type Shortfall = {
  unit: number;
  type: "mc" | "gap" | "any";
  missing: number;
  movedTo: { unit: number | null; count: number }[];
};

export type DrawResult = {
  /** mc first, then gap (the paper's order), each in random order. */
  ids: number[];
  /** Per unit: how many the weights ask for and how many were drawn. */
  shares: UnitShare[];
  shortfalls: Shortfall[];
  /** False when the pool could not give `count` questions; `ids` holds what it could. */
  complete: boolean;
  /** False when the pool had too few questions of one type for the exact mix (then the rest is of the other type). */
  mixMet: boolean;
};

/** Largest-remainder apportionment of `total` by `weights`; ties of the remainder broken at random. */
export function apportion(total: number, weights: readonly number[], random: () => number = Math.random): number[] {
  const sum = weights.reduce((s, w) => s + Math.max(0, w), 0);
  if (total <= 0 || sum <= 0) return weights.map(() => 0);
  const exact = weights.map((w) => (Math.max(0, w) / sum) * total);
  const out = exact.map(Math.floor);
  let left = total - out.reduce((s, n) => s + n, 0);
  const order = exact
    .map((x, i) => ({ i, rem: x - Math.floor(x), tie: random() }))
    // Remainders equal up to float noise count as ties.
    .sort((a, b) => (Math.abs(b.rem - a.rem) > 1e-9 ? b.rem - a.rem : a.tie - b.tie));
  for (const { i } of order) {
    if (left <= 0) break;
    out[i]!++;
    left--;
  }
  return out;
}

/** The mc / gap split of a test of `count` questions in the template's proportion (15 of 31 are mc). */
export function mixFor(count: number, template: QuestionMix): QuestionMix {
  const total = template.mc + template.gap;
  if (count === total) return { ...template };
  const mc = Math.round((count * template.mc) / total);
  return { mc, gap: count - mc };
}

function shuffle<T>(list: T[], random: () => number): T[] {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
  return list;
}

/** The targets per unit of a draw of `count` questions (expected values, before rounding). */
export function unitTargets(count: number, units: readonly DrawUnit[]): { unit: number; target: number }[] {
  const credits = units.reduce((s, u) => s + u.credits, 0);
  return units.map((u) => ({ unit: u.number, target: credits > 0 ? (u.credits / credits) * count : 0 }));
}

export function drawQuestions(request: DrawRequest): DrawResult {
  const random = request.random ?? Math.random;
  const candidates = request.candidates.filter((c) => !(request.excludeLegacy && c.legacy));
  const types: ("mc" | "gap")[] = ["mc", "gap"];
  const typeCounts = request.mix ? { mc: request.mix.mc, gap: request.mix.gap } : null;
  const count = typeCounts ? typeCounts.mc + typeCounts.gap : request.count;
  const units = [...request.units].sort((a, b) => a.number - b.number);

  // Buckets of still available questions: by unit (null = outside every unit) and type.
  const bucket = new Map<string, DrawCandidate[]>();
  const keyOf = (unit: number | null, type: "mc" | "gap" | "any") => `${unit ?? "-"}:${type}`;
  const unitOf = (c: DrawCandidate) =>
    c.legacy || c.unit == null || !units.some((u) => u.number === c.unit) ? null : c.unit;
  for (const c of shuffle([...candidates], random)) {
    const k = keyOf(unitOf(c), typeCounts ? c.type : "any");
    (bucket.get(k) ?? bucket.set(k, []).get(k)!).push(c);
  }
  const take = (unit: number | null, type: "mc" | "gap" | "any", n: number): DrawCandidate[] => {
    const list = bucket.get(keyOf(unit, type)) ?? [];
    return list.splice(0, Math.min(n, list.length));
  };

  const picked: DrawCandidate[] = [];
  const drawnPerUnit = new Map<number, number>();
  const shortfalls: Shortfall[] = [];
  const quotas = units.length
    ? apportion(
        count,
        units.map((u) => u.credits),
        random,
      )
    : [];

  // The plan: per unit and type, how many.
  const plan: { unit: number | null; type: "mc" | "gap" | "any"; n: number }[] = [];
  if (!units.length) {
    if (typeCounts) for (const t of types) plan.push({ unit: null, type: t, n: typeCounts[t] });
    else plan.push({ unit: null, type: "any", n: count });
  } else if (typeCounts) {
    const mcPerUnit = apportion(typeCounts.mc, quotas, random);
    units.forEach((u, i) => {
      plan.push({ unit: u.number, type: "mc", n: mcPerUnit[i]! });
      plan.push({ unit: u.number, type: "gap", n: quotas[i]! - mcPerUnit[i]! });
    });
  } else {
    units.forEach((u, i) => {
      plan.push({ unit: u.number, type: "any", n: quotas[i]! });
    });
  }

  const record = (unit: number | null, got: DrawCandidate[]) => {
    picked.push(...got);
    if (unit != null) drawnPerUnit.set(unit, (drawnPerUnit.get(unit) ?? 0) + got.length);
  };
  const missing: { unit: number | null; type: "mc" | "gap" | "any"; n: number }[] = [];
  for (const p of plan) {
    const got = take(p.unit, p.type, p.n);
    record(p.unit, got);
    if (got.length < p.n) missing.push({ ...p, n: p.n - got.length });
  }
  // Shortfalls go to the nearest units of the same type (then to questions outside every unit).
  for (const m of missing) {
    const byDistance = units
      .map((u) => ({ unit: u.number as number | null, d: Math.abs(u.number - (m.unit ?? 0)), tie: random() }))
      .filter((x) => x.unit !== m.unit)
      .sort((a, b) => a.d - b.d || a.tie - b.tie);
    if (m.unit !== null) byDistance.push({ unit: null, d: Infinity, tie: 0 });
    let left = m.n;
    const movedTo: Shortfall["movedTo"] = [];
    for (const { unit } of byDistance) {
      if (left <= 0) break;
      const got = take(unit, m.type, left);
      if (!got.length) continue;
      record(unit, got);
      movedTo.push({ unit, count: got.length });
      left -= got.length;
    }
    if (m.unit !== null) shortfalls.push({ unit: m.unit, type: m.type, missing: m.n, movedTo });
  }

  // A pool without enough questions of one type: the rest of any type (the caller sees `mixMet`).
  const mixMet = picked.length === count;
  if (!mixMet && !request.strictMix) {
    const rest = shuffle([...bucket.values()].flat(), random).slice(0, count - picked.length);
    for (const c of rest) {
      const list = bucket.get(keyOf(unitOf(c), typeCounts ? c.type : "any"))!;
      list.splice(list.indexOf(c), 1);
      record(unitOf(c), [c]);
    }
  }

  const targets = unitTargets(count, units);
  const mc = shuffle(
    picked.filter((c) => c.type === "mc"),
    random,
  );
  const gap = shuffle(
    picked.filter((c) => c.type === "gap"),
    random,
  );
  const ids = typeCounts ? [...mc, ...gap].map((c) => c.id) : shuffle(picked, random).map((c) => c.id);
  return {
    ids,
    shares: targets.map((t) => ({ unit: t.unit, target: t.target, drawn: drawnPerUnit.get(t.unit) ?? 0 })),
    shortfalls,
    complete: ids.length === count,
    mixMet,
  };
}
