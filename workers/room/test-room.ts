// The room with its test hooks: bound as SimulationRoom only by the test servers, never by a production build.
//   - vitest's workerd (test/worker.ts re-exports this class under the production class's name), where the
//     integration tests call the hooks through runInDurableObject;
//   - the development server and the e2e servers (`react-router dev`, and builds made with UNICUM_TEST_HOOKS=1:
//     test/e2e/serve.ts), whose entry is workers/app-test-hooks.ts, for POST /api/admin/simulations/{id}/clock.
// `npm run build` (and so `npm run deploy` and the benches) binds workers/simulation-room.ts's class, which has none.
import { encodeServerMessage } from "../../app/lib/simulation-protocol";
import { SimulationRoom } from "../simulation-room";
import { sendEach } from "./sockets";

export class TestSimulationRoom extends SimulationRoom {
  /** Who has a socket here (candidates, admins and staff alike). */
  connectedUserIds(): number[] {
    return this.ctx.getWebSockets().map((ws) => this.room.sockets.data(ws).userId);
  }

  /** How long answers wait to be written together (this wake-up). */
  setAnswerBatchForTest(ms: number): void {
    this.room.answers.batchMs = ms;
  }

  /** Moves the stored start instant (to simulate time passing) and reschedules. */
  async shiftStartForTest(startTime: number): Promise<void> {
    const { store, plans } = this.room;
    const plan = plans.current();
    if (!plan) return;
    // Openings and deadlines moved behind the last alarm run are done again at the next one (sent twice is harmless).
    if (store.alarmRanAt >= startTime) store.alarmRanAt = startTime - 1;
    // The sitting's stored end moves with its start.
    const endsAt = plan.config.endsAt != null ? plan.config.endsAt + (startTime - plan.config.startTime) : undefined;
    const config = plans.keep({ ...plan.config, startTime, ...(endsAt != null ? { endsAt } : {}) }).config;
    await plans.scheduleNextAlarm(config);
  }

  /**
   * For the browser tests (POST /api/admin/simulations/{id}/clock, development sign-in only): the same move, told to
   * the connected candidates as a new start, so their countdowns follow the room without waiting real minutes.
   */
  async moveStartForTest(startTime: number): Promise<boolean> {
    const plan = await this.room.plans.ensure();
    if (!plan) return false;
    await this.shiftStartForTest(startTime);
    const roomEndsAt = this.room.plans.current()?.end;
    const start = { type: "simulation-start" as const, id: plan.config.simulationId, startTime };
    sendEach(this.room.sockets.all(), encodeServerMessage({ ...start, ...(roomEndsAt != null ? { roomEndsAt } : {}) }));
    return true;
  }
}
