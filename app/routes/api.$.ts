import { api } from "~/server/api.server";
import { HttpError } from "~/server/errors.server";

// Unknown /api paths answer JSON, not the HTML 404 page.
const unknownPath = api({
  access: "public",
  async handler() {
    throw new HttpError(404, "Indirizzo API inesistente.");
  },
});

export const loader = unknownPath;
export const action = unknownPath;
