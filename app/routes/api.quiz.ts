// GET /api/quiz?subjectId=&topicId=&count=[&time=]      → a random quiz, stored
// GET /api/quiz?subjectId=&topicId=&count=&mode=mirato  → a targeted quiz (learning engine)
// GET /api/quiz?ids=a,b,c                               → a redo of those questions
// POST /api/quiz {subjectId, topicId?, count?, time?, rushEventId?, ids?, mode?} → the same draws, and a Rush quiz.
// A Rush quiz takes the student's one attempt in that subject, so only a POST may start it (issue 28): a GET can be
// sent by any page of any site (a link, an <img>), while a POST must come from our own pages (security.server.ts).
// Both methods count against the draw limit (QUIZ_LIMITER, applied by the Worker).
import { newQuizBodySchema, newQuizSchema } from "~/lib/forms/new-quiz";
import { api, methods, readJson, readQuery } from "~/server/api.server";
import { HttpError } from "~/server/errors.server";
import { drawRequested, RUSH_NEEDS_POST_MESSAGE } from "~/server/quiz.server";

export const loader = api({
  access: "user",
  handler: ({ db, request, user }) => {
    const query = readQuery(request, newQuizSchema);
    if (query.rushEventId != null) throw new HttpError(400, RUSH_NEEDS_POST_MESSAGE);
    return drawRequested(db, user.id, query);
  },
});

export const action = methods({
  POST: api({
    access: "user",
    handler: async ({ db, request, user }) => drawRequested(db, user.id, await readJson(request, newQuizBodySchema)),
  }),
});
