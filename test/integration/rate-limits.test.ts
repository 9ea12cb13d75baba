// Rate limits (app/server/security.server.ts, Cloudflare's rate-limiting binding as the vitest plugin runs it):
// 429 with Retry-After and an Italian error, per client address for Google sign-in and per user for reports,
// invitations, page views, imports, joining a class by code, class invitations and a teacher's search. The binding counts in fixed 60 s windows: a test may straddle the edge of
// one, so it checks that no refusal comes before the limit and that one comes within two windows' worth.
import { env } from "cloudflare:test";
import { matchRoutes } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import routeConfig from "~/routes";
import { rateRuleFor, routedPath } from "~/server/security.server";
import { insertUser } from "./analytics-fixtures";
import { callGuarded, count, json, login, routes, seed, send, type CallOptions } from "./helpers";

beforeAll(async () => {
  await seed();
  for (const [id, name] of [
    [9401, "limiti.uno"],
    [9402, "limiti.due"],
    [9404, "limiti.tre"],
    [9407, "limiti.quiz"],
    [9406, "limiti.altro"],
    [9408, "limiti.maiuscole"],
    [9409, "limiti.grafie"],
    [9410, "limiti.classe"],
    [9411, "limiti.head"],
  ] as const) {
    await insertUser(id, `${name}@example.com`, name, `Utente ${name}`);
  }
  // Teachers of this file only, so no other file's calls count against their limits.
  for (const [id, name] of [
    [9403, "limiti.docente"],
    [9405, "limiti.docente2"],
  ] as const) {
    await env.DB.prepare(
      `INSERT OR IGNORE INTO users (id, email, name, role, status, share_code) VALUES (${id}, '${name}@example.com', 'Docente ${name}', 'docente', 'attivo', 'U0${id}')`,
    ).run();
  }
});

/** Sends the call until the first 429 (at most 2 × limit + 1 times); returns how many passed before it and the 429. */
async function untilLimited(limit: number, send: (n: number) => Promise<Response>) {
  for (let n = 0; n <= 2 * limit; n++) {
    const response = await send(n);
    if (response.status === 429) return { passed: n, refusal: response };
    expect(response.status, `call ${n + 1}`).toBeLessThan(500);
  }
  throw new Error(`no 429 after ${2 * limit + 1} calls`);
}

async function expectRefusal(refusal: Response, message: RegExp) {
  expect(refusal.status).toBe(429);
  expect(refusal.headers.get("Retry-After")).toBe("60");
  expect((await json(refusal)).error).toMatch(message);
}

