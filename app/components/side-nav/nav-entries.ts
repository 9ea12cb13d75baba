// Side navigation entries (spec section 2): key, label, destination.
export type NavKey = "dashboard" | "newtest" | "tentativi" | "errori" | "settings" | "logout";

export const NAV_ENTRIES: { key: NavKey; label: string; to: string | null }[] = [
  { key: "dashboard", label: "Dashboard", to: "/dashboard" },
  { key: "newtest", label: "Nuovo test", to: "/test/nuovo" },
  { key: "tentativi", label: "Tentativi", to: "/tentativi" },
  { key: "errori", label: "Errori", to: "/ripasso/errori" },
  { key: "settings", label: "Impostazioni", to: "/profilo" },
  { key: "logout", label: "Esci", to: null },
];

const PREFIXES: [string, NavKey][] = [
  ["/test/nuovo", "newtest"],
  ["/test", "newtest"], // the runner and its summary belong to "Nuovo test"
  ["/tentativi", "tentativi"],
  ["/ripasso", "errori"],
  ["/profilo", "settings"],
];

/** The active entry follows the path prefix and defaults to dashboard. */
export function activeNavKey(pathname: string): NavKey {
  for (const [prefix, key] of PREFIXES) {
    if (pathname === prefix || pathname.startsWith(`${prefix}/`)) return key;
  }
  return "dashboard";
}
