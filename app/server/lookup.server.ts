// A screen's small read through a fetcher (issue 19: a component no longer fetches): the console's search, a
// question or a user opened in a dialog, a friend's statistics. The loader answers { value } or, when the service
// refuses (not found, not yours, a bad query), { error } with the Italian message: a fetcher's thrown error would
// replace the screen with the error page, where a dialog only has to say what went wrong.
import type { z } from "zod";
import { labelsOf, zodMessage } from "~/lib/validation";
import { HttpError } from "./errors.server";

export type Lookup<T> = { value: T; error?: undefined } | { value?: undefined; error: string };

export async function lookup<T>(run: () => Promise<T>): Promise<Lookup<T>> {
  try {
    return { value: await run() };
  } catch (error) {
    if (error instanceof HttpError) return { error: error.message };
    throw error;
  }
}

/** The URL's search parameters read by `schema`, or an HttpError 400 with its Italian message (for `lookup`). */
export function lookupQuery<S extends z.ZodType>(request: Request, schema: S) {
  const parsed = schema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) throw new HttpError(400, zodMessage(parsed.error, labelsOf(schema)));
  return parsed.data as z.infer<S>;
}
