// The service worker of the installable app (issue 47): app/sw/service-worker.ts, bundled by Vite (Rolldown) into
// build/client/sw.js once every environment is built (React Router writes the last client files, its route manifest
// among them, at the end of its buildApp), then Serwist's injectManifest writes the precache list into it: the
// build's hashed JS and CSS (every screen's, the student's and the console's alike: about 1 MB unzipped), fonts,
// icons, the web app manifest and the offline page, each with a revision, so a new build is a new worker.
// Serwist rather than vite-plugin-pwa: the latter generates its worker inside the client build, before React Router
// has written its manifest and with no hook for a framework-mode build (its React Router support is still an open
// request), while @serwist/build only needs the finished directory, whatever built it. `npm run dev` builds nothing
// here: development runs without a service worker.
import { resolve } from "node:path";
import { injectManifest } from "@serwist/build";
import { build, type Plugin } from "vite";

const SOURCE = "app/sw/service-worker.ts";
const OUTPUT = "sw.js";

export function serviceWorker(): Plugin {
  return {
    name: "unicum:service-worker",
    apply: "build",
    buildApp: {
      order: "post",
      async handler(builder) {
        const client = builder.environments.client;
        if (!client?.isBuilt) return;
        const root = builder.config.root;
        const outDir = resolve(root, client.config.build.outDir);
        await build({
          configFile: false,
          root,
          logLevel: "warn",
          publicDir: false,
          // Serwist's development logs are behind process.env.NODE_ENV, which a library build leaves as it is.
          define: { "process.env.NODE_ENV": JSON.stringify("production") },
          build: {
            outDir,
            emptyOutDir: false,
            copyPublicDir: false,
            minify: true,
            sourcemap: false,
            lib: {
              entry: resolve(root, SOURCE),
              formats: ["iife"],
              name: "unicumServiceWorker",
              fileName: () => OUTPUT,
            },
          },
        });
        const { count, size, warnings } = await injectManifest({
          swSrc: resolve(outDir, OUTPUT),
          swDest: resolve(outDir, OUTPUT),
          globDirectory: outDir,
          globPatterns: [
            "assets/**/*.{js,css,woff2}",
            "consent.js",
            "icons/*.png",
            "favicon.svg",
            "manifest.webmanifest",
            "offline.html",
          ],
          // Hashed names need no revision of their own.
          dontCacheBustURLsMatching: /^assets\//,
          maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
        });
        for (const warning of warnings) builder.config.logger.warn(`service worker: ${warning}`);
        builder.config.logger.info(
          `service worker: ${OUTPUT} precaches ${count} files (${Math.round(size / 1024)} KB)`,
        );
      },
    },
  };
}
