// Rules of the project that no type check sees: imports run only down the floors (routes → components → server →
// lib, ENGINEERING.md), wrangler.jsonc names files that exist and a limiter for every rate rule, a path with
// several methods keeps one access rule per method, and the README's commands run the project's Node.
import { describe, expect, it } from "vitest";
import { api, methods } from "~/server/api.server";
import { RATE_RULES } from "~/server/security.server";
import readme from "../../README.md?raw";
import wranglerText from "../../wrangler.jsonc?raw";

const sources = import.meta.glob<string>(["../../app/**/*.{ts,tsx}", "../../workers/**/*.ts"], {
  query: "?raw",
  import: "default",
  eager: true,
});
/** Repository paths (app/…, workers/…) of the sources above. */
const files = new Map(Object.entries(sources).map(([key, text]) => [key.replace(/^\.\.\/\.\.\//, ""), text]));

const FLOORS = ["lib", "server", "components", "routes"] as const;
const floorOf = (path: string) => FLOORS.findIndex((f) => path.startsWith(`app/${f}/`));

/** The repository path an import specifier of `from` names, or null for a package. */
function resolve(from: string, specifier: string): string | null {
  if (specifier.startsWith("~/")) return `app/${specifier.slice(2)}`;
  if (!specifier.startsWith(".")) return null;
  const parts = from.split("/").slice(0, -1);
  for (const part of specifier.split("/")) {
    if (part === "..") parts.pop();
    else if (part !== ".") parts.push(part);
  }
  return parts.join("/");
}

describe("the project's layout", () => {
  it("imports never run back up the floors: lib imports no server, components or routes; server no components or routes", () => {
    const upward: string[] = [];
    for (const [path, text] of files) {
      const floor = floorOf(path);
      if (floor < 0) continue;
      for (const [, specifier] of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s+["']([^"']+)["']/g)) {
        const target = resolve(path, specifier!);
        if (target && floorOf(target) > floor) upward.push(`${path} → ${specifier}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it("wrangler.jsonc names a main module and source files that exist, and a limiter for every rate rule", () => {
    const config = JSON.parse(
      wranglerText
        .split("\n")
        .filter((line) => !line.trim().startsWith("//"))
        .join("\n"),
    ) as { main: string; ratelimits: { name: string }[] };
    expect(files.has(config.main.replace(/^\.\//, "")), config.main).toBe(true);
    for (const [named] of wranglerText.matchAll(/\b(?:app|workers)\/[\w./-]+\.tsx?\b/g)) {
      expect(files.has(named), named).toBe(true);
    }
    const limiters = config.ratelimits.map((r) => r.name);
    for (const rule of RATE_RULES) expect(limiters, rule.limiter).toContain(rule.limiter);
  });

  it("a path with several methods keeps each method's own access rule, and no merged one to misread", () => {
    const handler = methods({
      POST: api({ access: "admin", handler: async () => null }),
      DELETE: api({ access: "user", handler: async () => null }),
    });
    expect(handler.methods.POST!.access).toBe("admin");
    expect(handler.methods.DELETE!.access).toBe("user");
    expect("access" in handler).toBe(false);
  });

  it("the README runs the project's Node through npm scripts and says to reset the database after a seed change", () => {
    expect(readme.match(/`node [^`]*`/g) ?? []).toEqual([]);
    expect(readme).toMatch(/npm run db:reset` \| [^|]*after pulling a change to the seed/);
    expect(readme).not.toMatch(/one Durable Object per (live )?simulation/i);
  });
});
