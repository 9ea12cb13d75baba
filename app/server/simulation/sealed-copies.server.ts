// Sealed prefetch (issue 31), the server half: each subject's key is derived, never stored, with HKDF-SHA-256 from the
// sealed copies' key of the master secret (app/server/keys.server.ts; SESSION_SECRET is in the env of both the Worker
// and the rooms), per (simulation, subject index) and bound to the subject's questions, their ids and their content
// (subjectBinding), so that a copy sealed for another plan (a simulation deleted and made again under the same id, a
// later save's draw) or before one of its questions was edited (a typo fixed, an answer key corrected, in the lobby)
// does not open: the runner then asks the server as before. The Worker seals (GET /api/simulations/{id}); the room
// derives the same key and releases it over the socket at each candidate's own opening (workers/simulation-room.ts).
import { SEALED_IV_BYTES, type SealedSubject, toBase64 } from "~/lib/sealed-subject";
import { sealedCopyBaseKey } from "../keys.server";

import type { SimulationHead } from "./door.server";
import { type PlanSubject, candidateSubjectQuestions, openSubjects } from "./plan.server";
const SALT = new TextEncoder().encode("unicum/sealed-subject/v1");
const AES_KEY_BITS = 256;

/** What of a question a candidate sees or is graded on: a change to any of it changes its subject's key. */
export type BoundQuestion = {
  id: number;
  type: string;
  stem: string;
  options?: string[] | null;
  topicId?: number | null;
  difficulty?: number | null;
  correctIndex?: number | null;
  acceptedAnswers?: string[] | null;
  measure?: string | null;
  tolerance?: number | null;
};

/** Bindings by question list: a plan's lists are kept per isolate (simulationPlan), so each is hashed once. */
const bindings = new WeakMap<readonly BoundQuestion[], Promise<string>>();

/**
 * A subject's binding: its question ids in plan order and a SHA-256 of what candidates see of them and how they are
 * graded. The Worker (sealing) and the room (releasing the key) compute it from the same plan rows.
 */
export function subjectBinding(questions: readonly BoundQuestion[]): Promise<string> {
  let binding = bindings.get(questions);
  if (!binding) {
    const content = JSON.stringify(
      questions.map((q) => [
        q.id,
        q.type,
        q.stem,
        q.options ?? null,
        q.topicId ?? null,
        q.difficulty ?? null,
        q.correctIndex ?? null,
        q.acceptedAnswers ?? null,
        q.measure ?? null,
        q.tolerance ?? null,
      ]),
    );
    binding = crypto.subtle
      .digest("SHA-256", new TextEncoder().encode(content))
      .then((hash) => `${questions.map((q) => q.id).join(",")}\n${toBase64(new Uint8Array(hash))}`);
    binding.catch(() => bindings.delete(questions));
    bindings.set(questions, binding);
  }
  return binding;
}

/** What a subject's key is bound to: the simulation, the subject's place in the flow, its questions (subjectBinding). */
function keyInfo(simulationId: string, subjectIndex: number, binding: string) {
  return new TextEncoder().encode(`${simulationId}\n${subjectIndex}\n${binding}`);
}

/** The raw 256-bit key of one subject of one simulation's plan. */
export async function subjectKeyBytes(
  secret: string,
  simulationId: string,
  subjectIndex: number,
  binding: string,
): Promise<Uint8Array<ArrayBuffer>> {
  const bits = await crypto.subtle.deriveBits(
    { name: "HKDF", hash: "SHA-256", salt: SALT, info: keyInfo(simulationId, subjectIndex, binding) },
    await sealedCopyBaseKey(secret),
    AES_KEY_BITS,
  );
  return new Uint8Array(bits);
}

/** The same key as base64, what the room sends. */
export async function subjectKeyText(
  secret: string,
  simulationId: string,
  subjectIndex: number,
  binding: string,
): Promise<string> {
  return toBase64(await subjectKeyBytes(secret, simulationId, subjectIndex, binding));
}

/** Encryption keys per isolate, by what they are bound to (a national day has a handful). */
const sealingKeys = new Map<string, Promise<CryptoKey>>();
const SEALING_KEYS_KEPT = 64;

function sealingKey(secret: string, simulationId: string, subjectIndex: number, binding: string) {
  const id = `${simulationId}\n${subjectIndex}\n${binding}`;
  let key = sealingKeys.get(id);
  if (!key) {
    key = subjectKeyBytes(secret, simulationId, subjectIndex, binding).then((raw) =>
      crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt"]),
    );
    key.catch(() => sealingKeys.delete(id));
    sealingKeys.set(id, key);
    if (sealingKeys.size > SEALING_KEYS_KEPT) sealingKeys.delete(sealingKeys.keys().next().value!);
  }
  return key;
}

/**
 * One subject's sealed copy of `payload` (exactly what the open subject would return): AES-GCM-256 under the subject's
 * key, a fresh random IV each time.
 */
export async function sealSubject(
  secret: string,
  simulationId: string,
  subjectIndex: number,
  binding: string,
  payload: unknown,
): Promise<SealedSubject> {
  const key = await sealingKey(secret, simulationId, subjectIndex, binding);
  const iv = crypto.getRandomValues(new Uint8Array(new ArrayBuffer(SEALED_IV_BYTES)));
  const data = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv },
    key,
    new TextEncoder().encode(JSON.stringify(payload)),
  );
  return { subject: subjectIndex, iv: toBase64(iv), data: toBase64(new Uint8Array(data)) };
}
/**
 * Sealed prefetch (issue 31): for each subject not yet open for the candidate at `now`, a sealed copy of exactly what
 * the open subject will return (their order), which the room's key opens at their own opening. Before Avvia too (the
 * lobby): the plan is the last save's, and the key is bound to its questions and their content, so a copy sealed before
 * a later save or an edit of one of them does not open (the runner then asks the server); a lobby loaded before Avvia
 * needs no call at the start.
 */
export async function sealedSubjectsFor(
  secret: string | undefined,
  config: Pick<SimulationHead, "id" | "started" | "startTime"> & { subjects: PlanSubject[] },
  now: number,
  candidate: { userId: number; extraPct: number },
): Promise<SealedSubject[]> {
  if (!secret) return [];
  const open = openSubjects(config, now, candidate.extraPct);
  return Promise.all(
    config.subjects.flatMap((s, i) =>
      open[i] || !s.questions.length
        ? []
        : [
            subjectBinding(s.questions).then((binding) =>
              sealSubject(secret, config.id, i, binding, candidateSubjectQuestions(config, i, candidate.userId)),
            ),
          ],
    ),
  );
}
