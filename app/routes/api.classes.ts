// GET /api/classes: a teacher's own classes with member counts (an admin: every class); a student's
// joined classes. POST /api/classes {name} (teacher or admin) → {id, name, code}.
import { api, methods, readJson } from "~/server/api.server";
import { ClassNameInput, classesFor, createClass } from "~/server/classes.server";

export const loader = api({
  access: "user",
  handler: ({ db, user }) => classesFor(db, user),
});

export const action = methods({
  POST: api({
    access: "teacher",
    async handler({ request, db, user }) {
      const { name } = await readJson(request, ClassNameInput);
      return Response.json(await createClass(db, user, name), { status: 201 });
    },
  }),
});
