// Database maintenance of the admin console: imports (JSON, or CSV where a spreadsheet is the natural
// source), regrading, aggregate rebuild and reset. Formats: docs/imports.md. One module per kind in ./imports/:
// common (reading, row validation, chunked writes), questions, users, attempts, bundle (import, import-users,
// import-attempts), taxonomy, difficulty, maintenance (reprocess, recalc-stats, reset).
//
// Every import is all-or-nothing: each row is validated (zod, then references against the database)
// before anything is written, and the writes go in ONE D1 batch (a transaction). A bad row imports
// nothing; the answer names the row and the problem. Rows travel to SQLite as one JSON parameter per
// chunk (`json_each`), which keeps a 3,500-question bank to a handful of statements.
export { importAttempts, importBundle, importUsers, reportRowSchema } from "./imports/bundle";
export { MAX_IMPORT_BYTES, MAX_IMPORT_ROWS, readImportBody, type ImportBody, type RowError } from "./imports/common";
export { importDifficulty } from "./imports/difficulty";
export { gradeAnswer, attemptRowSchema } from "./imports/attempts";
export { questionRowSchema } from "./imports/questions";
export { userRowSchema } from "./imports/users";
export { importTaxonomy, taxonomySchema } from "./imports/taxonomy";
export {
  assertResetAllowed,
  recalcStats,
  reprocessAttemptAnswers,
  RESET_CONFIRMATION,
  resetDatabase,
  resetSchema,
} from "./imports/maintenance";
