// Who may read an attempt: its owner, or an admin (the console's 'Riepilogo' link opens any user's
// summary). attemptSummary (the summary page and GET /api/attempts/{id}/summary) asks this; everyone else
// gets 'Tentativo non trovato'.
import type { SessionUser } from "../session.server";

export function canReadAttempt(
  user: Pick<SessionUser, "id"> & { effectiveRole: string },
  attemptOwnerId: number,
): boolean {
  return user.id === attemptOwnerId || user.effectiveRole === "admin";
}
