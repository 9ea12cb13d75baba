// GET /api/quiz?subjectId=&topicId=&count=[&time=][&rushEventId=]  → a random quiz, stored
// GET /api/quiz?subjectId=&topicId=&count=&mode=mirato              → a targeted quiz (learning engine)
// GET /api/quiz?ids=a,b,c                                           → a redo of those questions
import { newQuizSchema } from "~/lib/forms/new-quiz";
import { api, readQuery } from "~/server/api.server";
import { drawRequested } from "~/server/quiz.server";

export const loader = api({
  access: "user",
  handler: ({ db, request, user }) => drawRequested(db, user.id, readQuery(request, newQuizSchema)),
});
