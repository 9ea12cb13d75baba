// One master secret, one key per purpose (issue 44: SESSION_SECRET was at once the session HMAC key, the resume tokens'
// HKDF input and the sealed copies'). Every key is derived from the master secret under its own label
// (app/server/keys.server.ts); a value made for one purpose never passes for another; a rotated secret keeps verifying
// what it signed, under SESSION_SECRET_PREVIOUS, and signs nothing.
import { env } from "cloudflare:test";
import { decodeJwt, SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { envProblems } from "~/server/env.server";
import { signingKey } from "~/server/keys.server";
import { type ResumeClaims, signResume, verifyResume } from "~/server/simulation/room-resume.server";
import { subjectKeyBytes } from "~/server/simulation/sealed-copies.server";
import { insertUser } from "./analytics-fixtures";
import { call, json, login, seed } from "./helpers";

const EMAIL = "chiavi.uno@example.com";
const OLD = () => env.SESSION_SECRET!;
const NEW = "rotated-master-secret-0123456789-abcdefghij";
const CLAIMS: ResumeClaims = { userId: 9701, role: "studente", simulationId: "chiavi-sim", shard: 0, startTime: 1 };
const me = (token: string, secrets: Partial<Env> = {}) => call("GET", "/api/me", { token, env: secrets });

beforeAll(async () => {
  await seed();
  await insertUser(9701, EMAIL, "chiavi.uno", "Chiara Chiavi");
});

/** The same claims as a real session token, signed with another key. */
async function resigned(token: string, key: CryptoKey | Uint8Array): Promise<string> {
  const { sid, sub, iat, exp } = decodeJwt(token);
  return new SignJWT({ sid })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(sub!)
    .setIssuedAt(iat!)
    .setExpirationTime(exp!)
    .sign(key);
}

describe("one master secret, one key per purpose", () => {
  it("never signs a session with the master secret itself: its HMAC under the raw SESSION_SECRET is no session", async () => {
    const token = await login(EMAIL);
    expect((await me(token)).status).toBe(200);
    expect((await me(await resigned(token, await signingKey(env, "session")))).status).toBe(200);
    const raw = await resigned(token, new TextEncoder().encode(OLD()));
    expect((await me(raw)).status).toBe(401);
  });

  it("a session token is no resume token, and a resume token (or the session's claims under its key) no session", async () => {
    const session = await login(EMAIL);
    expect(await verifyResume(env, session, CLAIMS.simulationId)).toBeNull();
    const resume = await signResume(OLD(), CLAIMS, Date.now() + 60_000);
    expect(await verifyResume(env, resume, CLAIMS.simulationId)).toEqual(CLAIMS);
    expect((await me(resume)).status).toBe(401);
    // The same claims under the other purpose's key: refused both ways.
    expect((await me(await resigned(session, await signingKey(env, "resumeToken")))).status).toBe(401);
    const asSession = await new SignJWT({ sim: CLAIMS.simulationId, shard: 0, role: "studente", start: 1 })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(String(CLAIMS.userId))
      .setAudience("unicum/room-resume")
      .setExpirationTime(Math.floor(Date.now() / 1000) + 60)
      .sign(await signingKey(env, "session"));
    expect(await verifyResume(env, asSession, CLAIMS.simulationId)).toBeNull();
  });

  it("derives the sealed copies' keys from their own key, not from the raw master secret", async () => {
    const info = new TextEncoder().encode("chiavi-sim\n0\n1,2\nhash");
    const raw = await crypto.subtle.importKey("raw", new TextEncoder().encode(OLD()), "HKDF", false, ["deriveBits"]);
    const salt = new TextEncoder().encode("unicum/sealed-subject/v1");
    const fromRaw = new Uint8Array(
      await crypto.subtle.deriveBits({ name: "HKDF", hash: "SHA-256", salt, info }, raw, 256),
    );
    const sealed = await subjectKeyBytes(OLD(), "chiavi-sim", 0, "1,2\nhash");
    expect(sealed).toHaveLength(32);
    expect([...sealed]).not.toEqual([...fromRaw]);
    // Deterministic: the Worker (sealing) and the room (releasing) derive the same key.
    expect([...(await subjectKeyBytes(OLD(), "chiavi-sim", 0, "1,2\nhash"))]).toEqual([...sealed]);
  });
});

describe("rotating the master secret", () => {
  const rotated = () => ({ SESSION_SECRET: NEW, SESSION_SECRET_PREVIOUS: OLD() });

  it("keeps the sessions the previous secret signed while SESSION_SECRET_PREVIOUS is set, and only then", async () => {
    const before = await login(EMAIL);
    expect((await me(before, { SESSION_SECRET: NEW })).status).toBe(401);
    expect((await me(before, rotated())).status).toBe(200);
    expect((await me(before, { SESSION_SECRET: NEW, SESSION_SECRET_PREVIOUS: "" })).status).toBe(401);
  });

  it("signs new sessions with the new secret only, never with the previous one", async () => {
    const signIn = await call("POST", "/api/auth/dev", { json: { email: EMAIL }, env: rotated() });
    expect(signIn.status).toBe(200);
    const { token } = await json<{ token: string }>(signIn);
    expect((await me(token, rotated())).status).toBe(200);
    expect((await me(token, { SESSION_SECRET: NEW })).status).toBe(200);
    expect((await me(token, { SESSION_SECRET: OLD() })).status).toBe(401);
  });

  it("keeps the resume tokens the previous secret signed, and a rotated room signs with the new one", async () => {
    const old = await signResume(OLD(), CLAIMS, Date.now() + 60_000);
    expect(await verifyResume({ SESSION_SECRET: NEW }, old, CLAIMS.simulationId)).toBeNull();
    expect(await verifyResume(rotated(), old, CLAIMS.simulationId)).toEqual(CLAIMS);
    const fresh = await signResume(NEW, CLAIMS, Date.now() + 60_000);
    expect(await verifyResume({ SESSION_SECRET: NEW }, fresh, CLAIMS.simulationId)).toEqual(CLAIMS);
    expect(await verifyResume({ SESSION_SECRET: OLD() }, fresh, CLAIMS.simulationId)).toBeNull();
  });

  it("checks SESSION_SECRET_PREVIOUS at start-up like the secret itself (empty means none)", () => {
    const base = { ...env, SESSION_SECRET: NEW } as unknown as Env;
    expect(envProblems({ ...base, SESSION_SECRET_PREVIOUS: "" })).toEqual([]);
    expect(envProblems({ ...base, SESSION_SECRET_PREVIOUS: OLD() })).toEqual([]);
    expect(envProblems({ ...base, SESSION_SECRET_PREVIOUS: "corto" }).join()).toMatch(
      /SESSION_SECRET_PREVIOUS è troppo corto/,
    );
  });
});
