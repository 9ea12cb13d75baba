// POST /api/classes/join {code}: the signed-in user joins the class with this code (twice is harmless).
import { api, methods, readJson } from "~/server/api.server";
import { JoinInput, joinClass } from "~/server/classes.server";

export const action = methods({
  POST: api({
    access: "user",
    async handler({ request, db, user }) {
      const { code } = await readJson(request, JoinInput);
      return joinClass(db, user, code);
    },
  }),
});
