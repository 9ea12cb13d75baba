// The Worker entry of the development and e2e servers: workers/app.ts with the room's test hooks bound
// (workers/room/test-room.ts, under the production class's name so that wrangler.jsonc's binding and the rooms' storage
// stay the same). vite.config.ts picks it for `react-router dev` and for builds made with UNICUM_TEST_HOOKS=1
// (test/e2e/serve.ts); `npm run build` and `npm run deploy` keep workers/app.ts, whose room has no hooks.
export { default } from "./app";
export { TestSimulationRoom as SimulationRoom } from "./room/test-room";
