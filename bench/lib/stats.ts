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

export type Latency = { label: string; p50: number; p95: number };

/**
 * Server time of each [label, path] (sequential GETs, with the cookie when given) next to the static
 * asset /favicon.svg fetched in the same run; the asset comes first in the answer.
 */
export async function latencyAgainstAsset(
  baseUrl: string,
  count: number,
  endpoints: [label: string, path: string][],
  cookie?: string,
): Promise<Latency[]> {
  const measure = async (label: string, path: string, withCookie: boolean): Promise<Latency> => {
    const times = await timeRequests(count, () =>
      fetch(`${baseUrl}${path}`, { headers: withCookie && cookie ? { cookie } : {} }),
    );
    return { label, p50: percentile(times, 50), p95: percentile(times, 95) };
  };
  const results = [await measure("static asset /favicon.svg", "/favicon.svg", false)];
  for (const [label, path] of endpoints) results.push(await measure(label, path, true));
  return results;
}

/** The rows of a latency table: p50, p95 and p50 as a multiple of the asset's (the first result). */
export function latencyRows(results: Latency[], count: number) {
  const asset = results[0]!;
  return results.map((r) => ({
    what: r.label,
    requests: count,
    p50: ms(r.p50),
    p95: ms(r.p95),
    "p50 / asset p50": (r.p50 / asset.p50).toFixed(1) + "x",
  }));
}
