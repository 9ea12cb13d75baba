// Inviting a friend (issue 19: one schema for /profilo's action and POST /api/friends).
import { z } from "zod";
import { withLabels } from "../validation";

export const inviteSchema = withLabels(
  z.object({
    handle: z
      .string("Scrivi il nome utente o il codice dell'amico.")
      .trim()
      .min(2, "Scrivi il nome utente o il codice dell'amico.")
      .max(40, "Nome utente o codice troppo lungo."),
  }),
  { handle: "Nome utente o codice dell'amico" },
);
