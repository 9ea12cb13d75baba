// How the browser's JavaScript is cut into files (issue 47, point 4). Left to itself the bundler made a file of every
// set of modules shared by a different set of screens: a signed-in screen loaded 33 files, most under 1 KB, and on a
// phone's 150 ms round trip, six requests at a time, the requests rather than the bytes set when the page became
// usable. Here:
//   - `framework`: React, React DOM and React Router, which every screen with React loads, one file;
//   - `shell`: the app's modules the document and the signed-in layout import (app/root.tsx, app/routes/app-layout.tsx
//     and what they import, statically), which every signed-in screen loads anyway, and the scripts any two of the
//     screens a student opens most share (dashboard, new quiz, the runner: 3 KB more for the other screens), one file;
//   - the rest as the bundler splits it (a screen's own modules in its file, lazy parts in theirs).
// The shell's list is read from the module graph once it is built (buildEnd), before the files are cut.
import { resolve } from "node:path";
import type { Plugin, UserConfig } from "vite";

const FRAMEWORK = /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/;
const SHELL_ROOTS = ["app/root.tsx", "app/routes/app-layout.tsx"];
/** The screens a student opens most (issue 47's phone goals): what two of them share goes in the shell too. */
const CORE_SCREENS = ["app/routes/dashboard.tsx", "app/routes/test.nuovo.tsx", "app/routes/test.tsx"];

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
      /** The modules `from` imports statically, directly or not (itself included), but the framework's. */
      const reach = (from: string[]) => {
        const seen = new Set<string>();
        const queue = [...from];
        while (queue.length) {
          const id = queue.pop()!;
          if (seen.has(id) || FRAMEWORK.test(id) || id.includes("?")) continue;
          const info = this.getModuleInfo(id);
          if (!info) continue;
          seen.add(id);
          queue.push(...info.importedIds);
        }
        return seen;
      };
      for (const id of reach(SHELL_ROOTS.map((file) => resolve(root, file)))) shell.add(id);
      const screens = CORE_SCREENS.map((file) => resolve(root, file));
      const uses = new Map<string, number>();
      for (const screen of screens)
        for (const id of reach([screen])) if (!shell.has(id)) uses.set(id, (uses.get(id) ?? 0) + 1);
      // Their stylesheets stay with their screens: the shell's are inlined in every signed-in page (PageStyles).
      for (const [id, count] of uses) if (count >= 2 && !screens.includes(id) && !id.endsWith(".css")) shell.add(id);
      if (process.env.CLIENT_CHUNKS_DEBUG)
        console.log([...uses].filter(([, n]) => n >= 2).map(([id]) => id.replace(root, "")));
    },
  };
}
