// The extra-time percentage as the server reads it (an admin's user dialog, a teacher's class, the JSON call).
// Apart from simulation-day.ts so the screens that only show the choices do not ship zod.
import { z } from "zod";
import { EXTRA_TIME_MAX, EXTRA_TIME_TEXT } from "../simulation-day";

export const extraTimePct = z.coerce
  .number({ error: EXTRA_TIME_TEXT.invalid })
  .int({ error: EXTRA_TIME_TEXT.invalid })
  .min(0, { error: EXTRA_TIME_TEXT.invalid })
  .max(EXTRA_TIME_MAX, { error: EXTRA_TIME_TEXT.invalid });
