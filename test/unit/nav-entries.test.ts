import { describe, expect, it } from "vitest";
import { activeNavKey, NAV_ENTRIES, type NavKey, navEntriesFor } from "~/components/side-nav/nav-entries";
import { ACCESS_ROLES, roleMayEnter } from "~/lib/access";
import { ROLES } from "~/server/db/schema";

const labels = (role: string) => navEntriesFor(role).map((e) => e.label);

describe("side navigation entries per role", () => {
  it("a student sees the spec's entries plus Piano, Compiti, Simulazioni and Quiz Rush before Impostazioni, never Console", () => {
    expect(labels("studente")).toEqual([
      "Dashboard",
      "Nuovo test",
      "Tentativi",
      "Errori",
      "Piano",
      "Compiti",
      "Simulazioni",
      "Quiz Rush",
      "Impostazioni",
      "Esci",
    ]);
  });

  it("staff (teacher, moderator, admin) see Console before Impostazioni, and no student-only entry", () => {
    for (const role of ["docente", "moderator", "admin"]) {
      expect(labels(role), role).toEqual([
        "Dashboard",
        "Nuovo test",
        "Tentativi",
        "Errori",
        "Console",
        "Impostazioni",
        "Esci",
      ]);
    }
  });

  it("keeps the spec's six entries, labels and destinations for every role", () => {
    const spec: [NavKey, string, string | null][] = [
      ["dashboard", "Dashboard", "/dashboard"],
      ["newtest", "Nuovo test", "/test/nuovo"],
      ["tentativi", "Tentativi", "/tentativi"],
      ["errori", "Errori", "/ripasso/errori"],
      ["settings", "Impostazioni", "/profilo"],
      ["logout", "Esci", null],
    ];
    for (const role of ROLES) {
      const entries = navEntriesFor(role);
      for (const [key, label, to] of spec)
        expect(
          entries.find((e) => e.key === key),
          `${role} ${key}`,
        ).toEqual({ key, label, to });
    }
  });

  it("offers an entry only to roles the server lets in: Console follows the console guard, the rest any user", () => {
    const guardOf: Partial<Record<NavKey, keyof typeof ACCESS_ROLES>> = { console: "console" };
    for (const role of ROLES) {
      for (const entry of navEntriesFor(role)) {
        expect(roleMayEnter(role, guardOf[entry.key] ?? "user"), `${role} → ${entry.to}`).toBe(true);
      }
    }
    // And every role with a console tab has the way there.
    for (const role of ACCESS_ROLES.console) expect(navEntriesFor(role).some((e) => e.to === "/admin")).toBe(true);
    expect(NAV_ENTRIES.filter((e) => e.to === "/admin")).toHaveLength(1);
  });

  it("an unknown role gets only the entries for everybody", () => {
    expect(navEntriesFor("ospite").map((e) => e.key)).toEqual([
      "dashboard",
      "newtest",
      "tentativi",
      "errori",
      "settings",
      "logout",
    ]);
  });
});

describe("activeNavKey", () => {
  it.each<[string, NavKey]>([
    ["/dashboard", "dashboard"],
    ["/dashboard/amico/2", "dashboard"],
    ["/test/nuovo", "newtest"],
    ["/test", "newtest"],
    ["/test/riepilogo/12", "newtest"],
    ["/tentativi", "tentativi"],
    ["/ripasso/errori", "errori"],
    ["/piano", "piano"],
    ["/compiti", "compiti"],
    ["/simulazioni", "simulazioni"],
    ["/simulazione", "simulazioni"],
    ["/simulazione/riepilogo/demo/3", "simulazioni"],
    ["/giornata", "simulazioni"],
    ["/rush", "rush"],
    ["/quiz-rush/start", "rush"],
    ["/admin", "console"],
    ["/admin/segnalazioni", "console"],
    ["/admin/rush", "console"],
    ["/admin/simulazioni", "console"],
    ["/profilo", "settings"],
    ["/segnalato", "settings"],
    ["/classi/unisciti/5BVLTA", "settings"],
    ["/qualcosa", "dashboard"],
  ])("%s → %s", (path, key) => {
    expect(activeNavKey(path)).toBe(key);
  });

  it("matches whole path segments only", () => {
    expect(activeNavKey("/testo")).toBe("dashboard");
    expect(activeNavKey("/rushhour")).toBe("dashboard");
    expect(activeNavKey("/administration")).toBe("dashboard");
  });
});
