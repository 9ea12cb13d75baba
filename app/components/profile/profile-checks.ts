// The profile form's check as you type: the server's own schema (app/lib/forms/profile.ts) and its Italian messages.
// Its own chunk: ProfileForm imports it when the form is first used, so /profilo does not ship zod up front.
import { profileUpdateSchema } from "~/lib/forms/profile";
import { issueMessage, labelsOf } from "~/lib/validation";

/** The first error of each field (by field name), as the server would word it; {} when the form is valid. */
export function profileFieldErrors(body: Record<string, unknown>): Record<string, string> {
  const parsed = profileUpdateSchema.safeParse(body);
  if (parsed.success) return {};
  const labels = labelsOf(profileUpdateSchema);
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= issueMessage(issue, labels);
  return errors;
}
