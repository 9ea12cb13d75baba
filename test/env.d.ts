declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
    TEST_GOOGLE_PRIVATE_JWK: string;
  }
}
