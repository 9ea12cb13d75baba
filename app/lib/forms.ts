// One schema per form (issue 19): the same zod schema, with its Italian field labels (withLabels), validates the
// form in the browser (conform's onValidate) and in the route action (app/server/form.server.ts), so both sides
// show the same messages. Schemas live in app/lib/forms/<form>.ts.
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ZodType } from "zod";
import type { $ZodIssue } from "zod/v4/core";
import { issueMessage, labelsOf } from "./validation";

/** Parses a form's data with its schema; every error is an Italian sentence naming the field as the screen does. */
export function parseForm<S extends ZodType>(formData: FormData | URLSearchParams, schema: S) {
  const labels = labelsOf(schema);
  return parseWithZod(formData, {
    schema,
    formatError: (issues: $ZodIssue[]): string[] => issues.map((issue) => issueMessage(issue, labels)),
  });
}

/**
 * What a form's action returns: conform's `result` (field and form errors, for `useForm({ lastResult })`) and,
 * when the write succeeded, the value the screen shows next.
 */
export type FormReply<T = undefined> = { result: SubmissionResult<string[]>; value?: T };

/** The first form-level error of a reply (a refusal from the server: "Non hai i permessi…"), or null. */
export function formError(reply: { result?: SubmissionResult<string[]> } | undefined | null): string | null {
  return reply?.result?.error?.[""]?.[0] ?? null;
}
