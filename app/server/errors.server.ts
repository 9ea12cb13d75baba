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

export function errorResponse(error: unknown): Response {
  if (error instanceof Response) return error;
  if (error instanceof HttpError) {
    return Response.json({ error: error.message, ...error.extra }, { status: error.status });
  }
  if (error instanceof ZodError) {
    return Response.json({ error: zodMessage(error) }, { status: 400 });
  }
  console.error("Unhandled API error", error);
  return Response.json({ error: "Errore interno del server. Riprova tra poco." }, { status: 500 });
}
