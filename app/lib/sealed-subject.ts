// Sealed prefetch (issue 31), the shared half: a subject's questions travel before it opens, encrypted (AES-GCM-256,
// WebCrypto), and the room releases the key over the socket at the candidate's own opening. This module is what both
// ends need: the shapes, base64, and opening a sealed copy with a released key. Deriving keys and sealing happen on the
// server only (app/server/simulation/sealed-copies.server.ts), from a secret that never leaves it.
import { z } from "zod";

/** One subject's sealed copy: `subject` is its index in the flow; `iv` and `data` are base64. */
export const SealedSubject = z.object({
  subject: z.number().int().min(0),
  iv: z.string(),
  data: z.string(),
});
export type SealedSubject = z.infer<typeof SealedSubject>;

/** Exactly what an open subject's `questions` holds in GET /api/simulations/{id} (never a key). */
export const SealedQuestion = z.object({
  id: z.number().int(),
  type: z.enum(["mc", "gap"]),
  text: z.string(),
  topic: z.number().int().nullable(),
  difficulty: z.number(),
  options: z.array(z.string()).optional(),
});
export const SealedQuestions = z.array(SealedQuestion);
export type SealedQuestion = z.infer<typeof SealedQuestion>;

/** AES-GCM's IV length (bytes): 96 bits, the size the algorithm is made for. */
export const SEALED_IV_BYTES = 12;

export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const out = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/**
 * Opens a sealed copy with the key the room released (base64 of the raw 256-bit key): the subject's questions, or null
 * when anything is wrong (no WebCrypto, a key of another subject or plan, a tampered copy, an unexpected shape). The
 * caller then falls back to asking the server for the open subject.
 */
export async function openSealedSubject(key: string, sealed: SealedSubject): Promise<SealedQuestion[] | null> {
  try {
    const subtle = globalThis.crypto?.subtle;
    if (!subtle) return null;
    const aes = await subtle.importKey("raw", fromBase64(key), "AES-GCM", false, ["decrypt"]);
    const plain = await subtle.decrypt({ name: "AES-GCM", iv: fromBase64(sealed.iv) }, aes, fromBase64(sealed.data));
    const parsed = SealedQuestions.safeParse(JSON.parse(new TextDecoder().decode(plain)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
