// The server half of a form (issue 19): a route action parses the form with the schema the browser used
// (app/lib/forms.ts), runs the same service as the JSON call, and answers with conform's result.
// - Invalid input: 400 with the field errors; nothing is written. A refusal (HttpError): its status and Italian
//   message as a form error. A 4xx/5xx status also tells React Router not to reload the page's data.
// - A thrown Response (a redirect) passes through.
import { data } from "react-router";
import { parseWithZod } from "@conform-to/zod/v4";
import { ZodError, z, type output, type ZodType } from "zod";
import type { $ZodIssue } from "zod/v4/core";
import type { FormReply } from "~/lib/forms";
import { issueMessage, labelsOf, withLabels, zodMessage } from "~/lib/validation";
import { parseJsonText, readJsonText } from "./api.server";
import { HttpError, retryAfterHeaders } from "./errors.server";

/** Parses a form's data with its schema; every error is an Italian sentence naming the field as the screen does. */
export function parseForm<S extends ZodType>(formData: FormData | URLSearchParams, schema: S) {
  const labels = labelsOf(schema);
  return parseWithZod(formData, {
    schema,
    formatError: (issues: $ZodIssue[]): string[] => issues.map((issue) => issueMessage(issue, labels)),
  });
}

export async function handleForm<S extends ZodType, T>(
  request: Request,
  schema: S,
  run: (value: output<S>) => Promise<T> | T,
  options: { formData?: FormData; resetForm?: boolean } = {},
) {
  const formData = options.formData ?? (await readFormData(request));
  if (!formData)
    return data<FormReply<T>>({ result: { status: "error", error: { "": [UNREADABLE] } } }, { status: 415 });
  const submission = parseForm(formData, schema);
  if (submission.status !== "success") return data<FormReply<T>>({ result: submission.reply() }, { status: 400 });
  try {
    const value = await run(submission.value as output<S>);
    return data<FormReply<T>>({ result: submission.reply({ resetForm: options.resetForm }), value });
  } catch (error) {
    if (error instanceof HttpError) {
      return data<FormReply<T>>(
        { result: submission.reply({ formErrors: [error.message] }) },
        { status: error.status, headers: retryAfterHeaders(error) },
      );
    }
    if (error instanceof ZodError) {
      return data<FormReply<T>>({ result: submission.reply({ formErrors: [zodMessage(error)] }) }, { status: 400 });
    }
    throw error;
  }
}

/**
 * The same for a screen that posts JSON (`fetcher.submit(body, { encType: "application/json" })`): the quiz runner's
 * submission is a list of answers, not a form. Refusals come back as the form error of the reply.
 */
export async function handleJson<S extends ZodType, T>(
  request: Request,
  schema: S,
  run: (value: output<S>) => Promise<T> | T,
) {
  let body: unknown;
  try {
    body = await readJsonBody(request);
  } catch (error) {
    if (error instanceof HttpError) return refusal<T>(error.status, error.message);
    throw error;
  }
  return handleValue(body, schema, run);
}

/** The JSON body of a screen's post (the same size and type rules as the JSON calls). */
export async function readJsonBody(request: Request): Promise<unknown> {
  return parseJsonText(await readJsonText(request));
}

/** A refusal as a form reply: the status, and the Italian message as the form's error (a 429 with Retry-After). */
export function refusal<T = undefined>(status: number, message: string, headers?: HeadersInit) {
  return data<FormReply<T>>({ result: { status: "error", error: { "": [message] } }, status }, { status, headers });
}

/** Validates an already read body with its schema, then runs the write (refusals as in handleJson). */
export async function handleValue<S extends ZodType, T>(
  body: unknown,
  schema: S,
  run: (value: output<S>) => Promise<T> | T,
) {
  const parsed = schema.safeParse(body);
  if (!parsed.success) return refusal<T>(400, zodMessage(parsed.error, labelsOf(schema)));
  try {
    const value = await run(parsed.data as output<S>);
    return data<FormReply<T>>({ result: { status: "success" }, value });
  } catch (error) {
    if (error instanceof HttpError) return refusal<T>(error.status, error.message, retryAfterHeaders(error));
    throw error;
  }
}

const UNREADABLE = "Dati del modulo non leggibili: ricarica la pagina e riprova.";

async function readFormData(request: Request): Promise<FormData | null> {
  try {
    return await request.formData();
  } catch {
    return null;
  }
}

/**
 * A screen with several writes posts JSON with an `intent`; `table` maps each intent to its write (usually
 * `(body) => handleValue(body, schema, run)`). An unknown intent (said as `unknown`) or an unreadable body is a
 * 400 / 415 refusal.
 */
export async function handleIntent<T extends Record<string, (body: unknown) => Promise<unknown>>>(
  request: Request,
  table: T,
  unknown = "Operazione non riconosciuta.",
): Promise<Awaited<ReturnType<T[keyof T]>> | ReturnType<typeof refusal>> {
  let body: unknown;
  try {
    body = await readJsonBody(request);
  } catch (error) {
    if (error instanceof HttpError) return refusal(error.status, error.message);
    throw error;
  }
  const intent = typeof body === "object" && body !== null ? (body as { intent?: unknown }).intent : undefined;
  const write = typeof intent === "string" && Object.hasOwn(table, intent) ? table[intent] : undefined;
  return write ? ((await write(body)) as Awaited<ReturnType<T[keyof T]>>) : refusal(400, unknown);
}

/** The ids of a bulk write ('Elimina selezionati'): at most 500 positive integers. */
export const bulkIdsSchema = withLabels(
  z.object({
    intent: z.string(),
    ids: z.array(z.number().int().positive(), "Elenco di id non valido").min(1, "Nessuna riga selezionata").max(500),
  }),
  { intent: "Operazione", ids: "Righe selezionate" },
);

/** Runs a write on each id, one after the other; the reply counts what failed (the screen says so once). */
export async function eachId(ids: number[], write: (id: number) => Promise<unknown>) {
  let failed = 0;
  for (const id of ids) {
    try {
      await write(id);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      failed++;
    }
  }
  return { done: ids.length - failed, failed };
}
