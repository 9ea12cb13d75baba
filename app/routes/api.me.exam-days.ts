// The exam day alone (issue 46, point 2): GET the default edition's day as the caller would sit it, the day of theirs
// still running and their past days; POST {editionId?} starts one (201 {id, startTime, endsAt}; 409 while one runs,
// 400 for another edition). The caller's own only: no user id is ever read from the request.
import { soloDayStartSchema } from "~/lib/forms/solo-day";
import { api, methods, readJson } from "~/server/api.server";
import { soloDayPage, startSoloDay } from "~/server/simulation/solo.server";

export const loader = api({
  access: "user",
  handler: ({ db, user }) => soloDayPage(db, user.id),
});

export const action = methods({
  POST: api({
    access: "user",
    async handler({ request, db, env, user }) {
      const input = await readJson(request, soloDayStartSchema);
      return Response.json(await startSoloDay(db, env, user.id, input), { status: 201 });
    },
  }),
});
