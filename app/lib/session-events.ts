// How any call that meets 401/403/423 tells the session overlay to appear (spec section 4).
export type SessionProblem = { kind: "expired" } | { kind: "suspended"; reason: string };

export const SESSION_EVENT = "unicum:session";
export const SUSPENDED_REASON_KEY = "unicum_suspended_reason";

/** Clears the locally stored user and token (the cookie is cleared by the server). */
export function clearLocalSession() {
  try {
    localStorage.removeItem("jwt");
    localStorage.removeItem("user");
  } catch {
    // storage unavailable (private mode): nothing to clear
  }
}

export function reportSessionProblem(problem: SessionProblem) {
  clearLocalSession();
  if (problem.kind === "suspended") {
    try {
      localStorage.setItem(SUSPENDED_REASON_KEY, problem.reason);
    } catch {
      // ignore
    }
  }
  const listened = !window.dispatchEvent(new CustomEvent(SESSION_EVENT, { detail: problem, cancelable: true }));
  // No overlay mounted to cancel the event: fall back to the login page.
  if (!listened) window.location.assign("/login");
}
