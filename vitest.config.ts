import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { exportJWK, generateKeyPair } from "jose";
import { defineConfig } from "vitest/config";

// Google's JWKS is never reached from tests: each run makes an RSA key pair, serves its public half
// on loopback, and gives the private half to the tests (binding TEST_GOOGLE_PRIVATE_JWK) to sign tokens.
async function startLocalJwks() {
  const { publicKey, privateKey } = await generateKeyPair("RS256", { extractable: true });
  const kid = "unicum-test-key";
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" };
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: "RS256" };
  const server = createServer((req, res) => {
    if (req.url === "/certs") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ keys: [publicJwk] }));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  server.unref();
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/certs`, privateJwk };
}

export default defineConfig(async () => {
  const migrations = await readD1Migrations("./migrations");
  const jwks = await startLocalJwks();
  return {
    plugins: [
      cloudflareTest({
        // A small entry that re-exports the Durable Object and routes its socket, not the React Router build.
        main: "./test/worker.ts",
        wrangler: { configPath: "./wrangler.jsonc" },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            TEST_GOOGLE_PRIVATE_JWK: JSON.stringify(jwks.privateJwk),
            GOOGLE_JWKS_URL: jwks.url,
            GOOGLE_CLIENT_ID: "unicum-test.apps.googleusercontent.com",
            SESSION_SECRET: "test-session-secret-0123456789abcdef",
            OWNER_EMAIL: "owner@example.com",
            DEV_LOGIN: "1",
          },
        },
      }),
    ],
    resolve: { tsconfigPaths: true },
    test: {
      setupFiles: ["./test/integration/setup.ts"],
      testTimeout: 30_000,
      // A file's beforeAll seeds D1; with two workers on a busy 2-core machine that took more than the default 10 s.
      hookTimeout: 30_000,
      // Each test file of a project that isolates gets a workerd of its own (a fresh D1 and Durable Objects): most of
      // the run's time is starting those (issue 33: 62 files, ~3 s of tests each, minutes of start-up). Unit tests keep
      // no state in D1, so they share one workerd per worker; integration tests keep their own.
      projects: [
        { extends: true, test: { name: "unit", include: ["test/unit/**/*.test.ts"], isolate: false } },
        { extends: true, test: { name: "integration", include: ["test/integration/**/*.test.ts"] } },
      ],
      // Workers: vitest's default (cores − 1, so one here). Two measured no faster on this busy 2-core machine (10
      // integration files: 166 s with two, 160 s with one; the unit project 60 s and 65 s) and made wall-clock tests
      // (simulation-shards) miss their margins; try `--maxWorkers=2` on a bigger machine.
    },
  };
});
