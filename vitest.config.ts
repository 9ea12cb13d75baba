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
      include: ["test/unit/**/*.test.ts", "test/integration/**/*.test.ts"],
      setupFiles: ["./test/integration/setup.ts"],
      testTimeout: 30_000,
    },
  };
});
