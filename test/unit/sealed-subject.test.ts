// Sealed prefetch (issue 31): a copy sealed on the server opens with the key the room derives for the same subject of
// the same plan, and with nothing else (another subject, another plan, the same plan after an edit of one of its
// questions, another secret, a tampered copy); a fresh IV each time.
import { describe, expect, it } from "vitest";
import { fromBase64, openSealedSubject, toBase64 } from "~/lib/sealed-subject";
import {
  type BoundQuestion,
  sealSubject,
  subjectBinding,
  subjectKeyText,
} from "../../app/server/simulation/sealed-copies.server";

const SECRET = "a-test-secret-of-at-least-32-characters";
const OTHER_SECRET = "another-test-secret-of-32-characters-x";
/** The plan's rows of the subject (plan order), what both the Worker and the room bind the key to. */
const ROWS: BoundQuestion[] = [
  { id: 2001, type: "mc", stem: "Quale è un gas nobile?", options: ["Ne", "Na", "N", "Ni"], correctIndex: 0 },
  { id: 2006, type: "mc", stem: "«Virgolette» e accenti: è così?", options: ["Sì", "No"], correctIndex: 0 },
  {
    id: 2009,
    type: "gap",
    stem: "Completa: l'acqua bolle a ___ °C.",
    acceptedAnswers: ["100"],
    measure: "temperature",
  },
];
const IDS = await subjectBinding(ROWS);
const QUESTIONS = [
  { id: 2009, type: "gap", text: "Completa: l'acqua bolle a ___ °C.", topic: 3, difficulty: 2 },
  { id: 2001, type: "mc", text: "Quale è un gas nobile?", topic: 1, difficulty: 1, options: ["Ne", "Na", "N", "Ni"] },
  { id: 2006, type: "mc", text: "«Virgolette» e accenti: è così?", topic: null, difficulty: 3, options: ["Sì", "No"] },
];

describe("sealed subjects", () => {
  it("open with the room's key to exactly what was sealed", async () => {
    const sealed = await sealSubject(SECRET, "sim-1", 1, IDS, QUESTIONS);
    expect(sealed.subject).toBe(1);
    const key = await subjectKeyText(SECRET, "sim-1", 1, IDS);
    expect(fromBase64(key)).toHaveLength(32); // AES-256
    expect(await openSealedSubject(key, sealed)).toEqual(QUESTIONS);
    // Nothing of it in clear.
    const text = JSON.stringify(sealed);
    for (const q of QUESTIONS) expect(text).not.toContain(q.text.slice(0, 12));
  });

  it("use a fresh IV each time", async () => {
    const a = await sealSubject(SECRET, "sim-1", 1, IDS, QUESTIONS);
    const b = await sealSubject(SECRET, "sim-1", 1, IDS, QUESTIONS);
    expect(a.iv).not.toBe(b.iv);
    expect(a.data).not.toBe(b.data);
  });

  it("do not open with another subject's, plan's, simulation's or secret's key, nor once tampered with", async () => {
    const sealed = await sealSubject(SECRET, "sim-1", 1, IDS, QUESTIONS);
    for (const key of [
      await subjectKeyText(SECRET, "sim-1", 0, IDS),
      await subjectKeyText(SECRET, "sim-1", 1, await subjectBinding([...ROWS, { id: 2014, type: "mc", stem: "?" }])),
      await subjectKeyText(SECRET, "sim-2", 1, IDS),
      await subjectKeyText(OTHER_SECRET, "sim-1", 1, IDS),
    ])
      expect(await openSealedSubject(key, sealed)).toBeNull();
    const key = await subjectKeyText(SECRET, "sim-1", 1, IDS);
    const bytes = fromBase64(sealed.data);
    bytes[5] = bytes[5]! ^ 1;
    expect(await openSealedSubject(key, { ...sealed, data: toBase64(bytes) })).toBeNull();
    expect(await openSealedSubject(key, { ...sealed, iv: toBase64(new Uint8Array(12)) })).toBeNull();
    expect(await openSealedSubject("not base64!", sealed)).toBeNull();
  });

  it("are bound to the questions' content: an edit of what candidates see or are graded on changes the key", async () => {
    const sealed = await sealSubject(SECRET, "sim-1", 1, IDS, QUESTIONS);
    const edited = (i: number, change: Partial<BoundQuestion>) =>
      ROWS.map((q, k) => (k === i ? { ...q, ...change } : q));
    // The same content in new objects (another isolate's copy of the plan) binds the same key.
    expect(await subjectBinding(ROWS.map((q) => ({ ...q })))).toBe(IDS);
    for (const rows of [
      edited(0, { stem: "Quale è un gas nobile? (corretto)" }),
      edited(0, { options: ["Ne", "Na", "N", "Ar"] }),
      edited(1, { correctIndex: 1 }),
      edited(2, { acceptedAnswers: ["100", "373"] }),
      edited(2, { measure: null }),
      edited(2, { tolerance: 0.5 }),
      edited(0, { type: "gap" }),
      edited(1, { topicId: 7 }),
      edited(1, { difficulty: 5 }),
      [ROWS[1]!, ROWS[0]!, ROWS[2]!],
    ]) {
      const binding = await subjectBinding(rows);
      expect(binding).not.toBe(IDS);
      expect(await openSealedSubject(await subjectKeyText(SECRET, "sim-1", 1, binding), sealed)).toBeNull();
    }
  });

  it("round-trips base64 of any length", () => {
    for (const n of [0, 1, 2, 3, 100, 70_000]) {
      const bytes = new Uint8Array(n).map((_, i) => (i * 7919) % 256);
      expect(fromBase64(toBase64(bytes))).toEqual(bytes);
    }
  });
});
