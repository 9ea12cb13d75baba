// The admin console's tabs are routes (issue 19): /admin/<tab>, each letting in only the roles that see it.
import { beforeAll, describe, expect, it } from "vitest";
import { call, login, seed } from "./helpers";

let admin: string;
let moderator: string;
let teacher: string;
let student: string;

beforeAll(async () => {
  await seed();
  [admin, moderator, teacher, student] = await Promise.all(
    ["admin@example.com", "moderatore@example.com", "docente@example.com", "studente@example.com"].map(login),
  );
});

const where = async (path: string, token: string) => {
  const response = await call("GET", path, { token });
  return response.status === 200 ? "200" : `${response.status} ${response.headers.get("Location")}`;
};

describe("/admin/<tab>", () => {
  // "?index" asks for the index route's own loader (a browser's document request runs it after the layout's).
  it("/admin opens the role's first tab; an older ?tab= link keeps its filters", async () => {
    expect(await where("/admin?index", admin)).toBe("302 /admin/analytics");
    expect(await where("/admin?index", moderator)).toBe("302 /admin/segnalazioni");
    expect(await where("/admin?index", teacher)).toBe("302 /admin/classi");
    expect(await where("/admin?index&tab=tentativi&userId=4", admin)).toBe("302 /admin/tentativi?userId=4");
  });

  it("lets each role into its tabs only", async () => {
    expect(await where("/admin/utenti", admin)).toBe("200");
    expect(await where("/admin/segnalazioni", moderator)).toBe("200");
    expect(await where("/admin/utenti", moderator)).toBe("302 /admin");
    expect(await where("/admin/simulazioni", teacher)).toBe("200");
    expect(await where("/admin/database", teacher)).toBe("302 /admin");
    expect(await where("/admin/rush", student)).toBe("302 /");
  });
});
