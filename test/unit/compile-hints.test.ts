// Which client files get V8's compile hint (scripts/vite-compile-hints.ts): the files that run at every page's load
// and the screens' route modules, not a route's split client action or loader, a resource route's empty module, or a
// lazy part. The built files themselves are checked in test/e2e/first-paint.spec.ts.
import { describe, expect, it } from "vitest";
import { runsOnLoad } from "../../scripts/vite-compile-hints.ts";

const chunk = (name: string, facadeModuleId: string | null = null) => ({ name, facadeModuleId });
const ROUTE = "?__react-router-build-client-route";

describe("runsOnLoad", () => {
  it("holds for the framework, the shell, the client entry and a screen's route module", () => {
    expect(runsOnLoad(chunk("framework"))).toBe(true);
    expect(runsOnLoad(chunk("shell"))).toBe(true);
    expect(runsOnLoad(chunk("entry.client", "/repo/app/entry.client.tsx"))).toBe(true);
    expect(runsOnLoad(chunk("root", `/repo/app/root.tsx${ROUTE}`))).toBe(true);
    expect(runsOnLoad(chunk("dashboard", `/repo/app/routes/dashboard.tsx${ROUTE}`))).toBe(true);
    expect(runsOnLoad(chunk("test.nuovo", `C:\\repo\\app\\routes\\test.nuovo.tsx${ROUTE}`))).toBe(true);
  });

  it("does not hold for split client actions and loaders, resource routes or lazy parts", () => {
    expect(runsOnLoad(chunk("login", "/repo/app/routes/login.tsx?route-chunk=clientAction"))).toBe(false);
    expect(runsOnLoad(chunk("test.nuovo", "/repo/app/routes/test.nuovo.tsx?route-chunk=clientLoader"))).toBe(false);
    expect(runsOnLoad(chunk("api.quiz", `/repo/app/routes/api.quiz.ts${ROUTE}`))).toBe(false);
    expect(runsOnLoad(chunk("charts.impl", "/repo/app/components/dashboard/charts.impl.tsx"))).toBe(false);
    expect(runsOnLoad(chunk("format"))).toBe(false);
  });
});
