// /admin/classi: the console's Classi tab (teachers and admins). Its loader reads the classes the user manages and,
// with ?classe=ID, the members and the unanswered invitations of the class whose dialog is open; the tab's writes
// post here (JSON with an intent), through the same services, schemas, ownership rules and limits as /api/classes*:
// a teacher manages only their own classes, and pasted e-mails become invitations.
import { z } from "zod";
import { ClassiTab } from "~/components/admin/ClassiTab";
import { withLabels, withParentLabels } from "~/lib/validation";
import { adminTabUser } from "~/server/admin/tab-guard.server";
import { inviteByEmail, sentInvitations } from "~/server/class-invitations.server";
import {
  AddMembersInput,
  ClassNameInput,
  createClass,
  deleteClass,
  managedClasses,
  membersOf,
  removeMember,
  renewCode,
} from "~/server/classes.server";
import { dbOf, getEnv } from "~/server/context";
import { extraTimePct } from "~/lib/forms/extra-time";
import { setMemberExtraTime } from "~/server/accommodations.server";
import { handleIntent, handleValue } from "~/server/form.server";
import { limitAction } from "~/server/security.server";
import type { Route } from "./+types/admin.classi";

export async function loader(args: Route.LoaderArgs) {
  const user = await adminTabUser(args, "classi");
  const db = dbOf(args.context);
  const classes = await managedClasses(db, user);
  const opened = Number(new URL(args.request.url).searchParams.get("classe"));
  // A class that is not (or no longer) the user's opens nothing.
  const open = classes.some((c) => c.id === opened)
    ? { id: opened, members: await membersOf(db, opened), invitations: await sentInvitations(db, opened) }
    : null;
  return { classes, open };
}

const classId = z.number("Classe non valida").int().positive();
const oneClass = withLabels(z.object({ intent: z.string(), classId }), { intent: "Operazione", classId: "Classe" });
const member = withLabels(
  z.object({ intent: z.string(), classId, userId: z.number("Studente non valido").int().positive() }),
  {
    intent: "Operazione",
    classId: "Classe",
    userId: "Studente",
  },
);
const extraTime = withLabels(
  z.object({
    intent: z.string(),
    classId,
    userId: z.number("Studente non valido").int().positive(),
    extraTimePct,
  }),
  { intent: "Operazione", classId: "Classe", userId: "Studente", extraTimePct: "Tempo aggiuntivo" },
);
const create = withParentLabels(ClassNameInput.extend({ intent: z.string() }), ClassNameInput, {
  intent: "Operazione",
});
const addMembers = withParentLabels(AddMembersInput.extend({ intent: z.string(), classId }), AddMembersInput, {
  intent: "Operazione",
  classId: "Classe",
});

export async function action(args: Route.ActionArgs) {
  const user = await adminTabUser(args, "classi");
  const db = dbOf(args.context);
  const env = getEnv(args.context);
  return handleIntent(args.request, {
    create: (body) => handleValue(body, create, ({ name }) => createClass(db, user, name)),
    "add-members": (body) =>
      handleValue(body, addMembers, async ({ classId, emails }) => {
        await limitAction(env, "CLASS_INVITE_LIMITER", user.id);
        return inviteByEmail(db, user, classId, emails);
      }),
    "remove-member": (body) =>
      handleValue(body, member, ({ classId, userId }) => removeMember(db, user, classId, userId)),
    "extra-time": (body) =>
      handleValue(body, extraTime, ({ classId, userId, extraTimePct }) =>
        setMemberExtraTime(db, user, classId, userId, extraTimePct),
      ),
    "renew-code": (body) => handleValue(body, oneClass, ({ classId }) => renewCode(db, user, classId)),
    delete: (body) => handleValue(body, oneClass, ({ classId }) => deleteClass(db, user, classId)),
  });
}

export default function AdminTab({ loaderData }: Route.ComponentProps) {
  return <ClassiTab classes={loaderData.classes} open={loaderData.open} />;
}
