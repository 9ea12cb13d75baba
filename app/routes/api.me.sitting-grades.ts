// The grades a student received at the default edition's sittings (issue 46, point 3): GET what they entered, read by
// the edition's rules (section, ranking score, best of the two sittings, what the next can improve) with the other
// students' aggregates (at least 30); POST {editionId, sittingDate, grades: [{subjectId, grade | null}]} enters one
// sitting's. Private: the signed-in student's own rows only.
import { sittingGradesSchema } from "~/lib/forms/study-plan";
import { api, methods, readJson } from "~/server/api.server";
import { defaultEdition } from "~/server/editions.server";
import { saveSittingGrades } from "~/server/sitting-grades.server";
import { planPage } from "~/server/study-plan-page.server";

export const loader = api({
  access: "user",
  async handler({ db, user }) {
    const { results, aggregates } = await planPage(db, user.id);
    return { results, aggregates };
  },
});

export const action = methods({
  POST: api({
    access: "user",
    async handler({ request, db, user }) {
      const edition = await defaultEdition(db);
      await saveSittingGrades(db, user.id, edition, await readJson(request, sittingGradesSchema(edition.format)));
      const { results, aggregates } = await planPage(db, user.id);
      return { results, aggregates };
    },
  }),
});
