// The authorization matrix: walks EVERY /api route of app/routes.ts as signed-out, student, teacher
// (docente), moderator and admin, and checks the answer against the expected access below. A route added without a rule
// here fails the first test, naming the route.
import { beforeAll, describe, expect, it } from "vitest";
import routeConfig from "~/routes";
import type { Access } from "~/server/session.server";
import { call, login, seed, type TestEnv } from "./helpers";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
type Rule = Partial<Record<Method, Access>>;

/** Expected access per API route path (as written in app/routes.ts) and method. */
const EXPECTED_ACCESS: Record<string, Rule> = {
  // Sign-in and session
  "api/auth/google": { GET: "public", POST: "public" },
  "api/auth/dev": { POST: "public" },
  "api/auth/logout": { POST: "public" },
  "api/me": { GET: "user" },

  // Practice
  "api/exam-editions": { GET: "public" },
  "api/subjects": { GET: "user" },
  "api/subjects/:id/topics": { GET: "user" },
  "api/quiz": { GET: "user", POST: "user" },
  "api/quiz/:id": { GET: "user" },
  "api/quiz/:id/attempt": { POST: "user" },
  "api/grade": { POST: "user" },
  "api/report-question": { POST: "user" },
  "api/attempts": { GET: "user" },
  "api/attempts/:id/summary": { GET: "user" },
  "api/me/wrong-questions": { GET: "user" },
  "api/my/reports": { GET: "user" },
  // Learning engine
  "api/review/due": { GET: "user" },
  "api/me/forecast": { GET: "user" },
  // The road to the sitting (issue 46): the signed-in user's own plan and grades (privacy: study-plan.test.ts)
  "api/me/plan": { GET: "user", PUT: "user", DELETE: "user" },
  "api/me/sitting-grades": { GET: "user", POST: "user" },
  // The exam day alone (issue 46): the caller's own days (another's: solo-day.test.ts)
  "api/me/exam-days": { GET: "user", POST: "user" },

  // Analytics, friends, profile
  "api/me/analytics": { GET: "user" },
  "api/friend/analytics": { GET: "user" },
  "api/friends": { GET: "user", POST: "user" },
  "api/friends/:id": { DELETE: "user" },
  "api/friends/:id/accept": { POST: "user" },
  "api/profile": { GET: "user", POST: "user", DELETE: "user" },
  "api/profile/export": { GET: "user" },
  "api/profile/sessions": { GET: "user", DELETE: "user" },

  // Simulations (the socket /api/simulations/:id/ws is routed by the Worker: test/integration/simulation-room.test.ts)
  "api/simulations/:id": { GET: "user" },
  "api/simulations/:id/attempt": { POST: "user" },
  "api/simulations/:id/ranking": { GET: "user" },
  "api/simulations/:id/skip-break": { POST: "user" },
  // Teachers manage their own simulations (ownership is checked by the service: classes.test.ts)
  "api/admin/simulations": { GET: "teacher", POST: "teacher" },
  "api/admin/simulations/:id": { DELETE: "teacher" },
  "api/admin/simulations/:id/start": { POST: "teacher" },
  // A test hook, live only with the development sign-in (the tests' setting); 404 elsewhere.
  "api/admin/simulations/:id/clock": { POST: "admin" },
  "api/admin/simulations/:id/attempts": { GET: "teacher" },
  "api/admin/simulations/:id/classes": { GET: "teacher" },
  "api/admin/simulations/:id/live": { GET: "admin" },
  "api/admin/bench/d1": { GET: "admin", DELETE: "admin" },

  // Classes (issue 11; which class a teacher may touch is checked by the service: classes.test.ts)
  "api/classes": { GET: "user", POST: "teacher" },
  "api/classes/join": { POST: "user" },
  // Invitations (issue 28): the invited pupil answers their own (someone else's is a 404: classes.test.ts)
  "api/classes/invitations": { GET: "user" },
  "api/classes/invitations/:id": { DELETE: "user" },
  "api/classes/invitations/:id/accept": { POST: "user" },
  "api/classes/:id": { DELETE: "teacher" },
  "api/classes/:id/members": { GET: "teacher", POST: "teacher" },
  "api/classes/:id/members/:userId": { DELETE: "user", PATCH: "teacher" },
  "api/classes/:id/invitations": { GET: "teacher" },
  "api/classes/:id/code": { POST: "teacher" },
  // Compiti (issue 32): the teacher of the class manages and reads them; a member starts one (assignments.test.ts)
  "api/classes/:id/assignments": { GET: "teacher", POST: "teacher" },
  "api/assignments": { GET: "user" },
  "api/assignments/:id": { GET: "teacher", PATCH: "teacher", DELETE: "teacher" },
  "api/assignments/:id/start": { POST: "user" },
  // Class progress (issue 32): the class's teacher or an admin (ownership: class-progress.test.ts)
  "api/classes/:id/progress": { GET: "teacher" },

  // Public: consent proof and page views
  "api/consent": { POST: "public" },
  "api/page-view": { POST: "public" },

  // Quiz Rush (POST on the student calls only answers 405: a client never sends a rush score)
  "api/rush/event": { GET: "user", POST: "user" },
  "api/rush/progress": { GET: "user", POST: "user" },
  "api/rush/leaderboard": { GET: "user", POST: "user" },
  "api/admin/rush-events": { GET: "admin", POST: "admin" },
  "api/admin/rush-events/:id": { PUT: "admin", DELETE: "admin" },

  // Admin console
  "api/admin/users": { GET: "admin", POST: "admin" },
  "api/admin/users/:id": { GET: "admin", PUT: "admin", DELETE: "admin" },
  "api/admin/users/:id/ban": { POST: "admin" },
  "api/admin/reports": { GET: "staff" },
  "api/admin/reports/:id": { PUT: "staff", DELETE: "staff" },
  "api/admin/reports/:id/resolve": { POST: "staff" },
  "api/admin/questions/:id": { GET: "staff", PUT: "staff" },
  "api/admin/analytics": { GET: "admin" },
  "api/admin/attempts": { GET: "admin" },
  "api/admin/search": { GET: "teacher" },
  "api/admin/audit": { GET: "admin" },
  "api/admin/import": { POST: "admin" },
  "api/admin/import-taxonomy": { POST: "admin" },
  "api/admin/import-difficulty": { POST: "admin" },
  "api/admin/import-users": { POST: "admin" },
  "api/admin/import-attempts": { POST: "admin" },
  "api/admin/reprocess-attempt-answers": { POST: "admin" },
  "api/admin/recalc-stats": { POST: "admin" },
  "api/admin/reset-db": { POST: "admin" },

  // Fallbacks
  "api/admin/*": { GET: "admin", POST: "admin" },
  "api/*": { GET: "public", POST: "public" },
};

