import { ZodError } from "zod";
import { zodMessage } from "~/lib/validation";

// Field labels and Italian zod messages live in app/lib/validation.ts (the forms use them in the browser too).
export { labelsOf, withLabels, zodMessage, type FieldLabels } from "~/lib/validation";

/** An error whose status and Italian message are meant for the user. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, extra?: Record<string, unknown>) => new HttpError(400, message, extra);
export const notFound = (message: string) => new HttpError(404, message);
export const forbidden = (message = "Non hai i permessi per questa operazione.") => new HttpError(403, message);
export const conflict = (message: string) => new HttpError(409, message);

/** The Retry-After header of a rate-limit refusal (limitAction's `retryAfter`), none for any other error. */
export function retryAfterHeaders(error: HttpError): Record<string, string> | undefined {
  const seconds = error.extra.retryAfter;
  return typeof seconds === "number" ? { "Retry-After": String(seconds) } : undefined;
}

export function errorResponse(error: unknown): Response {
  if (error instanceof Response) return error;
  if (error instanceof HttpError) {
    const { retryAfter: _, ...extra } = error.extra;
    return Response.json(
      { error: error.message, ...extra },
      { status: error.status, headers: retryAfterHeaders(error) },
    );
  }
  if (error instanceof ZodError) {
    return Response.json({ error: zodMessage(error) }, { status: 400 });
  }
  console.error("Unhandled API error", error);
  return Response.json({ error: "Errore interno del server. Riprova tra poco." }, { status: 500 });
}
