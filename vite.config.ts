import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import { visualizer } from "rollup-plugin-visualizer";
import { defineConfig, type PluginOption } from "vite";
import { clientChunks } from "./scripts/vite-client-chunks.ts";
import { compileHints } from "./scripts/vite-compile-hints.ts";
import { inlineCss } from "./scripts/vite-inline-css.ts";
import { serviceWorker } from "./scripts/vite-service-worker.ts";

// The network is closed here and in CI: never fetch the Request.cf placeholder from Cloudflare.
process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";

// UNICUM_STATE_DIR lets the e2e run and the benchmark use their own local D1 / Durable Object state,
// so they never touch the developer's .wrangler/state.
const stateDir = process.env.UNICUM_STATE_DIR;

// Every package the browser imports, known to Vite up front. Without this list a fresh `npm run dev` discovers
// visx, driver.js, papaparse or date-fns only when a page first imports them, answers 504 "Outdated Optimize Dep"
// and reloads the page. test/unit/client-deps.test.ts (in `npm test`) and `npm run check:first-visit` fail when a
// package the browser imports is missing here.
const CLIENT_DEPS = [
  "react",
  "react-dom",
  "react-dom/client",
  "react-router",
  "react-router/dom",
  "zod",
  "date-fns",
  "@date-fns/tz",
  "@visx/axis",
  "@visx/curve",
  "@visx/gradient",
  "@visx/grid",
  "@visx/group",
  "@visx/responsive",
  "@visx/scale",
  "@visx/shape",
  "driver.js",
  "papaparse",
  "@conform-to/zod/v4",
  "idb",
  "@serwist/window",
];

// BUNDLE_REPORT=1 npm run build writes build/bundle-report.html: a treemap of the browser bundle with the
// gzipped size of every module, to see what a page ships. Off by default: it slows the build down.
function bundleReport(): PluginOption {
  if (!process.env.BUNDLE_REPORT) return null;
  const plugin = visualizer({
    filename: "build/bundle-report.html",
    template: "treemap",
    gzipSize: true,
    title: "Unicum: browser bundle",
  });
  return { ...plugin, applyToEnvironment: (environment) => environment.name === "client" };
}

// UNICUM_BENCH_D1_USAGE=1 at build time (bench/national.ts only) turns on the D1 meter behind GET /api/admin/bench/d1
// (app/server/db/d1-usage.server.ts) in that build; no other build carries the variable.
const benchD1Usage = process.env.UNICUM_BENCH_D1_USAGE === "1";

// The room's test hooks (workers/room/test-room.ts: the clock of POST /api/admin/simulations/{id}/clock) are bound by
// the development server and by builds made with UNICUM_TEST_HOOKS=1 (test/e2e/serve.ts, for the e2e servers) through
// their own entry; `npm run build` / `npm run deploy` and the benches bind the production room, which has none.
const TEST_HOOKS_ENTRY = "./workers/app-test-hooks.ts";

export default defineConfig(({ command, isPreview }) => ({
  // UNICUM_VITE_CACHE_DIR: a cold dependency cache for `npm run check:first-visit` (a fresh clone's first visit).
  cacheDir: process.env.UNICUM_VITE_CACHE_DIR ?? "node_modules/.vite",
  plugins: [
    cloudflare({
      viteEnvironment: { name: "ssr" },
      persistState: stateDir ? { path: stateDir } : true,
      config: (worker) => ({
        ...(benchD1Usage ? { vars: { ...worker.vars, BENCH_D1_USAGE: "1" } } : {}),
        ...((command === "serve" && !isPreview) || process.env.UNICUM_TEST_HOOKS === "1"
          ? { main: TEST_HOOKS_ENTRY }
          : {}),
      }),
    }),
    reactRouter(),
    inlineCss(),
    clientChunks(),
    compileHints(),
    serviceWorker(),
    bundleReport(),
    {
      // `vite preview` (the e2e servers and the bench) closes an idle keep-alive connection after Node's default 5 s;
      // a client that sends its next request on it at that instant gets "socket hang up" (a POST is not retried).
      // On a loaded machine the gap between two requests of a test often is about 5 s: a class-live run under two
      // busy loops failed so. Keep idle connections a minute, as a load balancer would.
      name: "unicum:preview-keep-alive",
      configurePreviewServer(server) {
        const http = server.httpServer as import("node:http").Server | null;
        if (!http) return;
        http.keepAliveTimeout = 65_000;
        http.headersTimeout = 66_000;
      },
    },
  ],
  optimizeDeps: { include: CLIENT_DEPS },
  resolve: { tsconfigPaths: true },
  server: { port: 5173, strictPort: true },
  preview: { port: Number(process.env.PORT ?? 4173), strictPort: true },
}));
