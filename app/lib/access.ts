// Who may open what, by role: the one table the server's guard (app/server/session.server.ts) enforces and the
// side navigation reads, so a role is offered an entry only where the server would let it in.

/** The roles of app/server/db/schema.ts (ROLES); session.server.ts checks at compile time that the two agree. */
export type RoleName = "studente" | "docente" | "moderator" | "admin";

/**
 * Who may call a route: any signed-in user, staff (moderator or admin), teachers (docente or admin: classes and
 * their simulations), the console (anyone with an /admin tab), or admins only. Which class or simulation a
 * teacher may touch is decided by the service (ownership), after this.
 */
export const ACCESS_ROLES = {
  user: ["studente", "docente", "moderator", "admin"],
  staff: ["moderator", "admin"],
  teacher: ["docente", "admin"],
  console: ["docente", "moderator", "admin"],
  admin: ["admin"],
} as const satisfies Record<string, readonly RoleName[]>;

/** A route's rule: anyone ("public") or one of the role sets above. */
export type Access = "public" | keyof typeof ACCESS_ROLES;

export function roleMayEnter(role: string, access: Access): boolean {
  return access === "public" || (ACCESS_ROLES[access] as readonly string[]).includes(role);
}
