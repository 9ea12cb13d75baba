// Test entry for vitest's workerd: the Durable Object and the socket route of workers/app.ts,
// without the React Router build (route modules are imported directly by the tests). The room is bound with its test
// hooks (workers/room/test-room.ts) under the production class's name, so wrangler.jsonc's binding finds it.
import { routeSimulationSocket } from "../workers/simulation-socket";

export { TestSimulationRoom as SimulationRoom } from "../workers/room/test-room";

export default {
  async fetch(request, env) {
    return (await routeSimulationSocket(request, env)) ?? new Response("Not found", { status: 404 });
  },
} satisfies ExportedHandler<Env>;
