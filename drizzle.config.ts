import { defineConfig } from "drizzle-kit";

// drizzle-kit 0.31 writes flat NNNN_name.sql files, which wrangler and readD1Migrations both read.
export default defineConfig({
  dialect: "sqlite",
  schema: "./app/server/db/schema.ts",
  out: "./migrations",
});