describe("rate limits", () => {
  it("slows down failed Google sign-ins from one address; another address and the development sign-in are not affected", async () => {
    const google = (ip: string): CallOptions => ({
      json: { credential: "not-a-token" },
      headers: { "CF-Connecting-IP": ip },
    });
    const { passed, refusal } = await untilLimited(10, () =>
      callGuarded("POST", "/api/auth/google", google("203.0.113.7")),
    );
    expect(passed).toBeGreaterThanOrEqual(10);
    await expectRefusal(refusal, /Troppi tentativi di accesso/);
    expect((await callGuarded("POST", "/api/auth/google", google("203.0.113.8"))).status).toBe(401);
    for (let n = 0; n < 25; n++) {
      const dev = await callGuarded("POST", "/api/auth/dev", {
        json: { email: "limiti.uno@example.com" },
        headers: { "CF-Connecting-IP": "203.0.113.7" },
      });
      expect(dev.status).toBe(200);
    }
  });

  it("limits reports per user and writes nothing once refused; another user can still report", async () => {
    const uno = await login("limiti.uno@example.com");
    const due = await login("limiti.due@example.com");
    const report = (token: string, n: number) =>
      callGuarded("POST", "/api/report-question", { token, json: { questionId: 1001, message: `Limite ${n}` } });
    const { passed, refusal } = await untilLimited(10, (n) => report(uno, n));
    expect(passed).toBeGreaterThanOrEqual(10);
    await expectRefusal(refusal, /troppe segnalazioni/);
    const before = await count("reports");
    expect((await report(uno, 99)).status).toBe(429);
    expect(await count("reports")).toBe(before);
    expect((await report(due, 0)).status).toBe(200);
  });

  it("limits friend invitations, page views and imports per user", async () => {
    const uno = await login("limiti.uno@example.com");
    const invites = await untilLimited(10, (n) =>
      callGuarded("POST", "/api/friends", { token: uno, json: { handle: `nessuno${n}` } }),
    );
    expect(invites.passed).toBeGreaterThanOrEqual(10);
    await expectRefusal(invites.refusal, /troppi inviti/);

    const views = await untilLimited(60, (n) =>
      callGuarded("POST", "/api/page-view", { token: uno, json: { path: `/limite/${n}` } }),
    );
    expect(views.passed).toBeGreaterThanOrEqual(60);
    await expectRefusal(views.refusal, /Troppe visite/);

    const admin = await login("admin@example.com");
    const imports = await untilLimited(10, () =>
      callGuarded("POST", "/api/admin/import-difficulty", {
        token: admin,
        body: "id,difficulty\n",
        headers: { "Content-Type": "text/csv" },
      }),
    );
    expect(imports.passed).toBeGreaterThanOrEqual(10);
    await expectRefusal(imports.refusal, /Troppe importazioni/);
  });

  it("limits joining a class by code per user (guessing codes): the JSON call, /profilo and the join link share it", async () => {
    const tre = await login("limiti.tre@example.com");
    // A guesser's codes: well-formed, unknown (404) until the limit says no.
    const join = await untilLimited(10, () =>
      callGuarded("POST", "/api/classes/join", { token: tre, json: { code: "ZZZZZZ" } }),
    );
    expect(join.passed).toBeGreaterThanOrEqual(10);
    await expectRefusal(join.refusal, /Troppi tentativi di entrare in una classe/);
    const profile = await callGuarded("POST", "/profilo", {
      token: tre,
      json: { intent: "join-class", code: "ZZZZZZ" },
    });
    expect(profile.status).toBe(429);
    expect(profile.headers.get("Retry-After")).toBe("60");
    expect(JSON.stringify(await json(profile))).toMatch(/Troppi tentativi di entrare in una classe/);
    for (const method of ["GET", "POST"]) {
      const link = await callGuarded(method, "/classi/unisciti/ZZZZZZ", {
        token: tre,
        body: method === "POST" ? "" : undefined,
        headers: method === "POST" ? { "Content-Type": "application/x-www-form-urlencoded" } : undefined,
      });
      expect(link.status, method).toBe(429);
      expect(link.headers.get("Retry-After"), method).toBe("60");
      expect((await json(link)).error, method).toMatch(/Troppi tentativi di entrare in una classe/);
    }
    // Another user can still join.
    const due = await login("limiti.due@example.com");
    expect((await callGuarded("POST", "/api/classes/join", { token: due, json: { code: "ZZZZZZ" } })).status).toBe(404);
  });

  it("limits a teacher's class invitations, on the JSON call and the Classi tab, and writes nothing once refused", async () => {
    const teacher = await login("limiti.docente@example.com");
    const created = await callGuarded("POST", "/api/classes", { token: teacher, json: { name: "Classe dei limiti" } });
    const { id } = await json<{ id: number }>(created);
    const invite = (n: number) =>
      callGuarded("POST", `/api/classes/${id}/members`, { token: teacher, json: { emails: `limite${n}@example.com` } });
    const { passed, refusal } = await untilLimited(10, invite);
    expect(passed).toBeGreaterThanOrEqual(10);
    await expectRefusal(refusal, /troppi inviti alla classe/);
    const before = await count("class_invitations", `class_id = ${id}`);
    expect((await invite(99)).status).toBe(429);
    const tab = await callGuarded("POST", "/admin/classi", {
      token: teacher,
      json: { intent: "add-members", classId: id, emails: "limite-tab@example.com" },
    });
    expect(tab.status).toBe(429);
    expect(tab.headers.get("Retry-After")).toBe("60");
    expect(JSON.stringify(await json(tab))).toMatch(/troppi inviti alla classe/);
    expect(await count("class_invitations", `class_id = ${id}`)).toBe(before);
  });

  it("limits a teacher's search (JSON call and console route); an admin's search is not limited", async () => {
    const teacher = await login("limiti.docente2@example.com");
    const search = await untilLimited(30, (n) =>
      callGuarded("GET", `/api/admin/search?q=cerca${n}`, { token: teacher }),
    );
    expect(search.passed).toBeGreaterThanOrEqual(30);
    await expectRefusal(search.refusal, /Troppe ricerche/);
    const route = await callGuarded("GET", "/admin/cerca?q=ancora", { token: teacher });
    expect(route.status).toBe(429);
    expect(route.headers.get("Retry-After")).toBe("60");
    expect((await json(route)).error).toMatch(/Troppe ricerche/);
    const admin = await login("admin@example.com");
    for (let n = 0; n < 40; n++) {
      expect((await callGuarded("GET", `/api/admin/search?q=admin${n}`, { token: admin })).status).toBe(200);
    }
  });

  it("limits quiz draws per user (30 a minute): GET and POST /api/quiz, and the screens that start a quiz, share the count", async () => {
    const quiz = await login("limiti.quiz@example.com");
    const draws = await untilLimited(30, (n) =>
      n % 2
        ? callGuarded("GET", "/api/quiz?subjectId=1&count=1", { token: quiz })
        : callGuarded("POST", "/api/quiz", { token: quiz, json: { subjectId: 1, count: 1 } }),
    );
    expect(draws.passed).toBeGreaterThanOrEqual(30);
    await expectRefusal(draws.refusal, /troppi quiz/);
    const before = await count("quizzes");
    expect((await callGuarded("GET", "/api/quiz?subjectId=1&count=1", { token: quiz })).status).toBe(429);
    expect((await callGuarded("POST", "/api/quiz", { token: quiz, json: { subjectId: 1 } })).status).toBe(429);
    // New test's "Avvia test" (POST /test) and /rush's "Avvia quiz" (POST /rush) ask the same limiter.
    for (const path of ["/test", "/rush"]) {
      const screen = await send(
        new Request(`http://localhost${path}`, {
          method: "POST",
          headers: { Authorization: `Bearer ${quiz}`, "Content-Type": "application/x-www-form-urlencoded" },
          body: "subjectId=1&count=1",
        }),
      );
      expect(screen.status, path).toBe(429);
      expect(screen.headers.get("Retry-After"), path).toBe("60");
      expect(JSON.stringify(await screen.json()), path).toMatch(/troppi quiz/);
    }
    expect(await count("quizzes")).toBe(before);
    // Reading a quiz is not a draw, and another student still draws.
    const altro = await login("limiti.altro@example.com");
    expect((await callGuarded("GET", "/api/quiz?subjectId=1&count=1", { token: altro })).status).toBe(200);
    expect((await callGuarded("GET", "/api/subjects", { token: quiz })).status).toBe(200);
  });
});

