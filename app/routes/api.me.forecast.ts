import { api } from "~/server/api.server";
import { scoreForecast } from "~/server/learning-advice.server";

// GET /api/me/forecast: the expected exam score per subject with its 80 % interval (learning engine).
export const loader = api({
  access: "user",
  handler: ({ db, user }) => scoreForecast(db, user.id),
});
