// Admin routes refuse a caller without the role BEFORE saying anything about the method: a method a
// route does not serve still answers 401/403 first, and only then 405.
import { api, type ApiHandler } from "../api.server";
import { HttpError } from "../errors.server";
import type { Access } from "../session.server";

/** Export as `loader` (or `action`) of a route that does not serve that method; marked for the matrix. */
export function unsupportedMethod(access: Exclude<Access, "public">): ApiHandler & { unsupported: true } {
  const handler = api({
    access,
    async handler() {
      throw new HttpError(405, "Metodo non consentito per questo indirizzo.");
    },
  });
  return Object.assign(handler, { unsupported: true as const });
}
