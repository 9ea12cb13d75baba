// Worker entry: simulation sockets go to their Durable Object, everything else to React Router.
// Every request passes the guard rails of app/server/security.server.ts first.
import { createRequestHandler, RouterContextProvider } from "react-router";
import { cloudflareContext } from "../app/server/context";
import { refuseEarly } from "../app/server/security.server";
import { drain, spareBody } from "./drain";
import { routeSimulationSocket } from "./simulation-socket";

export { SimulationRoom } from "./simulation-room";

const requestHandler = createRequestHandler(
  () => import("virtual:react-router/server-build"),
  import.meta.env.MODE,
);

function routerContext(env: Env, ctx: ExecutionContext) {
  const context = new RouterContextProvider();
  context.set(cloudflareContext, { env, ctx });
  return context;
}

export default {
  async fetch(request, env, ctx) {
    const spare = spareBody(request);
    const response =
      refuseEarly(request) ??
      (await routeSimulationSocket(request, env)) ?? (await requestHandler(request, routerContext(env, ctx)));
    await drain(spare);
    return response;
  },
} satisfies ExportedHandler<Env>;
