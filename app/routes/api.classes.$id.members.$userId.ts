// DELETE /api/classes/:id/members/:userId: the teacher removes a student, or a student leaves
// (userId = their own id). Everyone else: 403.
// PATCH /api/classes/:id/members/:userId {extraTimePct}: the class's teacher (or an admin) sets the pupil's
// accommodation, extra time 0-100 % (accommodations.server.ts); another teacher: 403.
import { z } from "zod";
import { extraTimePct } from "~/lib/forms/extra-time";
import { setMemberExtraTime } from "~/server/accommodations.server";
import { api, idParam, methods, readJson } from "~/server/api.server";
import { removeMember } from "~/server/classes.server";

const ExtraTimeInput = z.object({ extraTimePct });

export const action = methods({
  DELETE: api({
    access: "user",
    handler: ({ params, db, user }) => removeMember(db, user, idParam(params.id), idParam(params.userId, "userId")),
  }),
  PATCH: api({
    access: "teacher",
    async handler({ request, params, db, user }) {
      const classId = idParam(params.id);
      const userId = idParam(params.userId, "userId");
      const body = await readJson(request, ExtraTimeInput);
      return setMemberExtraTime(db, user, classId, userId, body.extraTimePct);
    },
  }),
});
