// /admin/tentativi: the console's "tentativi" tab. Its loader reads one page of every user's attempts
// (?userId= one user's, ?pagina=N), with the service and rules of GET /api/admin/attempts. Admins only.
import { TentativiTab } from "~/components/admin/TentativiTab";
import { ADMIN_ATTEMPTS_PAGE_SIZE } from "~/lib/constants";
import { adminAttemptsQuery, listAdminAttempts } from "~/server/admin/attempts.server";
import { requireAdminTab } from "~/server/admin/tab-guard.server";
import { dbOf } from "~/server/context";
import type { Route } from "./+types/admin.tentativi";

export async function loader(args: Route.LoaderArgs) {
  await requireAdminTab(args, "tentativi");
  const url = new URL(args.request.url).searchParams;
  // A hand-edited URL with a bad page or user shows the first page of everyone's attempts.
  const query = adminAttemptsQuery.safeParse({
    page: url.get("pagina") ?? undefined,
    pageSize: ADMIN_ATTEMPTS_PAGE_SIZE,
    userId: url.get("userId") ?? undefined,
  });
  const page = await listAdminAttempts(
    dbOf(args.context),
    query.success ? query.data : { page: 1, pageSize: ADMIN_ATTEMPTS_PAGE_SIZE },
  );
  return { items: page.items, total: page.total };
}

export default function AdminTab({ loaderData }: Route.ComponentProps) {
  return <TentativiTab items={loaderData.items} total={loaderData.total} />;
}
