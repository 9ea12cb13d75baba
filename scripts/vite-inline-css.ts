// The production server build carries the text of every stylesheet of the client build, so a page's styles go
// out inside its HTML (app/components/PageStyles.tsx) instead of as render-blocking <link>s: on a phone each of
// those waited a round trip after the HTML and shared the slow link with the JavaScript (issue 33, point 2).
// `virtual:unicum/inline-css` exports { "/assets/root-….css": "…css text…" } in the server build of `vite build`
// (the client is built first: react-router's buildApp), and {} in development, where the links stay.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Plugin, ResolvedConfig } from "vite";

const ID = "virtual:unicum/inline-css";
const RESOLVED = `\0${ID}`;

export function inlineCss(): Plugin {
  let config: ResolvedConfig;
  return {
    name: "unicum:inline-css",
    configResolved(resolved) {
      config = resolved;
    },
    resolveId(id) {
      return id === ID ? RESOLVED : undefined;
    },
    load(id) {
      if (id !== RESOLVED) return undefined;
      const client = config.environments.client?.build;
      const dir = client ? resolve(config.root, client.outDir, client.assetsDir) : "";
      if (config.command !== "build" || this.environment.name === "client" || !client || !existsSync(dir)) {
        return "export default {};";
      }
      const texts: Record<string, string> = {};
      for (const file of readdirSync(dir)) {
        if (file.endsWith(".css"))
          texts[`${config.base}${client.assetsDir}/${file}`] = readFileSync(join(dir, file), "utf8");
      }
      return `export default ${JSON.stringify(texts)};`;
    },
  };
}
