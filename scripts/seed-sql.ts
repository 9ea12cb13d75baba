// Writes the demo seed as SQL, for a database the local setup does not reach (a remote D1).
// Usage: npm run db:seed-sql -- [FILE]   (default seed.sql), then `npx wrangler d1 execute DB --remote --file FILE`.
import { writeFileSync } from "node:fs";
import { buildSeedSql } from "../seed/seed.ts";

const file = process.argv[2] ?? "seed.sql";
writeFileSync(file, buildSeedSql());
console.log(`Demo seed written to ${file}.`);
