// V8's explicit compile hint (issue 47, point 4): a file that starts with `//# allFunctionsCalledOnLoad` has all its
// functions compiled while it downloads, on a background thread, instead of each on the main thread at its first call
// (Chromium 136 and later; other engines read a comment). It goes on the files whose functions nearly all run before a
// page is usable: React, React DOM and React Router (`framework`), the app's shell, the client entry and the route
// modules, each of which renders its screen at hydration. Lazy parts (charts, the console's editors) stay lazily
// compiled: most of their functions run later or never.
// Measured with the phone profile of bench/phone.ts on /dashboard, 12 loads alternating the built files: usable 51 ms
// sooner in the median, 93 ms with the hydration outside a transition (app/entry.client.tsx). Both side by side with
// the build before them (`npm run bench:phone -- OLD NEW`, 7 runs a page): /dashboard, /test/nuovo and a started quiz
// usable 76, 176 and 160 ms sooner (paired medians).
import type { Plugin } from "vite";

export const COMPILE_HINT = "//# allFunctionsCalledOnLoad\n";

/**
 * The client chunks whose functions run at a page's load: the framework, the shell, the client entry, and each screen's
 * route module (React Router's `?__react-router-build-client-route` of a .tsx route; not its split client actions or
 * loaders, which run on a submit or a navigation, nor the empty modules of resource routes).
 */
export function runsOnLoad(chunk: { name: string; facadeModuleId: string | null }): boolean {
  if (chunk.name === "framework" || chunk.name === "shell" || chunk.name === "entry.client") return true;
  const facade = (chunk.facadeModuleId ?? "").replace(/\\/g, "/");
  return /\/app\/(root|routes\/[^/]+)\.tsx\?__react-router-build-client-route$/.test(facade);
}

export function compileHints(): Plugin {
  return {
    name: "unicum:compile-hints",
    apply: "build",
    enforce: "post",
    // Last: after minification (which would drop the comment) and after Vite's preload helper puts its
    // `__vite__mapDeps` list at the top of a file that imports lazily (the hint must be the file's first line), before
    // the files are written and the service worker lists them with their revisions (scripts/vite-service-worker.ts).
    generateBundle: {
      order: "post",
      handler(_options, bundle) {
        if (this.environment.name !== "client") return;
        for (const file of Object.values(bundle))
          if (file.type === "chunk" && runsOnLoad(file) && !file.code.startsWith(COMPILE_HINT))
            file.code = COMPILE_HINT + file.code;
      },
    },
  };
}
