// One page's main thread under the phone profile (bench/phone.ts), first or repeat visit, as a Chromium trace summed
// by event: how long parsing, style and layout, script compilation and evaluation, and the tasks of hydration take
// before the page is usable. Usage: node bench/phone-trace.ts http://localhost:PORT [--repeat] [path|quiz]

import { diagnosePhonePage } from "./lib/phone-diagnostic.ts";

type TraceEvent = {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tid: number;
  pid: number;
  args?: { data?: { url?: string } };
};

const events: TraceEvent[] = [];
let done: Promise<unknown> = Promise.resolve();
await diagnosePhonePage("bench/phone-trace.ts", {
  async before({ cdp }) {
    cdp.on("Tracing.dataCollected", (e) => events.push(...(e.value as unknown as TraceEvent[])));
    done = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
    await cdp.send("Tracing.start", {
      transferMode: "ReportEvents",
      traceConfig: {
        includedCategories: ["devtools.timeline", "v8", "disabled-by-default-devtools.timeline", "blink"],
      },
    });
  },
  async after({ path, repeat, page, cdp, origin }) {
    const hydratedAt = await page.evaluate(
      () => (window as unknown as { __phone: { hydratedAt: number } }).__phone.hydratedAt,
    );
    await cdp.send("Tracing.end");
    await done;
    // The renderer's main thread: the one running ParseHTML.
    const parse = events.find(
      (e) =>
        e.name === "ParseHTML" &&
        ((e.args as { beginData?: { url?: string } } | undefined)?.beginData?.url ?? "").startsWith(origin),
    );
    const main = events.filter((e) => parse && e.pid === parse.pid && e.tid === parse.tid && e.ph === "X");
    // The document's time origin: its navigationStart mark on that thread, else the first parse.
    const nav =
      events.find((e) => e.name === "navigationStart" && e.pid === parse?.pid && e.tid === parse?.tid) ?? parse!;
    const until = nav.ts + hydratedAt * 1000;
    const sum = new Map<string, number>();
    for (const e of main) if (e.ts < until) sum.set(e.name, (sum.get(e.name) ?? 0) + (e.dur ?? 0) / 1000);
    const tasks = main.filter((e) => e.name === "RunTask" && e.ts < until);
    console.log(
      `${path} ${repeat ? "repeat" : "first"}: hydrated at ${Math.round(hydratedAt)} ms; main-thread tasks before it ${Math.round(tasks.reduce((s, e) => s + (e.dur ?? 0), 0) / 1000)} ms in ${tasks.length}`,
    );
    console.table(
      [...sum.entries()]
        .filter(([n]) => n !== "RunTask")
        .sort((a, b) => b[1] - a[1])
        .slice(0, 22)
        .map(([name, ms]) => ({ name, ms: Math.round(ms) })),
    );
    const scripts = new Map<string, number>();
    for (const e of main)
      if (
        (e.name === "EvaluateScript" ||
          e.name === "v8.compileModule" ||
          e.name === "v8.evaluateModule" ||
          e.name === "v8.compile") &&
        e.ts < until
      ) {
        const url =
          (e.args?.data?.url ?? (e.args as { fileName?: string })?.fileName ?? "").replace(/^.*\//, "") || "(inline)";
        scripts.set(`${e.name} ${url}`, (scripts.get(`${e.name} ${url}`) ?? 0) + (e.dur ?? 0) / 1000);
      }
    console.table(
      [...scripts.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 15)
        .map(([what, ms]) => ({ what, ms: Math.round(ms) })),
    );
    const long = tasks
      .filter((e) => (e.dur ?? 0) > 50_000)
      .map((e) => ({ at: Math.round((e.ts - nav.ts) / 1000), ms: Math.round((e.dur ?? 0) / 1000) }));
    console.log("tasks over 50 ms (start, length):", JSON.stringify(long));
    // Each task's time by what it ran: its direct children (events nested one level in it), the rest as "(task itself)".
    const byKind = new Map<string, number>();
    const sorted = main.filter((e) => e.ts < until).sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
    for (const task of sorted.filter((e) => e.name === "RunTask")) {
      const end = task.ts + (task.dur ?? 0);
      let covered = task.ts;
      let childTime = 0;
      for (const e of sorted) {
        if (e === task || e.ts < covered || e.ts >= end || e.name === "RunTask") continue;
        const name = e.name === "FunctionCall" || e.name === "v8.callFunction" ? "script (FunctionCall)" : e.name;
        byKind.set(name, (byKind.get(name) ?? 0) + (e.dur ?? 0) / 1000);
        childTime += e.dur ?? 0;
        covered = e.ts + (e.dur ?? 0);
      }
      byKind.set("(task itself)", (byKind.get("(task itself)") ?? 0) + ((task.dur ?? 0) - childTime) / 1000);
    }
    console.table(
      [...byKind.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 16)
        .map(([name, ms]) => ({ "task ran": name, ms: Math.round(ms) })),
    );
    const layouts = main
      .filter((e) => (e.name === "Layout" || e.name === "UpdateLayoutTree") && e.ts < until && (e.dur ?? 0) > 5000)
      .map((e) => ({
        what: e.name,
        at: Math.round((e.ts - nav.ts) / 1000),
        ms: Math.round((e.dur ?? 0) / 1000),
        forcedBy: JSON.stringify(
          (e.args as { beginData?: { stackTrace?: { functionName: string; url: string }[] } })?.beginData
            ?.stackTrace?.[0] ?? "",
        ).slice(0, 120),
      }));
    console.table(layouts);
    // --timeline: every task of 5 ms or more (TIMELINE_MIN_MS=1: of 1 ms or more), in order, with what it ran the
    // longest: where the time between the last script's arrival and hydration goes.
    if (process.argv.includes("--timeline"))
      console.table(
        sorted
          .filter((e) => e.name === "RunTask" && (e.dur ?? 0) >= Number(process.env.TIMELINE_MIN_MS ?? 5) * 1000)
          .map((task) => {
            const end = task.ts + (task.dur ?? 0);
            const inner = sorted.filter((e) => e !== task && e.name !== "RunTask" && e.ts >= task.ts && e.ts < end);
            const top = inner.sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))[0];
            const url = (top?.args?.data?.url ?? "").replace(/^.*\//, "");
            return {
              at: Math.round((task.ts - nav.ts) / 1000),
              ms: Math.round((task.dur ?? 0) / 1000),
              ran: top ? `${top.name}${url ? ` ${url}` : ""}` : "",
            };
          }),
      );
  },
});
