// How the browser's JavaScript is cut into files (issue 47, point 4). Left to itself the bundler made a file of every
// set of modules shared by a different set of screens: a signed-in screen loaded 33 files, most under 1 KB, and on a
// phone's 150 ms round trip, six requests at a time, the requests rather than the bytes set when the page became
// usable. Here:
//   - `framework`: React, React DOM and React Router, which every screen with React loads, one file;
//   - `shell`: the app's modules the document and the signed-in layout import (app/root.tsx, app/routes/app-layout.tsx
//     and what they import, statically), which every signed-in screen loads anyway, one file;
//   - the rest as the bundler splits it (a screen's own modules in its file, lazy parts in theirs).
// The shell's list is read from the module graph once it is built (buildEnd), before the files are cut.
import { resolve } from "node:path";
import type { Plugin, UserConfig } from "vite";

const FRAMEWORK = /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/;
const SHELL_ROOTS = ["app/root.tsx", "app/routes/app-layout.tsx"];

export function clientChunks(): Plugin {
  const shell = new Set<string>();
  let root = process.cwd();
  return {
    name: "unicum:client-chunks",
    apply: "build",
    configResolved(config) {
      root = config.root;
    },
    config(): UserConfig {
      return {
        environments: {
          client: {
            build: {
              rolldownOptions: {
                output: {
                  codeSplitting: {
                    groups: [
                      { name: "framework", test: FRAMEWORK, priority: 2 },
                      { name: "shell", test: (id: string) => shell.has(id), priority: 1 },
                    ],
                  },
                },
              },
            },
          },
        },
      };
    },
    buildEnd() {
      if (this.environment.name !== "client") return;
      const starts = SHELL_ROOTS.map((file) => resolve(root, file));
      const queue = [...starts];
      while (queue.length) {
        const id = queue.pop()!;
        if (shell.has(id) || FRAMEWORK.test(id) || id.includes("?")) continue;
        const info = this.getModuleInfo(id);
        if (!info) continue;
        shell.add(id);
        queue.push(...info.importedIds);
      }
    },
  };
}
