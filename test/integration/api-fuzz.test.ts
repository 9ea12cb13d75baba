// The fuzzed API: every /api route of app/routes.ts (so routes added later are covered), every method, as every
// role, with bad bodies, parameters and queries drawn by fast-check: wrong types, missing and extra fields, 100 KB
// strings, deep nesting, __proto__ keys, odd unicode, negative and huge numbers, malformed JSON, wrong types of body.
// Asserts: never a 5xx; every refusal is `{ "error": "<Italian>" }`; the database is unchanged (a checksum of every
// table before and after). Requests go the way workers/app.ts sends them (helpers.callGuarded).
import { env } from "cloudflare:test";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import routeConfig from "~/routes";
import { SESSION_COOKIE } from "~/lib/constants";
import { callGuarded, login, seed, type TestEnv } from "./helpers";

type RouteEntry = { path?: string; file: string; children?: RouteEntry[] };
const apiPaths = (entries: RouteEntry[]): string[] =>
  entries.flatMap((e) => [
    ...(e.children ? apiPaths(e.children) : []),
    ...(e.path?.startsWith("api/") ? [e.path] : []),
  ]);

const ROUTES = apiPaths(routeConfig as RouteEntry[]);
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
const ROLES = ["anonymous", "student", "moderator", "admin"] as const;
type Role = (typeof ROLES)[number];
const EMAILS = {
  student: "studente@example.com",
  moderator: "moderatore@example.com",
  admin: "admin@example.com",
} as const;

/**
 * Calls that take no input at all and whose whole purpose is a write: any body is a valid call to them, so they
 * cannot be sent "bad input". Signing out ends the session, "Esci da tutti i dispositivi" all of them (their own
 * tests: auth.test.ts, sessions.test.ts); the two admin rebuilds recompute derived data and log it (admin-imports.test.ts).
 */
const NO_INPUT_WRITES = new Set([
  "api/auth/logout",
  "DELETE api/profile/sessions",
  "POST api/admin/recalc-stats",
  "POST api/admin/reprocess-attempt-answers",
]);
const skipped = (method: string, route: string) =>
  method !== "GET" && (NO_INPUT_WRITES.has(route) || NO_INPUT_WRITES.has(`${method} ${route}`));

/** Samples per route, method and role (fast-check draws them from a seed fixed per route: a failure replays). */
const RUNS = 3;
// reset-db is switched on, so only its missing confirmation can refuse it.
const ENV = { ALLOW_DB_RESET: "1" } as TestEnv;

