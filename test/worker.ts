// Test entry for vitest's workerd: the Durable Object and the socket route of workers/app.ts,
// without the React Router build (route modules are imported directly by the tests).
import { routeSimulationSocket } from "../workers/simulation-socket";

export { SimulationRoom } from "../workers/simulation-room";

export default {
  async fetch(request, env) {
    return (await routeSimulationSocket(request, env)) ?? new Response("Not found", { status: 404 });
  },
} satisfies ExportedHandler<Env>;
