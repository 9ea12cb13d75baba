import { ZodError } from "zod";

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

const FIELD_LABELS: Record<string, string> = {};

/** Turns a zod failure into one readable Italian sentence naming the field. */
export function zodMessage(error: ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "Dati non validi.";
  const path = issue.path.join(".");
  const field = FIELD_LABELS[path] ?? path;
  // Schemas carry Italian messages; zod's own English defaults are replaced by a generic one.
  const own = issue.message && !/^(Invalid|Expected|Too|Unrecognized|Required)/i.test(issue.message) ? issue.message : null;
  if (own) return field ? `${own} (campo: ${field})` : own;
  return field ? `Valore non valido per il campo "${field}".` : "Dati non validi.";
}

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
