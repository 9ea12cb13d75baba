import { data, Link, useLoaderData } from "react-router";
import { z } from "zod";
import { ClassesSection } from "~/components/profile/ClassesSection";
import { FriendsSection } from "~/components/profile/FriendsSection";
import { ProfileForm } from "~/components/profile/ProfileForm";
import { DangerZone } from "~/components/profile/DangerZone";
import { JoinInput, joinClass, joinedClasses, removeMember } from "~/server/classes.server";
import { acceptInvitation, declineInvitation, invitationsFor } from "~/server/class-invitations.server";
import { keepsSession, orFailure, type FormReply } from "~/lib/forms";
import { inviteSchema } from "~/lib/forms/friends";
import { deleteAccountSchema, profileUpdateSchema } from "~/lib/forms/profile";
import { withLabels } from "~/lib/validation";
import { handleIntent, handleValue } from "~/server/form.server";
import { limitAction } from "~/server/security.server";
import { clearSessionCookie, endAllSessions } from "~/server/session.server";
import { SessionsSection } from "~/components/profile/SessionsSection";
import { AccommodationSection } from "~/components/profile/AccommodationSection";
import { practiceAccommodation, setPracticeExtraTime } from "~/server/accommodations.server";
import { dbOf, getEnv } from "~/server/context";
import { acceptFriend, endFriendship, friendsOverview, inviteFriend } from "~/server/friends.server";
import { requirePageUser } from "~/server/page-guard.server";
import { activeSessions, deleteAccountConfirmed, getProfile, updateProfile } from "~/server/profile.server";
import "~/styles/profile.css";
import type { Route } from "./+types/profilo";

export async function loader(args: Route.LoaderArgs) {
  const user = await requirePageUser(args);
  const db = dbOf(args.context);
  const [profile, friends, classes, invitations, sessions, accommodation] = await Promise.all([
    getProfile(db, user.id),
    friendsOverview(db, user.id),
    joinedClasses(db, user.id),
    invitationsFor(db, user),
    activeSessions(db, user),
    practiceAccommodation(db, user.id),
  ]);
  return { userId: user.id, profile, friends, classes, invitations, sessions, accommodation };
}

/**
 * POST /profilo (JSON with an `intent`): every write of the profile screen, through the same services, schemas and
 * limits as its JSON calls (POST /api/profile, /api/friends…, /api/classes/join, /api/classes/invitations…,
 * DELETE /api/profile/sessions…).
 * The reply is the form's; signing out everywhere and deleting the account also clear the session cookie.
 */
export async function action(args: Route.ActionArgs) {
  const user = await requirePageUser(args);
  const db = dbOf(args.context);
  const env = getEnv(args.context);
  const signedOut = { headers: { "Set-Cookie": clearSessionCookie(args.request) } };
  return handleIntent(args.request, {
    profile: (body) => handleValue(body, profileUpdateSchema, (patch) => updateProfile(db, user.id, patch)),
    invite: (body) =>
      handleValue(body, inviteSchema, async ({ handle }) => {
        await limitAction(env, "INVITE_LIMITER", user.id);
        return inviteFriend(db, user.id, handle);
      }),
    "accept-friend": (body) =>
      handleValue(body, friendshipSchema, ({ friendshipId }) => acceptFriend(db, user.id, friendshipId)),
    "end-friendship": (body) =>
      handleValue(body, friendshipSchema, ({ friendshipId }) => endFriendship(db, user.id, friendshipId)),
    "join-class": (body) =>
      handleValue(body, JoinInput, async ({ code }) => {
        await limitAction(env, "CLASS_JOIN_LIMITER", user.id);
        return joinClass(db, user, code);
      }),
    "accept-invitation": (body) =>
      handleValue(body, invitationSchema, ({ invitationId }) => acceptInvitation(db, user, invitationId)),
    "decline-invitation": (body) =>
      handleValue(body, invitationSchema, ({ invitationId }) => declineInvitation(db, user, invitationId)),
    "leave-class": (body) => handleValue(body, classSchema, ({ classId }) => removeMember(db, user, classId, user.id)),
    "extra-time-practice": (body) =>
      handleValue(body, practiceSchema, ({ apply }) => setPracticeExtraTime(db, user.id, apply)),
    "sign-out-everywhere": async () => {
      await endAllSessions(db, user.id);
      return data<FormReply<{ signedOut: boolean }>>(
        { result: { status: "success" }, value: { signedOut: true } },
        signedOut,
      );
    },
    "delete-account": async (body) => {
      const reply = await handleValue(body, deleteAccountSchema, async ({ confirm }) => {
        await deleteAccountConfirmed(db, user.id, confirm);
        return { signedOut: true };
      });
      return reply.init?.status ? reply : data(reply.data, signedOut);
    },
  });
}

const friendshipSchema = withLabels(z.object({ friendshipId: z.number("Invito non valido").int().positive() }), {
  friendshipId: "Invito",
});
const invitationSchema = withLabels(z.object({ invitationId: z.number("Invito non valido").int().positive() }), {
  invitationId: "Invito",
});
const practiceSchema = withLabels(z.object({ apply: z.boolean("Scelta non valida") }), {
  apply: "Tempo aggiuntivo nelle esercitazioni",
});
const classSchema = withLabels(z.object({ classId: z.number("Classe non valida").int().positive() }), {
  classId: "Classe",
});

export const shouldRevalidate = keepsSession;

export function clientAction({ serverAction }: Route.ClientActionArgs) {
  return orFailure(serverAction, "Errore di rete: controlla la connessione e riprova.");
}

export default function ProfileScreen() {
  const { userId, profile, friends, classes, invitations, sessions, accommodation } = useLoaderData<typeof loader>();
  return (
    <section className="page profile">
      <p className="profile__back">
        <Link to="/dashboard">← Torna alla dashboard</Link> · <Link to="/segnalato">Le tue segnalazioni</Link>
      </p>
      <h1 className="page__title">PROFILO</h1>
      <ProfileForm initial={profile} />
      <AccommodationSection pct={accommodation.pct} practice={accommodation.practice} />
      <FriendsSection overview={friends} />
      <ClassesSection userId={userId} classes={classes} invitations={invitations} />
      <SessionsSection sessions={sessions} />
      <DangerZone />
    </section>
  );
}