// --- The corpus ---
const ODD = [
  "\u0000",
  "\u202E",
  "\uD800",
  "\uFEFF",
  "🦄",
  "a\u0301",
  "ẞ",
  "\u2028",
  "𝕏",
  "'; DROP TABLE users; --",
  "<script>",
];
const oddText = fc.array(fc.constantFrom(...ODD), { minLength: 1, maxLength: 4 }).map((parts) => parts.join(""));
/** Strings in bodies are always over every field's limit (free-text fields accept any short text, rightly). */
const hugeText = fc.constantFrom("x".repeat(100_000), "🦄\u202E".repeat(25_000), "\u0000".repeat(100_001));
const badNumber = fc.constantFrom(-1, -0.5, -1e308, 1e308, 2 ** 53 + 2, 1e21, -2147483649);
const KNOWN_KEYS = [
  "email",
  "credential",
  "answers",
  "question_id",
  "option_id",
  "answer_text",
  "time_sec",
  "timeTaken",
  "idempotencyKey",
  "rushEventId",
  "questionId",
  "attemptId",
  "message",
  "note",
  "userAnswerKey",
  "assignedScore",
  "status",
  "adminNotes",
  "handle",
  "city",
  "birth",
  "zip",
  "cf",
  "phone",
  "schoolYear",
  "bio",
  "confirm",
  "preferences",
  "analytics",
  "marketing",
  "visitorId",
  "path",
  "referrer",
  "id",
  "title",
  "subjects",
  "allowedUsers",
  "startsAt",
  "endsAt",
  "published",
  "stem",
  "options",
  "difficulty",
  "type",
  "name",
  "role",
  "reason",
  "verified",
  "theme",
  "subjectId",
  "topicId",
  "count",
  "time",
];
const key = fc.oneof(
  fc.constantFrom(...KNOWN_KEYS),
  fc.constantFrom("__proto__", "constructor", "prototype", "toString"),
  oddText,
);
const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    badNumber,
    fc.boolean(),
    hugeText,
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(key, tie("value"), { maxKeys: 4 }),
  ),
}));
const deepArray = "[".repeat(5000) + "]".repeat(5000);
const deepObject = '{"a":'.repeat(3000) + "1" + "}".repeat(3000);
/** A request body: JSON text and the Content-Type it is sent with. */
const body = fc.oneof(
  fc
    .dictionary(fc.constantFrom(...KNOWN_KEYS), value, { maxKeys: 6 })
    .map((o) => ({ text: JSON.stringify(o), type: "application/json" })),
  value.map((v) => ({ text: JSON.stringify(v), type: "application/json" })),
  fc.constantFrom(
    { text: "", type: "application/json" },
    { text: "{", type: "application/json" },
    { text: "nul", type: "application/json" },
    { text: "\uFEFF{}", type: "application/json" },
    { text: deepArray, type: "application/json" },
    { text: `{"answers":${deepArray}}`, type: "application/json" },
    { text: deepObject, type: "application/json" },
    {
      text: '{"__proto__":{"role":"admin","isAdmin":true},"constructor":{"prototype":{"polluted":1}}}',
      type: "application/json",
    },
    { text: '{"email":"admin@example.com"}', type: "text/plain" },
    { text: "email=admin%40example.com", type: "application/x-www-form-urlencoded" },
    { text: '{"a":1}', type: "" },
    { text: "x".repeat(1024 * 1024 + 1), type: "application/json" },
  ),
);
/** A path parameter that names nothing: never an id of the seed. */
const param = fc.oneof(
  fc.constantFrom(
    "0",
    "-1",
    "999999999",
    "abc",
    "1e309",
    "1.5",
    "9".repeat(400),
    "NaN",
    "..%2F..",
    "%00",
    "%E2%80%AE",
    "%F0%9F%A6%84",
    "__proto__",
  ),
  // A lone surrogate cannot be percent-encoded: a URL never carries one.
  oddText.map((s) =>
    encodeURIComponent(s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD")),
  ),
);
const queryValue = fc.oneof(
  fc.constantFrom("-1", "0", "1e309", "NaN", "99999999999", "[object Object]", "x".repeat(20_000)),
  oddText,
);
const query = fc.dictionary(
  fc.oneof(fc.constantFrom(...KNOWN_KEYS, "limit", "page", "pageSize", "q", "userId", "days", "top", "ids"), oddText),
  queryValue,
  {
    maxKeys: 4,
  },
);
const authMode = fc.constantFrom("bearer", "cookie") as fc.Arbitrary<"bearer" | "cookie">;

// --- The checks ---
const ENGLISH =
  /\b(invalid|expected|required|received|undefined|unexpected|cannot|not found|error|object Object|NaN|null)\b/i;
const ITALIAN =
  /[àèéìòù]|\b(non|il|lo|la|le|di|del|della|per|un|una|da|con|al|alla|campo|valore|richiesta|troppo|troppi|accedi|mancante|valido|valida|obbligatorio|trovato|trovata|inesistente|consentito|permessi|sessione|riprova|compila|scegli|scrivi|usa|ed|nome)\b/i;
/** Problems are reported to the vitest host over a socket that refuses lone surrogates: escape what is not ASCII. */
const ascii = (text: string) =>
  text.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

/** Columns that every authenticated call may move on: a session's last use and its sliding end. */
const TOUCHED = new Set(["sessions.last_used_at", "sessions.expires_at"]);

/** A checksum of every table: each table's rows as JSON (less TOUCHED columns), sorted, hashed. */
async function checksum(): Promise<Record<string, string>> {
  const { results: tables } = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name != 'd1_migrations' ORDER BY name",
  ).all<{ name: string }>();
  const sums: Record<string, string> = {};
  for (const { name } of tables) {
    const { results } = await env.DB.prepare(`SELECT * FROM "${name}"`).all();
    const rows = results.map((r) =>
      JSON.stringify(Object.entries(r).filter(([column]) => !TOUCHED.has(`${name}.${column}`))),
    );
    const text = rows.sort().join("\n");
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
    sums[name] =
      `${results.length} rows ${[...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
  }
  return sums;
}

const seedOf = (text: string) => [...text].reduce((h, c) => (h * 31 + c.charCodeAt(0)) | 0, 15);
const concrete = (path: string, params: string[]) => {
  let i = 0;
  return "/" + path.replace(/:[a-zA-Z]+\??/g, () => params[i++ % params.length]!).replace("*", params[0]!);
};

let tokens: Record<Exclude<Role, "anonymous">, string>;
let before: Record<string, string> = {};
const totals = { requests: 0, fiveHundreds: 0, statuses: new Map<number, number>() };

beforeAll(async () => {
  await seed();
  tokens = {
    student: await login(EMAILS.student),
    moderator: await login(EMAILS.moderator),
    admin: await login(EMAILS.admin),
  };
  before = await checksum();
});

afterAll(() => {
  const statuses = [...totals.statuses]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}×${n}`)
    .join(" ");
  console.log(
    `api fuzz: ${totals.requests} requests over ${ROUTES.length} routes, ${totals.fiveHundreds} 5xx (${statuses})`,
  );
});

