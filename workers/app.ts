// Worker entry: simulation sockets go to their Durable Object, everything else to React Router.
import { createRequestHandler, RouterContextProvider } from "react-router";
import { cloudflareContext } from "../app/server/context";
import { routeSimulationSocket } from "./simulation-socket";

export { SimulationRoom } from "./simulation-room";

const requestHandler = createRequestHandler(
  () => import("virtual:react-router/server-build"),
  import.meta.env.MODE,
);

export default {
  async fetch(request, env, ctx) {
    const socket = await routeSimulationSocket(request, env);
    if (socket) return socket;
    const context = new RouterContextProvider();
    context.set(cloudflareContext, { env, ctx });
    return requestHandler(request, context);
  },
} satisfies ExportedHandler<Env>;
