// The admin console's tabs: a moderator sees only Segnalazioni (spec section 2 and 6); a teacher
// (docente, issue 11) sees Classi, Simulazioni and Compiti (issue 32); an admin sees everything.
export const ADMIN_TABS = [
  { key: "analytics", label: "Analytics" },
  { key: "utenti", label: "Utenti" },
  { key: "tentativi", label: "Tentativi" },
  { key: "segnalazioni", label: "Segnalazioni" },
  { key: "database", label: "Database" },
  { key: "classi", label: "Classi" },
  { key: "simulazioni", label: "Simulazioni" },
  { key: "rush", label: "Rush" },
  { key: "edizioni", label: "Edizioni" },
  { key: "compiti", label: "Compiti" },
] as const;
export type AdminTabKey = (typeof ADMIN_TABS)[number]["key"];

const TEACHER_TABS: readonly AdminTabKey[] = ["classi", "simulazioni", "compiti"];

export function tabsFor(role: string) {
  if (role === "admin") return [...ADMIN_TABS];
  if (role === "docente") return ADMIN_TABS.filter((t) => TEACHER_TABS.includes(t.key));
  return ADMIN_TABS.filter((t) => t.key === "segnalazioni");
}
