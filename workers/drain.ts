// Local servers (`react-router dev`, `vite preview`) hand requests to workerd through the Vite plugin, and that hop
// answers 500 "fetch failed" when the Worker responds without reading a body it was sent (cloudflare/workers-sdk
// issues 13013, 13065, 13189). Deployed Workers are not affected, but every early refusal (401, 403, 405, 413, 415,
// 429) hits it locally. So the entry keeps a tee of the body and reads what the app left unread before answering.

/** Past this many bytes the rest of an unread body is cancelled, not read: a huge body cannot make us read it all. */
export const MAX_DRAINED_BYTES = 21 * 1024 * 1024; // the largest body the app accepts (imports: 20 MB) and a margin

/** A second reader of the request's body, taken before the app sees the request; null when there is no body. */
export function spareBody(request: Request): ReadableStream<Uint8Array> | null {
  return request.body && !request.bodyUsed ? request.clone().body : null;
}

/** Reads the spare copy to its end (cheap when the app read the body: the tee has buffered it), or cancels it. */
export async function drain(spare: ReadableStream<Uint8Array> | null, limit = MAX_DRAINED_BYTES): Promise<void> {
  if (!spare) return;
  const reader = spare.getReader();
  let read = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
      if (read > limit) {
        await reader.cancel();
        return;
      }
    }
  } catch {
    // The client went away mid-body: nothing left to protect.
  }
}