// Issue 44: the router picks a route without regard to case, after decoding %-escapes, with any trailing slashes; the
// limits compared the raw path, so `/API/QUIZ` drew without limit. They now read the path as the router does.
describe("rate limits read the path as the router does", () => {
  it("limits /API/QUIZ like /api/quiz: the 31st draw in a minute is refused", async () => {
    const quiz = await login("limiti.maiuscole@example.com");
    const draws = await untilLimited(30, () => callGuarded("GET", "/API/QUIZ?subjectId=1&count=1", { token: quiz }));
    expect(draws.passed).toBeGreaterThanOrEqual(30);
    await expectRefusal(draws.refusal, /troppi quiz/);
    expect((await callGuarded("POST", "/api/quiz", { token: quiz, json: { subjectId: 1 } })).status).toBe(429);
  });

  it("counts every spelling of the quiz draw in one count (case, %-escapes, trailing slashes)", async () => {
    const quiz = await login("limiti.grafie@example.com");
    const spellings = ["/Api/Quiz/", "/api/qu%69z", "/api/quiz//", "/API/QU%49Z///"];
    const draws = await untilLimited(30, (n) =>
      n % 2
        ? callGuarded("GET", `${spellings[n % spellings.length]}?subjectId=1&count=1`, { token: quiz })
        : callGuarded("POST", spellings[n % spellings.length]!, { token: quiz, json: { subjectId: 1, count: 1 } }),
    );
    expect(draws.passed).toBeGreaterThanOrEqual(30);
    await expectRefusal(draws.refusal, /troppi quiz/);
  });

  it("counts a HEAD or OPTIONS of the quiz draw as the GET the router runs for it", async () => {
    const quiz = await login("limiti.head@example.com");
    const before = await count("quizzes");
    const draws = await untilLimited(30, (n) =>
      callGuarded(n % 2 ? "HEAD" : "OPTIONS", "/api/quiz?subjectId=1&count=1", { token: quiz }),
    );
    expect(draws.passed).toBeGreaterThanOrEqual(30);
    expect(draws.refusal.status).toBe(429);
    // Whatever those requests drew, they stopped at the limit.
    expect((await count("quizzes")) - before).toBeLessThanOrEqual(draws.passed);
  });

  it("limits /Api/classes/join like /api/classes/join", async () => {
    const guesser = await login("limiti.classe@example.com");
    const join = await untilLimited(10, () =>
      callGuarded("POST", "/Api/classes/join", { token: guesser, json: { code: "ZZZZZZ" } }),
    );
    expect(join.passed).toBeGreaterThanOrEqual(10);
    await expectRefusal(join.refusal, /Troppi tentativi di entrare in una classe/);
    expect(
      (await callGuarded("POST", "/API/CLASSES/J%4FIN/", { token: guesser, json: { code: "ZZZZZZ" } })).status,
    ).toBe(429);
  });

  it("gives every spelling the router sends to a route the limit of the route's own path", () => {
    type Entry = { path?: string; index?: boolean; children?: Entry[] };
    const patterns: string[] = [];
    const walk = (entries: Entry[], parent: string) => {
      for (const entry of entries) {
        const path = entry.index ? parent : [parent, entry.path].filter(Boolean).join("/");
        if (entry.path !== undefined || entry.index) patterns.push(path);
        if (entry.children) walk(entry.children, path);
      }
    };
    walk(routeConfig as Entry[], "");
    const leaf = (path: string) => matchRoutes(routes, path)?.at(-1)?.route.id;
    const escapeFirstLetter = (segment: string) =>
      segment.replace(/[a-z]/i, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
    const spellings = (path: string) => [
      path.toUpperCase(),
      path.replace(/(^|\/)([a-z])/g, (_, slash: string, c: string) => slash + c.toUpperCase()),
      path.split("/").map(escapeFirstLetter).join("/"),
      `${path}/`,
      `${path}///`,
      `${path.split("/").map(escapeFirstLetter).join("/").toUpperCase()}//`,
    ];
    let sameRoute = 0;
    const problems: string[] = [];
    for (const pattern of patterns.filter((p) => p.startsWith("api/"))) {
      const path = `/${pattern.replace(/:\w+\??/g, "7").replace(/\*$/, "x")}`;
      const own = leaf(path);
      expect(own, path).toBeDefined();
      for (const spelling of spellings(path)) {
        if (leaf(spelling) !== own) continue; // the router sends it elsewhere (a 404, another route)
        sameRoute++;
        for (const method of ["GET", "POST"]) {
          const url = `http://localhost${spelling}`;
          if (rateRuleFor(method, url) !== rateRuleFor(method, `http://localhost${path}`))
            problems.push(`${method} ${spelling} is not limited as ${path}`);
          if (routedPath(url) !== path) problems.push(`${spelling} reads ${routedPath(url)}, not ${path}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(sameRoute).toBeGreaterThan(300);
  });
});
