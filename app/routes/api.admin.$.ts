import { api } from "~/server/api.server";
import { HttpError } from "~/server/errors.server";

// Any admin path not (yet) served by its own route: the role is checked first, then 404.
const unknownAdminPath = api({
  access: "admin",
  async handler() {
    throw new HttpError(404, "Indirizzo API inesistente.");
  },
});

export const loader = unknownAdminPath;
export const action = unknownAdminPath;
