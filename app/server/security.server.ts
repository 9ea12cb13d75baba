// The Worker's guard rails, applied by workers/app.ts to every request and every response (never per route):
// the same-origin rule for writes, the body-size cap of JSON calls, rate limits, the security headers, and one
// error shape for the API.
// OWASP ASVS 4.0 level 2: V3.5.3 / V4.2.2 (cross-site requests), V14.4 (HTTP security headers), V13.1.5 (content type).
import { HttpError } from "./errors.server";
import { tokenUserId } from "./session.server";

/** Methods that change something: a cookie-authenticated one must come from our own pages. */
const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export const CROSS_SITE_MESSAGE =
  "Richiesta rifiutata: le modifiche sono accettate solo dalle pagine di Unicum (origine diversa).";

/** The largest JSON body a call accepts; the admin imports have their own (20 MB, imports.server.ts). */
export const MAX_JSON_BYTES = 1024 * 1024;
export const TOO_LARGE_MESSAGE = "Richiesta troppo grande: il massimo è 1 MB.";

/**
 * A request's path as React Router reads it when it picks a route, the one form every rule here compares (the size
 * cap, the rate limits, the API's error shape). The router decodes each segment's %-escapes (the whole path stays as
 * it is when one is malformed), matches without regard to case, and takes any number of trailing slashes: `/API/QUIZ`,
 * `/api/qu%69z` and `/api/quiz//` all reach the quiz route, and each read raw went round its limit (issue 44). Here
 * they all read `/api/quiz`. Lower case is a little wider than the router's case folding (a Kelvin sign reads "k"):
 * it may count a request the router then answers with 404, never miss one it routes.
 */
/** A request's URL, parsed once per request (the socket route and the early refusals each read it). */
const parsedUrls = new WeakMap<Request, URL>();
export function urlOf(request: Request): URL {
  let url = parsedUrls.get(request);
  if (!url) {
    url = new URL(request.url);
    parsedUrls.set(request, url);
  }
  return url;
}

