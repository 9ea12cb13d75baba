// GET /api/admin/questions/{id} (the report editor's lookup, with the correct option first) and
// PUT {stem, explanation, options[{text}], difficulty, type}. Staff: moderators edit from 'Apri'.
import { api, idParam, methods, readJson } from "~/server/api.server";
import { questionEditSchema, questionForEditor, updateQuestion } from "~/server/admin/reports.server";

export const loader = api({
  access: "staff",
  async handler({ params, db }) {
    return questionForEditor(db, idParam(params.id));
  },
});

export const action = methods({
  PUT: api({
    access: "staff",
    async handler({ request, params, db, user }) {
      const id = idParam(params.id);
      return updateQuestion(db, user, id, await readJson(request, questionEditSchema));
    },
  }),
});
