// GET /api/assignments: the caller's assignments (compiti) from the classes they are a member of, with their status.
import { api } from "~/server/api.server";
import { myAssignments } from "~/server/assignments.server";

export const loader = api({
  access: "user",
  handler: ({ db, user }) => myAssignments(db, user.id),
});
