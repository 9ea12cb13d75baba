import { api } from "~/server/api.server";
import { dueReview, parseHorizon } from "~/server/learning-advice.server";

// GET /api/review/due?horizon=1d: the signed-in student's questions due for review by now + horizon
// (default: due now; Nd / Nh up to 30d), most overdue first. Ids and dates only, never answer keys.
export const loader = api({
  access: "user",
  handler: ({ db, request, user }) => {
    const horizon = parseHorizon(new URL(request.url).searchParams.get("horizon"));
    return dueReview(db, user.id, horizon);
  },
});
