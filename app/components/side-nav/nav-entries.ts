// Side navigation entries (spec section 2), per role (issue 34): key, label, destination, who sees it.
// The spec's six entries are for everybody; a student also gets Piano, Compiti, Simulazioni and Quiz Rush, staff (admin, moderator,
// teacher) get Console. A role sees an entry only where the server would let it in (app/lib/access.ts).
import { ACCESS_ROLES, type RoleName } from "~/lib/access";

export type NavKey =
  | "dashboard"
  | "newtest"
  | "tentativi"
  | "errori"
  | "piano"
  | "compiti"
  | "simulazioni"
  | "rush"
  | "console"
  | "settings"
  | "logout";

export type NavEntry = { key: NavKey; label: string; to: string | null };

const STUDENTS: readonly RoleName[] = ["studente"];

/** Every entry in display order, with the roles that see it (none: everybody signed in). */
export const NAV_ENTRIES: (NavEntry & { roles?: readonly RoleName[] })[] = [
  { key: "dashboard", label: "Dashboard", to: "/dashboard" },
  { key: "newtest", label: "Nuovo test", to: "/test/nuovo" },
  { key: "tentativi", label: "Tentativi", to: "/tentativi" },
  { key: "errori", label: "Errori", to: "/ripasso/errori" },
  // The plan to the sitting and the grades after it (issue 46)
  { key: "piano", label: "Piano", to: "/piano", roles: STUDENTS },
  // A pupil's assignments from their classes (issue 32)
  { key: "compiti", label: "Compiti", to: "/compiti", roles: STUDENTS },
  { key: "simulazioni", label: "Simulazioni", to: "/simulazioni", roles: STUDENTS },
  { key: "rush", label: "Quiz Rush", to: "/rush", roles: STUDENTS },
  { key: "console", label: "Console", to: "/admin", roles: ACCESS_ROLES.console },
  { key: "settings", label: "Impostazioni", to: "/profilo" },
  { key: "logout", label: "Esci", to: null },
];

/** The entries a role sees, in display order. */
export function navEntriesFor(role: string): NavEntry[] {
  return NAV_ENTRIES.filter((e) => !e.roles || (e.roles as readonly string[]).includes(role)).map(
    ({ key, label, to }) => ({ key, label, to }),
  );
}

// First match wins; a prefix matches itself and whatever follows a "/".
const PREFIXES: [string, NavKey][] = [
  ["/test/nuovo", "newtest"],
  ["/test", "newtest"], // the runner and its summary belong to "Nuovo test"
  ["/tentativi", "tentativi"],
  ["/ripasso", "errori"],
  ["/piano", "piano"],
  ["/compiti", "compiti"],
  ["/simulazioni", "simulazioni"],
  ["/simulazione", "simulazioni"], // the runner and its result page
  ["/giornata", "simulazioni"], // the exam day alone (issue 46), opened from /simulazioni and /piano
  ["/rush", "rush"],
  ["/quiz-rush", "rush"],
  ["/admin", "console"], // every tab of the console
  ["/profilo", "settings"],
  ["/segnalato", "settings"], // the user's reports, linked from the profile
  ["/classi", "settings"], // a class's join link: the classes are on the profile
];

/** The active entry follows the path prefix and defaults to dashboard. */
export function activeNavKey(pathname: string): NavKey {
  for (const [prefix, key] of PREFIXES) {
    if (pathname === prefix || pathname.startsWith(`${prefix}/`)) return key;
  }
  return "dashboard";
}