describe("fuzzed API", () => {
  it("covers every /api route of app/routes.ts", () => {
    expect(ROUTES.length).toBeGreaterThan(50);
  });

  for (const route of ROUTES) {
    it(`/${route}: never a 5xx, always an Italian {error}, nothing written`, { timeout: 120_000 }, async () => {
      const problems: string[] = [];
      for (const method of METHODS) {
        if (skipped(method, route)) continue;
        const cases = fc.sample(
          fc.record({ params: fc.array(param, { minLength: 2, maxLength: 2 }), query, body, auth: authMode }),
          {
            numRuns: RUNS * ROLES.length,
            seed: seedOf(`${method} ${route}`),
          },
        );
        for (const [n, sample] of cases.entries()) {
          const role = ROLES[n % ROLES.length]!;
          const search = new URLSearchParams(sample.query).toString();
          const path = concrete(route, sample.params) + (search ? `?${search}` : "");
          const token = role === "anonymous" ? undefined : tokens[role];
          const headers: Record<string, string> = {};
          if (sample.body.type) headers["Content-Type"] = sample.body.type;
          if (token && sample.auth === "cookie") {
            headers.Cookie = `${SESSION_COOKIE}=${encodeURIComponent(token)}`;
            headers.Origin = "http://localhost";
          }
          const withBody = method !== "GET";
          const response = await callGuarded(method, path, {
            token: sample.auth === "bearer" ? token : undefined,
            headers,
            body: withBody ? sample.body.text : undefined,
            env: ENV,
          });
          totals.requests++;
          totals.statuses.set(response.status, (totals.statuses.get(response.status) ?? 0) + 1);
          const label = `${method} ${path.slice(0, 120)} as ${role} (${sample.auth}) body ${sample.body.text.slice(0, 80)}`;
          if (response.status >= 500) {
            totals.fiveHundreds++;
            problems.push(`${label} → ${response.status} ${(await response.text()).slice(0, 200)}`);
            continue;
          }
          if (response.status < 400) continue;
          const text = await response.text();
          let error: unknown;
          try {
            error = (JSON.parse(text) as { error?: unknown }).error;
          } catch {
            error = undefined;
          }
          if (typeof error !== "string")
            problems.push(`${label} → ${response.status} without {error}: ${text.slice(0, 200)}`);
          else if (!ITALIAN.test(error) || ENGLISH.test(error))
            problems.push(`${label} → ${response.status} not Italian: ${error}`);
        }
      }
      expect(problems.slice(0, 10).map(ascii), `${problems.length} problems`).toEqual([]);
    });
  }

  it("leaves the database as it was", async () => {
    expect(totals.requests).toBeGreaterThan(1000);
    expect(await checksum()).toEqual(before);
  });
});
