// The admin console's tabs: a moderator sees only Segnalazioni (spec section 2 and 6).
export const ADMIN_TABS = [
  { key: "analytics", label: "Analytics" },
  { key: "utenti", label: "Utenti" },
  { key: "tentativi", label: "Tentativi" },
  { key: "segnalazioni", label: "Segnalazioni" },
  { key: "database", label: "Database" },
  { key: "simulazioni", label: "Simulazioni" },
  { key: "rush", label: "Rush" },
] as const;
export type AdminTabKey = (typeof ADMIN_TABS)[number]["key"];

export function tabsFor(role: string) {
  return role === "admin" ? [...ADMIN_TABS] : ADMIN_TABS.filter((t) => t.key === "segnalazioni");
}
