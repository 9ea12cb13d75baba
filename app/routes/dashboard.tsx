import { useLoaderData } from "react-router";
import { requirePageUser } from "~/server/page-guard.server";
import type { Route } from "./+types/dashboard";

export async function loader(args: Route.LoaderArgs) {
  const user = await requirePageUser(args);
  return { name: user.firstName || user.name };
}

export default function Dashboard() {
  const { name } = useLoaderData<typeof loader>();
  return (
    <section className="page">
      <h1 className="page__title">Ciao, {name}</h1>
      <p className="muted">La dashboard con le tue statistiche è in arrivo.</p>
    </section>
  );
}
