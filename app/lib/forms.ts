// One schema per form (issue 19): the same zod schema, with its Italian field labels (withLabels), validates the
// form in the route action (app/server/form.server.ts) and, where a screen checks as you type, in the browser (loaded
// when the form is first used), so both sides show the same messages. Schemas live in app/lib/forms/<form>.ts.
// This module is what every screen shares about a form's reply: no zod, no conform runtime.
import type { SubmissionResult } from "@conform-to/react";

/**
 * What a form's action returns: conform's `result` (field and form errors, for `useForm({ lastResult })`) and,
 * when the write succeeded, the value the screen shows next.
 */
export type FormReply<T = undefined> = {
  result: SubmissionResult<string[]>;
  value?: T;
  /** A refusal's HTTP status (0: the write never reached the server), for screens that retry only some. */
  status?: number;
};

/**
 * A screen's clientAction around its server action: a write that cannot reach the server (offline, a proxy's error
 * page) answers as a refusal with `message` instead of replacing the screen with the error page, so the dialog or
 * the runner keeps what the user typed. Redirects pass through.
 */
export async function orFailure<T>(serverAction: () => Promise<unknown>, message: string): Promise<FormReply<T>> {
  try {
    return (await serverAction()) as FormReply<T>;
  } catch (error) {
    if (error instanceof Response) throw error;
    return { result: { status: "error", error: { "": [message] } }, status: 0 };
  }
}

/**
 * After a write that signed the user out (sign out everywhere, account deleted) the screen leaves by itself: the
 * signed-in routes must not reload their data (they would bounce to /login first). Their shouldRevalidate asks this.
 */
export function keepsSession(args: { actionResult?: unknown; defaultShouldRevalidate: boolean }): boolean {
  const value = (args.actionResult as FormReply<{ signedOut?: boolean }> | undefined)?.value;
  return value?.signedOut ? false : args.defaultShouldRevalidate;
}

/** A refused write, for code that awaits a reply inside try/catch (the message is the server's, in Italian). */
export class RefusedError extends Error {}

/** The reply's value when the write succeeded; otherwise throws RefusedError with the refusal's message. */
export function succeeded<T>(reply: FormReply<T>, fallback = "Operazione non riuscita."): T | undefined {
  if (reply.result.status === "success") return reply.value;
  throw new RefusedError(formError(reply) ?? fallback);
}

/**
 * The first error of a reply: the form's own (a refusal from the server: "Non hai i permessi…") or else the first
 * field's, for screens that show one message line; null when the write succeeded.
 */
export function formError(reply: { result?: SubmissionResult<string[]> } | undefined | null): string | null {
  const errors = reply?.result?.error;
  if (!errors) return null;
  return errors[""]?.[0] ?? Object.values(errors).find((list) => list?.length)?.[0] ?? null;
}
