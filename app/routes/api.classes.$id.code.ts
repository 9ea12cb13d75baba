// POST /api/classes/:id/code: a new join code; the old one stops working.
import { api, idParam, methods } from "~/server/api.server";
import { renewCode } from "~/server/classes.server";

export const action = methods({
  POST: api({
    access: "teacher",
    handler: ({ params, db, user }) => renewCode(db, user, idParam(params.id)),
  }),
});
