// Prints the INSERTs of the seed editions (seed/editions.ts) for the migration that creates exam_editions.
// Usage: node scripts/editions-sql.ts >> migrations/NNNN_exam_editions.sql (once, when the migration is made).
import { editionsInsertSql } from "../seed/editions.ts";

console.log(`--> statement-breakpoint\n${editionsInsertSql(Date.UTC(2026, 10, 25))}`);