/** Requests that would change shared data even when well-formed get a body the handler rejects (or a missing id). */
const SAMPLE_PARAM = "999999";

type RouteEntry = { path?: string; file: string; children?: RouteEntry[] };
type Handler = { access?: Access; methods?: Record<string, { access: Access }>; unsupported?: true };

const modules = import.meta.glob<Record<string, unknown>>("../../app/routes/*.{ts,tsx}", { eager: true });

type ApiRoute = {
  path: string;
  file: string;
  methods: Map<Method, Access | undefined>;
  unsupported: Map<Method, Access | undefined>;
};

function apiRoutes(entries: RouteEntry[], out: ApiRoute[] = []) {
  for (const entry of entries) {
    if (entry.children) apiRoutes(entry.children, out);
    if (!entry.path?.startsWith("api/")) continue;
    const mod = modules[`../../app/${entry.file}`] ?? {};
    const methods = new Map<Method, Access | undefined>();
    // Handlers that only check the role and answer 405 (admin routes): not a served method.
    const unsupported = new Map<Method, Access | undefined>();
    const loader = mod.loader as Handler | undefined;
    const action = mod.action as Handler | undefined;
    if (loader) (loader.unsupported ? unsupported : methods).set("GET", loader.access);
    if (action?.methods) for (const [m, h] of Object.entries(action.methods)) methods.set(m as Method, h.access);
    else if (action) (action.unsupported ? unsupported : methods).set("POST", action.access);
    out.push({ path: entry.path, file: entry.file, methods, unsupported });
  }
  return out;
}

const ROUTES = apiRoutes(routeConfig as RouteEntry[]);
const concrete = (path: string) => "/" + path.replace(/:[a-zA-Z]+\??/g, SAMPLE_PARAM).replace("*", "matrix-unknown");

// reset-db is opted in here so that an admin's refusal can only come from the missing confirmation.
const ENV = { ALLOW_DB_RESET: "1" } as TestEnv;

type Who = "anonymous" | "student" | "teacher" | "moderator" | "admin";
let tokens: Record<Exclude<Who, "anonymous">, string>;
const EMAILS = {
  student: "studente@example.com",
  teacher: "docente@example.com",
  moderator: "moderatore@example.com",
  admin: "admin@example.com",
} as const;

