import { api } from "~/server/api.server";
import { studentAnalytics } from "~/server/analytics.server";

// GET /api/me/analytics: the signed-in student's analytics (spec section 3).
export const loader = api({
  access: "user",
  handler: ({ db, user }) => studentAnalytics(db, user.id),
});
