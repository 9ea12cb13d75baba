// Starting the exam day alone (issue 46, point 2), as the server reads it from /giornata's action and POST
// /api/me/exam-days: the edition the screen showed (the default one; another is refused), nothing else.
import { z } from "zod";
import { SOLO_TEXT } from "../solo-day";
import { withLabels } from "../validation";

const E = SOLO_TEXT.errors;

export const soloDayStartSchema = withLabels(
  z.strictObject({
    editionId: z.number({ error: E.edition }).int({ error: E.edition }).positive({ error: E.edition }).optional(),
  }),
  { editionId: "Edizione" },
);
