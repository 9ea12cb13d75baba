import { ComingSoon } from "~/components/ComingSoon";
import { requirePageUser } from "~/server/page-guard.server";
import type { Route } from "./+types/admin";

export async function loader(args: Route.LoaderArgs) {
  await requirePageUser(args, "staff");
  return null;
}

export default function Screen() {
  return <ComingSoon title="Amministrazione" />;
}
