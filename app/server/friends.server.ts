// Friend comparison: a student invites another by username or share code, the other accepts, and
// either can end it. Only an accepted friendship lets one read the other's analytics.
import { and, desc, eq, or, sql } from "drizzle-orm";
import type { Db } from "./db/client.server";
import { friendships, users } from "./db/schema";
import { HttpError } from "./errors.server";

export type FriendPerson = { userId: number; name: string; username: string | null };
export type FriendshipView = FriendPerson & { friendshipId: number; since: string };

export type FriendsOverview = {
  /** The code others can type to invite you. */
  shareCode: string;
  friends: FriendshipView[];
  /** Invitations you received and can accept or refuse. */
  incoming: FriendshipView[];
  /** Invitations you sent that are still waiting. */
  outgoing: FriendshipView[];
};

const SHARE_CODE = /^U\d{5,}$/i;

/** The user's share code, created on first use (U + id on five digits, like the seed's). */
export async function ensureShareCode(db: Db, userId: number): Promise<string> {
  const row = await db.select({ shareCode: users.shareCode }).from(users).where(eq(users.id, userId)).get();
  if (row?.shareCode) return row.shareCode;
  const code = `U${String(userId).padStart(5, "0")}`;
  await db.update(users).set({ shareCode: code }).where(eq(users.id, userId));
  return code;
}

/** Every friendship and invitation of the user, newest first, with the other person's names. */
function friendshipRows(db: Db, userId: number) {
  return db
    .select({
      id: friendships.id,
      requesterId: friendships.requesterId,
      addresseeId: friendships.addresseeId,
      status: friendships.status,
      createdAt: friendships.createdAt,
      respondedAt: friendships.respondedAt,
      otherId: users.id,
      otherName: users.name,
      otherFirst: users.firstName,
      otherLast: users.lastName,
      otherUsername: users.username,
    })
    .from(friendships)
    .innerJoin(
      users,
      sql`${users.id} = CASE WHEN ${friendships.requesterId} = ${userId} THEN ${friendships.addresseeId} ELSE ${friendships.requesterId} END`,
    )
    .where(or(eq(friendships.requesterId, userId), eq(friendships.addresseeId, userId)))
    .orderBy(desc(friendships.id));
}

type FriendshipRow = Awaited<ReturnType<typeof friendshipRows>>[number];

function toView(r: FriendshipRow): FriendshipView {
  return {
    friendshipId: r.id,
    userId: r.otherId,
    name: r.otherName || [r.otherFirst, r.otherLast].filter(Boolean).join(" ") || (r.otherUsername ?? ""),
    username: r.otherUsername,
    since: (r.respondedAt ?? r.createdAt).toISOString(),
  };
}

const byMostRecent = (a: FriendshipView, b: FriendshipView) => b.since.localeCompare(a.since);

export async function friendsOverview(db: Db, userId: number): Promise<FriendsOverview> {
  const [shareCode, rows] = await Promise.all([ensureShareCode(db, userId), friendshipRows(db, userId)]);
  const overview: FriendsOverview = { shareCode, friends: [], incoming: [], outgoing: [] };
  for (const r of rows) {
    const view = toView(r);
    if (r.status === "accepted") overview.friends.push(view);
    else if (r.addresseeId === userId) overview.incoming.push(view);
    else overview.outgoing.push(view);
  }
  overview.friends.sort(byMostRecent);
  return overview;
}

/** The accepted friends only (what the dashboard compares with), most recent first: one read, nothing written. */
export async function acceptedFriends(db: Db, userId: number): Promise<FriendshipView[]> {
  const rows = await friendshipRows(db, userId);
  return rows
    .filter((r) => r.status === "accepted")
    .map(toView)
    .sort(byMostRecent);
}

/** The friend the dashboard compares with: the given one if accepted, else the most recent accepted. */
export async function acceptedFriend(db: Db, userId: number, friendUserId?: number): Promise<FriendshipView | null> {
  const friends = await acceptedFriends(db, userId);
  if (friendUserId != null) return friends.find((f) => f.userId === friendUserId) ?? null;
  return friends[0] ?? null;
}

/** Sends an invitation to the student with this username or share code. */
export async function inviteFriend(db: Db, userId: number, handle: string, now = Date.now()): Promise<FriendshipView> {
  const value = handle.trim();
  const target = SHARE_CODE.test(value)
    ? await db.select().from(users).where(sql`upper(${users.shareCode}) = ${value.toUpperCase()}`).get()
    : await db
        .select()
        .from(users)
        .where(sql`lower(${users.username}) = ${value.replace(/^@/, "").toLowerCase()}`)
        .get();
  if (!target || target.status !== "attivo") {
    throw new HttpError(404, "Nessuno studente con questo nome utente o codice: controlla e riprova.");
  }
  if (target.id === userId)
    throw new HttpError(400, "Non puoi invitare te stesso: usa il nome utente o il codice di un amico.");
  const existing = await db
    .select()
    .from(friendships)
    .where(
      or(
        and(eq(friendships.requesterId, userId), eq(friendships.addresseeId, target.id)),
        and(eq(friendships.requesterId, target.id), eq(friendships.addresseeId, userId)),
      ),
    )
    .get();
  if (existing?.status === "accepted") throw new HttpError(409, "Siete già amici.");
  if (existing && existing.requesterId === userId)
    throw new HttpError(409, "Hai già invitato questo studente: attendi che accetti.");
  if (existing) throw new HttpError(409, "Questo studente ti ha già invitato: accetta il suo invito qui sotto.");
  const row = (await db
    .insert(friendships)
    .values({ requesterId: userId, addresseeId: target.id, status: "pending", createdAt: new Date(now) })
    .returning()
    .get())!;
  return {
    friendshipId: row.id,
    userId: target.id,
    name: target.name,
    username: target.username,
    since: row.createdAt.toISOString(),
  };
}

/** The addressee accepts a pending invitation. */
export async function acceptFriend(db: Db, userId: number, friendshipId: number, now = Date.now()): Promise<void> {
  const updated = await db
    .update(friendships)
    .set({ status: "accepted", respondedAt: new Date(now) })
    .where(
      and(eq(friendships.id, friendshipId), eq(friendships.addresseeId, userId), eq(friendships.status, "pending")),
    )
    .returning({ id: friendships.id });
  if (updated.length === 0) throw new HttpError(404, "Invito non trovato o già gestito.");
}

/** Either side ends a friendship, refuses an invitation or withdraws one. */
export async function endFriendship(db: Db, userId: number, friendshipId: number): Promise<void> {
  const deleted = await db
    .delete(friendships)
    .where(
      and(
        eq(friendships.id, friendshipId),
        or(eq(friendships.requesterId, userId), eq(friendships.addresseeId, userId)),
      ),
    )
    .returning({ id: friendships.id });
  if (deleted.length === 0) throw new HttpError(404, "Amicizia o invito non trovato.");
}
