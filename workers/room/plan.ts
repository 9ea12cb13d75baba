// The room's plan (app/lib/room-plan.ts): loaded from D1 once, the first time the simulation is seen started, kept in
// the store (so a new instance after eviction or a release needs no D1), parsed once per wake-up, and the room's
// alarm at its next opening or deadline.
import { SIMULATION_GRACE_MS } from "../../app/lib/constants";
import { nextAlarm, planOf, type RoomConfig, type RoomPlan } from "../../app/lib/room-plan";
import { simulationExtraTimes } from "../../app/server/accommodations.server";
import { getDb } from "../../app/server/db/client.server";
import { answerKeysOf, loadSimulation } from "../../app/server/simulation/plan.server";
import { subjectBinding } from "../../app/server/simulation/sealed-copies.server";
import type { RoomStore } from "./store";

/** What the start RPC knows (the Worker read it from D1): the plan then loads without asking again. */
export type KnownStart = { simulationId: string; shard: number; startTime?: number };

/** A not-yet-started simulation is asked about at most this often (a class connecting at once asks once). */
const START_CHECK_MS = 2000;

export class RoomPlans {
  private plan: RoomPlan | null = null;
  /** Last time D1 was asked whether a not-yet-started simulation has started. */
  private lastStartCheck = 0;

  constructor(
    private readonly store: RoomStore,
    private readonly storage: DurableObjectStorage,
    private readonly env: Env,
  ) {}

  /** The stored plan, parsed once per wake-up (every answer needs it); null before the start. */
  current(): RoomPlan | null {
    if (this.plan) return this.plan;
    const config = this.store.config;
    if (!config) return null;
    this.plan = planOf(config, SIMULATION_GRACE_MS);
    // A new instance (a wake-up, a restarted process, a release) arms its next opening or deadline itself: the instant
    // follows from the plan, and a process that took over storage written by another may not hold the alarm that
    // storage says is set (the room bench's deploy: subject 3 never opened and the grading waited for the candidates).
    this.scheduleNextAlarm(this.plan.config).catch((error) =>
      console.warn("room: could not re-arm the deadline", error),
    );
    return this.plan;
  }

  /** Keeps a (new) config: stored, and the plan made from it. */
  keep(config: RoomConfig): RoomPlan {
    this.store.config = config;
    this.plan = planOf(config, SIMULATION_GRACE_MS);
    return this.plan;
  }

  /** The room's plan, loaded from D1 the first time the simulation is seen started. */
  async ensure(known?: KnownStart): Promise<RoomPlan | null> {
    const cached = this.current();
    if (cached) return cached;
    const simulationId = known?.simulationId ?? this.store.simulationId;
    if (!simulationId) return null;
    const now = Date.now();
    if (!known && now - this.lastStartCheck < START_CHECK_MS) return null;
    this.lastStartCheck = now;
    const db = getDb(this.env.DB);
    const sim = await loadSimulation(db, simulationId, { allowedUsers: false });
    const startTime = known?.startTime ?? sim?.startTime;
    if (!sim?.started || startTime == null) return null;
    if (this.current()) return this.plan; // a concurrent call got there first
    const config: RoomConfig = {
      simulationId,
      shard: known?.shard ?? this.store.shard,
      startTime,
      flow: sim.subjects.map((s) => ({ id: s.id, name: s.name, timeMin: s.timeMin, breakAfterMin: s.breakAfterMin })),
      // Each subject's key is bound to its questions as they are now (sealed copies made before an edit do not open).
      subjects: await Promise.all(
        answerKeysOf(sim).map(async (keys, i) => ({
          ...keys,
          binding: await subjectBinding(sim.subjects[i]!.questions),
        })),
      ),
      // Fixed at the start (simulation_accommodations): each accommodated candidate's own deadlines.
      extra: await simulationExtraTimes(db, simulationId),
      // THE sitting's end, stored at Avvia (moved with the start when the start is told here: a test's clock).
      ...(sim.endsAt != null && sim.startTime != null ? { endsAt: sim.endsAt + (startTime - sim.startTime) } : {}),
    };
    this.store.name(simulationId, config.shard);
    this.keep(config);
    await this.scheduleNextAlarm(config);
    return this.plan;
  }

  /** The next instant some candidate's subject opens or closes (every deadline of every candidate, plus the grace). */
  async scheduleNextAlarm(config: RoomConfig) {
    if (this.store.graded) return;
    const plan = this.plan?.config === config ? this.plan : planOf(config, SIMULATION_GRACE_MS);
    const next = nextAlarm(plan, Date.now());
    if (next != null) await this.storage.setAlarm(next);
  }

  /**
   * Moves the stored start instant, and with it every opening and deadline (the sitting's stored end too), and
   * reschedules: a day alone whose break the student cut short (app/server/simulation/solo.server.ts), and the test
   * servers' clock. Openings and deadlines moved behind the last alarm run are done again at the next one (sent twice is
   * harmless). False before the start.
   */
  async moveStart(startTime: number): Promise<boolean> {
    const plan = await this.ensure();
    if (!plan) return false;
    if (this.store.alarmRanAt >= startTime) this.store.alarmRanAt = startTime - 1;
    const endsAt = plan.config.endsAt != null ? plan.config.endsAt + (startTime - plan.config.startTime) : undefined;
    const config = this.keep({ ...plan.config, startTime, ...(endsAt != null ? { endsAt } : {}) }).config;
    await this.scheduleNextAlarm(config);
    return true;
  }

  /** Forgets the plan (the simulation was deleted). */
  forget() {
    this.plan = null;
  }
}