beforeAll(async () => {
  await seed();
  tokens = {
    student: await login(EMAILS.student),
    teacher: await login(EMAILS.teacher),
    moderator: await login(EMAILS.moderator),
    admin: await login(EMAILS.admin),
  };
});

const allowed = (access: Access, who: Who) =>
  access === "public" ||
  (access === "user" && who !== "anonymous") ||
  (access === "staff" && (who === "moderator" || who === "admin")) ||
  (access === "teacher" && (who === "teacher" || who === "admin")) ||
  (access === "console" && who !== "anonymous" && who !== "student") ||
  (access === "admin" && who === "admin");

describe("authorization matrix", () => {
  it("has a rule for every API route and every method it answers", () => {
    expect(ROUTES.length).toBeGreaterThan(20);
    const problems: string[] = [];
    for (const route of ROUTES) {
      const rule = EXPECTED_ACCESS[route.path];
      if (!rule) {
        problems.push(
          `Route "${route.path}" (app/${route.file}) has no rule in EXPECTED_ACCESS (test/integration/authorization-matrix.test.ts)`,
        );
        continue;
      }
      for (const [method, access] of route.methods) {
        if (!rule[method])
          problems.push(`Route "${route.path}" answers ${method} but EXPECTED_ACCESS has no rule for ${method}`);
        else if (access !== rule[method])
          problems.push(
            `Route "${route.path}" ${method} is built with access "${access}", EXPECTED_ACCESS says "${rule[method]}"`,
          );
      }
      for (const method of Object.keys(rule) as Method[]) {
        if (!route.methods.has(method))
          problems.push(`EXPECTED_ACCESS lists ${method} for "${route.path}", which does not answer it`);
      }
    }
    for (const path of Object.keys(EXPECTED_ACCESS)) {
      if (!ROUTES.some((r) => r.path === path))
        problems.push(`EXPECTED_ACCESS has a rule for "${path}", which is not in app/routes.ts`);
    }
    expect(problems, problems.join("\n")).toEqual([]);
  });

  for (const route of ROUTES) {
    const rule = EXPECTED_ACCESS[route.path];
    if (!rule) continue;
    for (const [method, access] of Object.entries(rule) as [Method, Access][]) {
      it(`${method} /${route.path} is ${access}`, async () => {
        const path = concrete(route.path);
        const body = method === "GET" ? {} : { json: {} };
        for (const who of ["anonymous", "student", "teacher", "moderator", "admin"] as const) {
          // Signing out ends the session (or all of them): use a throwaway one for those routes.
          const endsSessions =
            route.path === "api/auth/logout" || (route.path === "api/profile/sessions" && method === "DELETE");
          const token = who === "anonymous" ? undefined : endsSessions ? await login(EMAILS[who]) : tokens[who];
          const response = await call(method, path, { ...body, token, env: ENV });
          // "Esci da tutti i dispositivi" ended the shared session too: open a new one for the next routes.
          if (who !== "anonymous" && route.path === "api/profile/sessions" && method === "DELETE")
            tokens[who] = await login(EMAILS[who]);
          const label = `${method} ${path} as ${who}`;
          expect(response.status, label).toBeLessThan(500);
          if (allowed(access, who)) {
            expect([401, 403], label).not.toContain(response.status);
          } else {
            expect(response.status, label).toBe(who === "anonymous" ? 401 : 403);
            const error = ((await response.json()) as { error?: string }).error;
            expect(error, label).toMatch(who === "anonymous" ? /accedi/ : /permessi/);
          }
        }
      });
    }
  }

  it("checks the role before answering 405 to a method an admin route does not serve", async () => {
    let checked = 0;
    for (const route of ROUTES) {
      for (const [method, access] of route.unsupported) {
        const path = concrete(route.path);
        expect(
          (await call(method, path, { json: method === "GET" ? undefined : {} })).status,
          `${method} ${path} signed out`,
        ).toBe(401);
        expect(
          (await call(method, path, { token: tokens.student, json: method === "GET" ? undefined : {} })).status,
          `${method} ${path} as student`,
        ).toBe(403);
        if (access === "admin") {
          expect(
            (await call(method, path, { token: tokens.teacher, json: method === "GET" ? undefined : {} })).status,
            `${method} ${path} as teacher`,
          ).toBe(403);
        }
        const allowedCaller = access === "staff" ? tokens.moderator : tokens.admin;
        expect(
          (await call(method, path, { token: allowedCaller, json: method === "GET" ? undefined : {} })).status,
          `${method} ${path} allowed`,
        ).toBe(405);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10);
  });
});
