import { beforeAll, describe, expect, it } from "vitest";
import { insertUser } from "./analytics-fixtures";
import { call, count, json, login, seed } from "./helpers";

beforeAll(async () => {
  await seed();
  await insertUser(9101, "anna.amica@example.com", "anna.amica", "Anna Amica");
  await insertUser(9102, "bruno.amico@example.com", "bruno.amico", "Bruno Amico");
  await insertUser(9103, "carla.terza@example.com", "carla.terza", "Carla Terza");
});

type Overview = {
  shareCode: string;
  friends: { friendshipId: number; userId: number; name: string }[];
  incoming: { friendshipId: number; userId: number }[];
  outgoing: { friendshipId: number; userId: number }[];
};

describe("friend invitations", () => {
  it("invite by username, accept, compare both ways, then either side ends it", async () => {
    const anna = await login("anna.amica@example.com");
    const bruno = await login("bruno.amico@example.com");
    const carla = await login("carla.terza@example.com");

    const invite = await call("POST", "/api/friends", { token: anna, json: { handle: "Bruno.Amico" } });
    expect(invite.status).toBe(201);
    const { friendshipId } = await json<{ friendshipId: number }>(invite);

    // Pending: nobody sees the other's analytics yet.
    expect((await call("GET", "/api/friend/analytics", { token: anna })).status).toBe(404);
    expect((await call("GET", "/api/friend/analytics", { token: bruno })).status).toBe(404);
    const brunoView = await json<Overview>(await call("GET", "/api/friends", { token: bruno }));
    expect(brunoView.incoming.map((i) => i.userId)).toEqual([9101]);
    expect(
      (await json<Overview>(await call("GET", "/api/friends", { token: anna }))).outgoing.map((o) => o.userId),
    ).toEqual([9102]);

    // The requester cannot accept her own invitation; a third user cannot either.
    expect((await call("POST", `/api/friends/${friendshipId}/accept`, { token: anna })).status).toBe(404);
    expect((await call("POST", `/api/friends/${friendshipId}/accept`, { token: carla })).status).toBe(404);
    expect(await count("friendships", `id = ${friendshipId} AND status = 'pending'`)).toBe(1);

    expect((await call("POST", `/api/friends/${friendshipId}/accept`, { token: bruno })).status).toBe(200);
    const annaSees = await call("GET", "/api/friend/analytics", { token: anna });
    expect(annaSees.status).toBe(200);
    expect((await json(annaSees)).studentName).toBe("Bruno");
    expect((await json(await call("GET", "/api/friend/analytics", { token: bruno }))).studentName).toBe("Anna");
    // A third user can neither read them nor end their friendship.
    expect((await call("GET", "/api/friend/analytics?userId=9101", { token: carla })).status).toBe(404);
    expect((await call("DELETE", `/api/friends/${friendshipId}`, { token: carla })).status).toBe(404);

    // Bruno ends it: both lose access.
    expect((await call("DELETE", `/api/friends/${friendshipId}`, { token: bruno })).status).toBe(200);
    expect((await call("GET", "/api/friend/analytics", { token: anna })).status).toBe(404);
    expect(await count("friendships", `id = ${friendshipId}`)).toBe(0);
  });

  it("invites by share code; the invited side can refuse", async () => {
    const carla = await login("carla.terza@example.com");
    const anna = await login("anna.amica@example.com");
    const code = (await json<Overview>(await call("GET", "/api/friends", { token: anna }))).shareCode;
    expect(code).toBe("U09101");
    const invite = await call("POST", "/api/friends", { token: carla, json: { handle: code.toLowerCase() } });
    expect(invite.status).toBe(201);
    const { friendshipId } = await json<{ friendshipId: number }>(invite);
    expect((await call("DELETE", `/api/friends/${friendshipId}`, { token: anna })).status).toBe(200);
    expect(await count("friendships", `id = ${friendshipId}`)).toBe(0);
  });

  it("refuses bad invitations with an Italian error and writes nothing", async () => {
    const anna = await login("anna.amica@example.com");
    const before = await count("friendships");
    const cases: [unknown, number, RegExp][] = [
      [{ handle: "nessuno.cosi" }, 404, /Nessuno studente/],
      [{ handle: "anna.amica" }, 400, /te stesso/],
      [{ handle: "" }, 400, /nome utente o il codice/],
      [{}, 400, /nome utente o il codice/],
      [{ handle: "U00005" }, 404, /Nessuno studente/], // the suspended account
    ];
    for (const [body, status, message] of cases) {
      const response = await call("POST", "/api/friends", { token: anna, json: body });
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect((await json(response)).error).toMatch(message);
    }
    expect(
      (
        await call("POST", "/api/friends", {
          token: anna,
          body: "{nope",
          headers: { "Content-Type": "application/json" },
        })
      ).status,
    ).toBe(400);
    expect(await count("friendships")).toBe(before);
    expect((await call("POST", "/api/friends/abc/accept", { token: anna })).status).toBe(400);
    expect((await call("GET", "/api/friends")).status).toBe(401);
  });

  it("refuses a second invitation to the same student, in either direction", async () => {
    const anna = await login("anna.amica@example.com");
    const bruno = await login("bruno.amico@example.com");
    expect((await call("POST", "/api/friends", { token: anna, json: { handle: "bruno.amico" } })).status).toBe(201);
    const before = await count("friendships");
    const again = await call("POST", "/api/friends", { token: anna, json: { handle: "bruno.amico" } });
    expect(again.status).toBe(409);
    expect((await json(again)).error).toMatch(/attendi/);
    const back = await call("POST", "/api/friends", { token: bruno, json: { handle: "anna.amica" } });
    expect(back.status).toBe(409);
    expect((await json(back)).error).toMatch(/accetta/);
    expect(await count("friendships")).toBe(before);
  });
});
