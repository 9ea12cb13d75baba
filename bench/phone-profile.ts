// One page's main-thread work under the phone profile, first or repeat visit (bench/phone.ts), as a V8 CPU profile
// aggregated by script and by function: what the time to a usable page is spent on.
// Usage: node bench/phone-profile.ts http://localhost:PORT [--repeat] [path|quiz]

import { diagnosePhonePage } from "./lib/phone-diagnostic.ts";

await diagnosePhonePage("bench/phone-profile.ts", {
  async before({ cdp }) {
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
    await cdp.send("Profiler.start");
  },
  async after({ path, repeat, page, cdp }) {
    const { profile } = await cdp.send("Profiler.stop");
    const marks = await page.evaluate(() => {
      const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
      return { responseEnd: nav.responseEnd, dcl: nav.domContentLoadedEventEnd, now: performance.now() };
    });
    console.log(path, repeat ? "repeat" : "first", JSON.stringify(marks));
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const self = new Map<number, number>();
    const deltas = profile.timeDeltas ?? [];
    for (const [i, id] of (profile.samples ?? []).entries())
      self.set(id, (self.get(id) ?? 0) + (deltas[i + 1] ?? 0) / 1000);
    const byScript = new Map<string, number>();
    const byFn = new Map<string, number>();
    for (const [id, t] of self) {
      const n = byId.get(id)!;
      const url = n.callFrame.url.replace(/^.*\//, "") || n.callFrame.functionName || "(native)";
      byScript.set(url, (byScript.get(url) ?? 0) + t);
      const fn = `${n.callFrame.functionName || "(anon)"} ${url}:${n.callFrame.lineNumber}:${n.callFrame.columnNumber}`;
      byFn.set(fn, (byFn.get(fn) ?? 0) + t);
    }
    const top = (m: Map<string, number>, k: number) =>
      [...m.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, k)
        .map(([what, t]) => ({ what, ms: Math.round(t) }));
    // Inclusive time: each sample counted once for every distinct function on its stack.
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const inclusive = new Map<string, number>();
    const nameOf = (id: number) => {
      const f = byId.get(id)!.callFrame;
      return `${f.functionName || "(anon)"} ${f.url.replace(/^.*\//, "")}:${f.lineNumber}:${f.columnNumber}`;
    };
    for (const [id, t] of self) {
      const seen = new Set<string>();
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) seen.add(nameOf(at));
      for (const name of seen) inclusive.set(name, (inclusive.get(name) ?? 0) + t);
    }
    console.table(top(byScript, 25));
    console.table(top(byFn, 30));
    console.table(top(inclusive, 40));
  },
});
