// /admin/database: the console's Database tab (admins). The maintenance buttons post here (JSON with an intent),
// through the same services as /api/admin/reprocess-attempt-answers, /recalc-stats and /reset-db. The file imports
// still post to /api/admin/import* directly: XMLHttpRequest reports the upload's progress on files up to 20 MB,
// which a route action's fetch cannot.
import { z } from "zod";
import { DatabaseTab } from "~/components/admin/DatabaseTab";
import { withLabels, withParentLabels } from "~/lib/validation";
import {
  assertResetAllowed,
  recalcStats,
  reprocessAttemptAnswers,
  resetDatabase,
  resetSchema,
} from "~/server/admin/imports.server";
import { requireAdminTab } from "~/server/admin/tab-guard.server";
import { dbOf, getEnv } from "~/server/context";
import { handleIntent, handleValue } from "~/server/form.server";
import { requirePageUser } from "~/server/page-guard.server";
import type { Route } from "./+types/admin.database";

export async function loader(args: Route.LoaderArgs) {
  return requireAdminTab(args, "database");
}

const plain = withLabels(z.object({ intent: z.string() }), { intent: "Operazione" });
const reset = withParentLabels(resetSchema.extend({ intent: z.string() }), resetSchema, { intent: "Operazione" });

export async function action(args: Route.ActionArgs) {
  await requireAdminTab(args, "database");
  const user = await requirePageUser(args, "admin");
  const db = dbOf(args.context);
  const env = getEnv(args.context);
  return handleIntent(args.request, {
    reprocess: (body) => handleValue(body, plain, () => reprocessAttemptAnswers(db, user)),
    "recalc-stats": (body) => handleValue(body, plain, () => recalcStats(db, user)),
    "reset-db": (body) =>
      handleValue(body, reset, () => {
        assertResetAllowed(env);
        return resetDatabase(db, env, user);
      }),
  });
}

export default function AdminTab() {
  return <DatabaseTab />;
}
