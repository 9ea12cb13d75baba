// A fresh `npm run dev` pre-bundles only the packages named in CLIENT_DEPS (vite.config.ts): React Router gives Vite
// no entries to scan, so a package the browser imports and the list lacks is found when a page first loads it, and
// Vite answers 504 "Outdated Optimize Dep" and reloads the page (issue 33: /login did so for @conform-to/zod/v4).
// This walks the browser's code as the dev server serves it, with no server: from the document (root.tsx) and every
// route module with a screen, along relative and ~/ imports, skipping *.server modules (React Router keeps them out
// of the browser), and collects every package it imports for its value (static, re-export, side effect, dynamic).
// Conservative on purpose: a package a route module imports only for its loader counts too (keep such imports in a
// .server module, as the house does). `npm run check:first-visit` is the slow end-to-end check of the same.
import { describe, expect, it } from "vitest";
import routesText from "../../app/routes.ts?raw";
import viteConfigText from "../../vite.config.ts?raw";

const sources = import.meta.glob<string>("../../app/**/*.{ts,tsx}", { query: "?raw", import: "default", eager: true });
/** Repository paths (app/…) of the sources above. */
const files = new Map(Object.entries(sources).map(([key, text]) => [key.replace(/^\.\.\/\.\.\//, ""), text]));

/** The packages vite.config.ts lists for the browser, as written there. */
function clientDeps(): string[] {
  const list = viteConfigText.match(/const CLIENT_DEPS\b[^=]*=\s*\[([\s\S]*?)\]/);
  if (!list) throw new Error("vite.config.ts has no `const CLIENT_DEPS = [...]`");
  return [...list[1]!.matchAll(/["']([^"']+)["']/g)].map((m) => m[1]!);
}

/** The app/… file an import of `from` names (trying the extensions Vite tries), or null when there is none. */
function resolveModule(from: string, specifier: string): string | null {
  let parts: string[];
  if (specifier.startsWith("~/")) parts = ["app", ...specifier.slice(2).split("/")];
  else {
    parts = from.split("/").slice(0, -1);
    for (const part of specifier.split("/")) {
      if (part === "..") parts.pop();
      else if (part !== ".") parts.push(part);
    }
  }
  const base = parts.join("/");
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`])
    if (files.has(candidate)) return candidate;
  return null;
}

const isLocal = (specifier: string) => specifier.startsWith(".") || specifier.startsWith("~/");
const isServerOnly = (specifier: string) => /\.server(\.tsx?)?$/.test(specifier) || /(^|\/)server\//.test(specifier);
/** Not a package the dependency optimizer handles: styles, assets, platform and virtual modules. */
const isNotAPackage = (specifier: string) =>
  /\.(css|svg|png|jpe?g|webp|woff2?)(\?.*)?$/.test(specifier) ||
  /\?(raw|url)$/.test(specifier) ||
  /^(node|cloudflare|virtual|workerd):/.test(specifier);

/** `import { type A, type B } from "x"` imports nothing at run time, like `import type`. */
const onlyTypes = (clause: string) => {
  const named = clause.trim().match(/^\{([^}]*)\}$/);
  if (!named) return false;
  const names = named[1]!
    .split(",")
    .map((n) => n.trim())
    .filter(Boolean);
  return names.length > 0 && names.every((n) => n.startsWith("type "));
};

/** The specifiers of every import of a module's source that survives to run time. */
function runtimeImports(text: string): string[] {
  const found: string[] = [];
  const fromClause = /(?:^|[\n;])\s*(import|export)(\s+type\b)?([^;'"]*?)\bfrom\s*["']([^"']+)["']/g;
  for (const m of text.matchAll(fromClause)) if (!m[2] && !onlyTypes(m[3]!)) found.push(m[4]!);
  for (const m of text.matchAll(/(?:^|[\n;])\s*import\s*["']([^"']+)["']/g)) found.push(m[1]!);
  for (const m of text.matchAll(/(?<![\w.])import\(\s*["']([^"']+)["']\s*\)/g)) found.push(m[1]!);
  return found;
}

/** Route modules with something the browser runs (a screen, a client loader or action); resource routes have none. */
function browserRouteModules(): string[] {
  const modules = [...routesText.matchAll(/["'](routes\/[^"']+\.tsx?)["']/g)].map((m) => `app/${m[1]}`);
  return modules.filter((path) => {
    const text = files.get(path);
    if (text === undefined) throw new Error(`app/routes.ts names ${path}, which does not exist`);
    return /\bexport\s+default\b|\bexport\s+(async\s+)?(function|const)\s+(client(Loader|Action)|HydrateFallback)\b/.test(
      text,
    );
  });
}

/** Packages the browser code imports, each with the first module that imports it. */
function browserPackages(entries: string[]): { packages: Map<string, string>; modules: Set<string> } {
  const packages = new Map<string, string>();
  const modules = new Set<string>();
  const queue = [...entries];
  while (queue.length) {
    const path = queue.shift()!;
    if (modules.has(path)) continue;
    modules.add(path);
    for (const specifier of runtimeImports(files.get(path)!)) {
      if (isNotAPackage(specifier)) continue;
      if (isLocal(specifier)) {
        if (isServerOnly(specifier)) continue;
        const target = resolveModule(path, specifier);
        if (!target) throw new Error(`${path} imports ${specifier}, which this test cannot find`);
        queue.push(target);
      } else if (!packages.has(specifier)) packages.set(specifier, path);
    }
  }
  return { packages, modules };
}

const ENTRIES = ["app/root.tsx", ...(files.has("app/entry.client.tsx") ? ["app/entry.client.tsx"] : [])];

describe("the packages a fresh dev server pre-bundles (CLIENT_DEPS in vite.config.ts)", () => {
  it("name every package the browser code imports, so no first visit answers 504 and reloads", () => {
    const { packages, modules } = browserPackages([...ENTRIES, ...browserRouteModules()]);
    // The walk reached the screens and their kits, not just the entries.
    expect(modules.has("app/routes/login.tsx")).toBe(true);
    expect(modules.has("app/lib/forms.ts")).toBe(true);
    expect([...modules].filter((m) => m.includes(".server"))).toEqual([]);
    const listed = new Set(clientDeps());
    const missing = [...packages].filter(([name]) => !listed.has(name)).map(([name, by]) => `${name} (by ${by})`);
    expect(missing, "add these to CLIENT_DEPS in vite.config.ts").toEqual([]);
  });

  it("reads imports the way the browser gets them: types and server modules left out, dynamic imports in", () => {
    const text = [
      'import type { A } from "types-only";',
      'import { type B, type C } from "types-only-too";',
      'import { type D, e } from "value-pkg";',
      'export { f } from "reexported-pkg";',
      'import "side-effect-pkg";',
      'import "side-effect-pkg/dist/style.css";',
      'const { g } = await import("lazy-pkg");',
      'import { h } from "~/server/db.server";',
    ].join("\n");
    expect(runtimeImports(text).filter((s) => !isNotAPackage(s))).toEqual([
      "value-pkg",
      "reexported-pkg",
      "~/server/db.server",
      "side-effect-pkg",
      "lazy-pkg",
    ]);
    expect(isServerOnly("~/server/db.server")).toBe(true);
    expect(isServerOnly("~/lib/forms")).toBe(false);
  });
});
