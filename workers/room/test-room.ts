// The room with its test hooks: bound as SimulationRoom only by the test servers, never by a production build.
//   - vitest's workerd (test/worker.ts re-exports this class under the production class's name), where the
//     integration tests call the hooks through runInDurableObject;
//   - the development server and the e2e servers (`react-router dev`, and builds made with UNICUM_TEST_HOOKS=1:
//     test/e2e/serve.ts), whose entry is workers/app-test-hooks.ts, for POST /api/admin/simulations/{id}/clock.
// `npm run build` (and so `npm run deploy` and the benches) binds workers/simulation-room.ts's class, which has none.
import { SimulationRoom } from "../simulation-room";

export class TestSimulationRoom extends SimulationRoom {
  /** Who has a socket here (candidates, admins and staff alike). */
  connectedUserIds(): number[] {
    return this.ctx.getWebSockets().map((ws) => this.room.sockets.data(ws).userId);
  }

  /** How long answers wait to be written together (this wake-up). */
  setAnswerBatchForTest(ms: number): void {
    this.room.answers.batchMs = ms;
  }

  /** Moves the stored start instant (to simulate time passing) and reschedules, telling nobody. */
  async shiftStartForTest(startTime: number): Promise<void> {
    if (!this.room.plans.current()) return;
    await this.room.plans.moveStart(startTime);
  }

  /**
   * For the browser tests (POST /api/admin/simulations/{id}/clock, development sign-in only): the same move, told to
   * the connected candidates as a new start (the production moveStart), so their countdowns follow the room without
   * waiting real minutes.
   */
  moveStartForTest(startTime: number): Promise<boolean> {
    return this.moveStart(startTime);
  }
}