export function routedPath(url: string | URL): string {
  const { pathname } = typeof url === "string" ? new URL(url) : url;
  let decoded = pathname;
  // Without a "%" there is nothing to decode (every socket's and almost every page's path): no split, no copies.
  if (pathname.includes("%"))
    try {
      decoded = pathname
        .split("/")
        .map((segment) => decodeURIComponent(segment).replace(/\//g, "%2F"))
        .join("/");
    } catch {
      // as the router: a malformed escape leaves the whole path undecoded
    }
  return decoded.toLowerCase().replace(/\/+$/, "") || "/";
}

/** A routed path (routedPath) of the JSON API: its errors are `{ "error": "<Italian>" }`, its bodies capped. */
export function isApiPath(path: string): boolean {
  return path.startsWith("/api/");
}

/** Paths whose bodies are files with their own documented types and size (CSV or JSON up to 20 MB). */
const IMPORT_PATH = /^\/api\/admin\/(import|import-taxonomy|import-difficulty|import-users|import-attempts)$/;

/** Whether a routed path (routedPath) is one of the admin imports. */
export function isImportPath(path: string): boolean {
  return IMPORT_PATH.test(path);
}

function refuse(status: number, error: string, headers?: HeadersInit): Response {
  return Response.json({ error }, { status, headers });
}

function isBearer(request: Request): boolean {
  return /^bearer\s/i.test(request.headers.get("Authorization") ?? "");
}

/**
 * The same-origin rule. A write (POST / PUT / PATCH / DELETE) or a WebSocket upgrade must come from our own
 * origin: the `Origin` header, or `Sec-Fetch-Site: same-origin` when a browser leaves Origin out.
 * - Bearer calls are exempt: a page of another site cannot attach an Authorization header without a CORS
 *   preflight we never grant, and with Bearer the cookie is not what authenticates the call.
 * - A request with neither header is not from a browser (every browser sends Origin on a cross-site POST and
 *   Sec-Fetch-Site on every request), so a stolen-cookie attack cannot be made that way: it passes. Local tools
 *   and the e2e tests' request context (Playwright's `page.request`) are such clients.
 * - It applies whether or not the request carries the cookie, so a foreign page can't sign a visitor in to
 *   another account (login CSRF) or record consent / page views in their name either.
 */
export function crossSiteRefusal(request: Request): Response | null {
  const method = request.method.toUpperCase();
  const upgrade = request.headers.get("Upgrade")?.toLowerCase() === "websocket";
  if (!WRITE_METHODS.has(method) && !upgrade) return null;
  if (isBearer(request)) return null;
  const origin = request.headers.get("Origin");
  if (origin !== null) return origin === urlOf(request).origin ? null : refuse(403, CROSS_SITE_MESSAGE);
  const site = request.headers.get("Sec-Fetch-Site");
  if (site === null || site === "same-origin" || site === "none") return null;
  return refuse(403, CROSS_SITE_MESSAGE);
}

/** A declared body larger than a JSON call accepts: 413 before anything reads it (readJson caps the rest). */
export function oversizeRefusal(request: Request): Response | null {
  if (!WRITE_METHODS.has(request.method.toUpperCase())) return null;
  const path = routedPath(request.url);
  if (!isApiPath(path) || isImportPath(path)) return null;
  const declared = Number(request.headers.get("Content-Length") ?? 0);
  return declared > MAX_JSON_BYTES ? refuse(413, TOO_LARGE_MESSAGE) : null;
}

/** Everything the Worker refuses before the app sees the request, or null to go on. */
export function refuseEarly(request: Request): Response | null {
  return crossSiteRefusal(request) ?? oversizeRefusal(request);
}

// --- Rate limits (ASVS V2.2.1 against automated sign-in attempts, V11.1.4 against abuse of business functions) ---
// Cloudflare's rate-limiting binding (`ratelimits` in wrangler.jsonc): it runs in workerd locally, in the vitest
// plugin and deployed, with no storage of ours. It counts per key in fixed windows of 10 or 60 s, per Cloudflare
// location (a deterrent, not exact accounting), and does not say when the window ends: Retry-After is the window.

type LimiterName =
  | "SIGN_IN_LIMITER"
  | "REPORT_LIMITER"
  | "INVITE_LIMITER"
  | "PAGE_VIEW_LIMITER"
  | "IMPORT_LIMITER"
  | "CLASS_JOIN_LIMITER"
  | "CLASS_INVITE_LIMITER"
  | "TEACHER_SEARCH_LIMITER"
  | "QUIZ_LIMITER";

/** A rule without a path is asked only by the handlers themselves (limitAction), e.g. when it depends on the role. */
type RateRule = {
  /** Tested against the routed path (routedPath: lower case, decoded, no trailing slash), never the raw one. */
  path?: RegExp;
  /** The methods counted; POST when not said. */
  methods?: readonly string[];
  limiter: LimiterName;
  by: "client" | "user";
  periodSeconds: number;
  message: string;
};

/**
 * Which calls are limited, keyed by whom: writes, and the quiz draw, whose GET writes rows too (a stored quiz and its
 * attempt). The development sign-in (/api/auth/dev, off in production) is not limited, so local tools and the e2e
 * tests can sign in as often as they like. Limits: wrangler.jsonc.
 */
export const RATE_RULES: readonly RateRule[] = [
  {
    path: /^\/api\/auth\/google$/,
    limiter: "SIGN_IN_LIMITER",
    by: "client",
    periodSeconds: 60,
    message: "Troppi tentativi di accesso da questa rete: riprova tra un minuto.",
  },
  {
    path: /^\/api\/report-question$/,
    limiter: "REPORT_LIMITER",
    by: "user",
    periodSeconds: 60,
    message: "Hai inviato troppe segnalazioni in poco tempo: riprova tra un minuto.",
  },
  {
    path: /^\/api\/friends$/,
    limiter: "INVITE_LIMITER",
    by: "user",
    periodSeconds: 60,
    message: "Hai inviato troppi inviti in poco tempo: riprova tra un minuto.",
  },
  {
    path: /^\/api\/page-view$/,
    limiter: "PAGE_VIEW_LIMITER",
    by: "user",
    periodSeconds: 60,
    message: "Troppe visite registrate in poco tempo: riprova tra un minuto.",
  },
  {
    path: IMPORT_PATH,
    limiter: "IMPORT_LIMITER",
    by: "user",
    periodSeconds: 60,
    message: "Troppe importazioni in poco tempo: riprova tra un minuto.",
  },
  // Issue 28: guessing join codes, inviting by the thousand, searching the site's students.
  {
    path: /^\/api\/classes\/join$/,
    limiter: "CLASS_JOIN_LIMITER",
    by: "user",
    periodSeconds: 60,
    message: "Troppi tentativi di entrare in una classe in poco tempo: riprova tra un minuto.",
  },
  {
    path: /^\/api\/classes\/[^/]+\/members$/,
    limiter: "CLASS_INVITE_LIMITER",
    by: "user",
    periodSeconds: 60,
    message: "Hai inviato troppi inviti alla classe in poco tempo: riprova tra un minuto.",
  },
  {
    // Teachers only (admins keep the console's search as it was): asked by the search routes themselves.
    limiter: "TEACHER_SEARCH_LIMITER",
    by: "user",
    periodSeconds: 60,
    message: "Troppe ricerche in poco tempo: riprova tra un minuto.",
  },
  {
    // 30 a minute: a student finishes a quiz in minutes; the e2e suite draws fewer than 10 a minute per account.
    // The screens that start a quiz (/test, /rush) ask the same limiter with limitAction.
    path: /^\/api\/quiz$/,
    methods: ["GET", "POST"],
    limiter: "QUIZ_LIMITER",
    by: "user",
    periodSeconds: 60,
    message: "Hai avviato troppi quiz in poco tempo: riprova tra un minuto.",
  },
];

/** The client's address as Cloudflare reports it (also set by the local servers). */
function clientAddress(request: Request): string {
  return request.headers.get("CF-Connecting-IP") ?? "unknown";
}

/** The rule that limits a call, by its method and its path as the router reads it; undefined when none does. */
export function rateRuleFor(method: string, url: string | URL): RateRule | undefined {
  // React Router answers HEAD and OPTIONS with the route's loader, as a GET (a HEAD /api/quiz draws a quiz): count
  // them as the GET they run (review of issue 44).
  const asked = method.toUpperCase();
  const verb = asked === "HEAD" || asked === "OPTIONS" ? "GET" : asked;
  const path = routedPath(url);
  return RATE_RULES.find((r) => (r.methods ?? ["POST"]).includes(verb) && r.path?.test(path));
}

/** 429 with Retry-After when the caller went over the limit of this call, or null to go on. */
export async function rateLimitRefusal(request: Request, env: Env): Promise<Response | null> {
  const rule = rateRuleFor(request.method, urlOf(request));
  if (!rule) return null;
  const limiter = env[rule.limiter] as RateLimit | undefined;
  if (!limiter) {
    console.warn(`Rate limiter ${rule.limiter} is not bound: ${routedPath(request.url)} is not limited`);
    return null;
  }
  // A signed-in caller is counted as a user, wherever they are; anyone else by address.
  const userId = rule.by === "user" ? await tokenUserId(request, env) : null;
  const key = userId ? `user:${userId}` : `client:${clientAddress(request)}`;
  const { success } = await limiter.limit({ key });
  return success ? null : refuse(429, rule.message, { "Retry-After": String(rule.periodSeconds) });
}

/**
 * The same limits for a route action (issue 19): a screen's write posts to its page (`/profilo.data`, …), not to
 * the /api path a rule matches, so the action asks its limiter itself. Throws a 429 HttpError with the rule's
 * Italian message (handleForm turns it into the form's error).
 */
export async function limitAction(env: Env, limiterName: LimiterName, who: number | Request): Promise<void> {
  const rule = RATE_RULES.find((r) => r.limiter === limiterName);
  const limiter = env[limiterName] as RateLimit | undefined;
  if (!rule || !limiter) return;
  // A signed-in caller by user id; before sign-in, by address (like the /api rules keyed by "client").
  const key = typeof who === "number" ? `user:${who}` : `client:${clientAddress(who)}`;
  const { success } = await limiter.limit({ key });
  if (!success) throw new HttpError(429, rule.message, { retryAfter: rule.periodSeconds });
}

// --- Security headers (ASVS V14.4) ---

/** A fresh nonce per document: React Router's and React's inline scripts carry it (app/entry.server.tsx). */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/** Google Identity Services: its script, its button's frame and styles, its calls (Google's documented CSP). */
const GOOGLE_SIGN_IN = {
  script: "https://accounts.google.com/gsi/client",
  style: "https://accounts.google.com/gsi/style",
  frame: "https://accounts.google.com/gsi/",
  connect: "https://accounts.google.com/gsi/",
};

/** Browser features the product never uses (sign-in's FedCM, identity-credentials-get, stays on). */
export const PERMISSIONS_POLICY = [
  "accelerometer=()",
  "autoplay=()",
  "browsing-topics=()",
  "camera=()",
  "display-capture=()",
  "geolocation=()",
  "gyroscope=()",
  "magnetometer=()",
  "microphone=()",
  "midi=()",
  "payment=()",
  "publickey-credentials-get=()",
  "serial=()",
  "usb=()",
  "xr-spatial-tracking=()",
].join(", ");

/**
 * The Content-Security-Policy of an HTML page. Scripts: our own files and inline scripts with this response's
 * nonce (React Router's hydration data and React's streaming), plus Google's sign-in script when Google sign-in
 * is configured (the landing, /login and the "Sessione scaduta" overlay of every signed-in page use it).
 * Styles allow inline: React renders `style` attributes (bar widths, chart heights, tooltip positions) that a
 * nonce cannot cover; scripts are what matters for XSS, and they are closed.
 */
export function pageCsp(request: Request, nonce: string, googleSignIn: boolean): string {
  const url = new URL(request.url);
  const socket = `${url.protocol === "https:" ? "wss" : "ws"}://${url.host}`; // the simulation room
  const google = (source: string) => (googleSignIn ? ` ${source}` : "");
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'${google(GOOGLE_SIGN_IN.script)}`,
    `style-src 'self' 'unsafe-inline'${google(GOOGLE_SIGN_IN.style)}`,
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ${socket}${google(GOOGLE_SIGN_IN.connect)}`,
    `frame-src ${googleSignIn ? GOOGLE_SIGN_IN.frame : "'none'"}`,
    // The service worker of the installable app (issue 47: /sw.js, same origin).
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(url.protocol === "https:" ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

/** Anything that is not a page (JSON, files, redirects): nothing may run or be framed. */
const RESOURCE_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** The answer with every security header set; a WebSocket handshake (101) is passed on untouched. */
export function withSecurityHeaders(
  request: Request,
  response: Response,
  nonce: string,
  env: Pick<Env, "GOOGLE_CLIENT_ID">,
): Response {
  if (response.status === 101 || response.webSocket) return response;
  const secured = new Response(response.body, response);
  const headers = secured.headers;
  const html = (headers.get("Content-Type") ?? "").startsWith("text/html");
  headers.set("Content-Security-Policy", html ? pageCsp(request, nonce, Boolean(env.GOOGLE_CLIENT_ID)) : RESOURCE_CSP);
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("X-Frame-Options", "DENY");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  headers.set("Permissions-Policy", PERMISSIONS_POLICY);
  // Google's sign-in popup talks back to the page that opened it.
  headers.set("Cross-Origin-Opener-Policy", "same-origin-allow-popups");
  headers.set("Cross-Origin-Resource-Policy", "same-origin");
  if (new URL(request.url).protocol === "https:") {
    headers.set("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
  }
  return secured;
}

// --- One error shape for the API ---

const STATUS_MESSAGES: Record<number, string> = {
  400: "Richiesta non valida.",
  401: "Sessione scaduta o assente: accedi di nuovo.",
  403: "Non hai i permessi per questa operazione.",
  404: "Indirizzo non trovato.",
  405: "Metodo non consentito per questo indirizzo.",
  413: TOO_LARGE_MESSAGE,
  415: "Formato non supportato: invia i dati come JSON (intestazione Content-Type: application/json).",
  429: "Troppe richieste: riprova tra poco.",
};

/**
 * Every /api error is `{ "error": "<Italian>" }`. The routes' own errors already are; this catches what React
 * Router answers by itself (a method a route has no loader or action for: 405 `{message: "You made a POST
 * request…"}`, an unexpected throw: 500 "Unexpected Server Error") and gives it an Italian message.
 */
export async function withApiErrorShape(request: Request, response: Response): Promise<Response> {
  if (response.status < 400 || !isApiPath(routedPath(request.url))) return response;
  if ((response.headers.get("Content-Type") ?? "").includes("application/json")) {
    const body = await response
      .clone()
      .json()
      .catch(() => null);
    if (body && typeof (body as { error?: unknown }).error === "string") return response;
  }
  const error =
    STATUS_MESSAGES[response.status] ??
    (response.status >= 500 ? "Errore interno del server. Riprova tra poco." : "Richiesta non valida.");
  const headers = new Headers(response.headers);
  headers.delete("Content-Length");
  headers.set("Content-Type", "application/json");
  return new Response(JSON.stringify({ error }), { status: response.status, headers });
}
