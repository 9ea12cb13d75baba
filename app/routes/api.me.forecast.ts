import { api } from "~/server/api.server";
import { keepForecastDay } from "~/server/forecast-days.server";
import { scoreForecast } from "~/server/learning-advice.server";

// GET /api/me/forecast: the expected exam score per subject with its 80 % interval (learning engine); today's value
// is kept (forecast-days.server.ts: compared with the grades of the next sitting).
export const loader = api({
  access: "user",
  async handler({ db, user }) {
    const now = Date.now();
    const forecast = await scoreForecast(db, user.id, now);
    await keepForecastDay(db, user.id, forecast.subjects, now);
    return forecast;
  },
});
