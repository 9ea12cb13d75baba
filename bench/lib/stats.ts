export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export const ms = (n: number) => `${n.toFixed(2)} ms`;
export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** Times `count` sequential requests (after a warm-up) and returns each duration in ms. */
export async function timeRequests(count: number, send: () => Promise<Response>, warmup = 20): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await (await send()).arrayBuffer();
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    const response = await send();
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`request failed: ${response.status}`);
    out.push(performance.now() - start);
  }
  return out;
}
