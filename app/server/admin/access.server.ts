// Who may read an attempt: its owner, or an admin (the console's 'Riepilogo' link opens any user's
// summary). The summary loader and GET /api/attempts/{id}/summary should use this instead of an
// owner-only check; everyone else keeps getting 'Tentativo non trovato'.
import type { SessionUser } from "../session.server";

export function canReadAttempt(user: Pick<SessionUser, "id" | "effectiveRole">, attemptOwnerId: number): boolean {
  return user.id === attemptOwnerId || user.effectiveRole === "admin";
}
