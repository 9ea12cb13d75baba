import { Link, useLoaderData } from "react-router";
import { ClassesSection } from "~/components/profile/ClassesSection";
import { FriendsSection } from "~/components/profile/FriendsSection";
import { ProfileForm } from "~/components/profile/ProfileForm";
import { DangerZone } from "~/components/profile/DangerZone";
import { joinedClasses } from "~/server/classes.server";
import { SessionsSection } from "~/components/profile/SessionsSection";
import { dbOf } from "~/server/context";
import { friendsOverview } from "~/server/friends.server";
import { requirePageUser } from "~/server/page-guard.server";
import { activeSessions, getProfile } from "~/server/profile.server";
import "~/styles/profile.css";
import type { Route } from "./+types/profilo";

export async function loader(args: Route.LoaderArgs) {
  const user = await requirePageUser(args);
  const db = dbOf(args.context);
  const [profile, friends, classes, sessions] = await Promise.all([
    getProfile(db, user.id),
    friendsOverview(db, user.id),
    joinedClasses(db, user.id),
    activeSessions(db, user),
  ]);
  return { userId: user.id, profile, friends, classes, sessions };
}

export default function ProfileScreen() {
  const { userId, profile, friends, classes, sessions } = useLoaderData<typeof loader>();
  return (
    <section className="page profile">
      <p className="profile__back">
        <Link to="/dashboard">← Torna alla dashboard</Link>
      </p>
      <h1 className="page__title">PROFILO</h1>
      <ProfileForm initial={profile} />
      <FriendsSection overview={friends} />
      <ClassesSection userId={userId} classes={classes} />
      <SessionsSection sessions={sessions} />
      <DangerZone />
    </section>
  );
}
