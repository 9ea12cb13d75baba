// The browser's wrapper for JSON calls: same-origin cookie session, Italian error messages,
// and the session overlay on 401/403/423 (spec sections 4 and 7).
import { reportSessionProblem } from "./session-events";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export async function apiFetch<T = unknown>(
  path: string,
  init: RequestInit & { json?: unknown; sessionOverlay?: boolean } = {},
): Promise<T> {
  const { json, sessionOverlay = true, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (json !== undefined) headers.set("Content-Type", "application/json");
  const response = await fetch(path, {
    credentials: "same-origin",
    ...rest,
    headers,
    body: json !== undefined ? JSON.stringify(json) : rest.body,
  });
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) {
    if (sessionOverlay && response.status === 423) {
      reportSessionProblem({ kind: "suspended", reason: String(body.reason ?? "") });
    } else if (sessionOverlay && (response.status === 401 || response.status === 403)) {
      reportSessionProblem({ kind: "expired" });
    }
    throw new ApiError(response.status, typeof body.error === "string" ? body.error : "Errore di rete", body);
  }
  return body as T;
}
