// What the room signs and derives from SESSION_SECRET, never stored: each subject's sealed-copy key (issue 31: derived
// once per wake-up, released to a candidate for whom the subject is open, pushed to every connected candidate at each
// opening) and each candidate's resume token (a reconnect then needs no D1).
import { openedBetween, type RoomPlan } from "../../app/lib/room-plan";
import { encodeServerMessage } from "../../app/lib/simulation-protocol";
import { RESUME_AFTER_END_MS, signResume } from "../../app/server/simulation/room-resume.server";
import { subjectKeyText } from "../../app/server/simulation/sealed-copies.server";
import { sendEach, sendTo } from "./sockets";
import { ROOM_TEXT } from "./text";

export class RoomKeys {
  /** Each subject's key (base64), derived once per wake-up from the plan. */
  private subjectKeys = new Map<number, Promise<string>>();
  /** Resume tokens signed this wake-up, by user, role and sitting: a reconnect's hello signs nothing. */
  private resumeTokens = new Map<string, string>();

  constructor(private readonly env: Env) {}

  /**
   * A candidate's resume token (app/server/simulation/room-resume.server.ts): this user and role, this simulation and
   * room, valid until a few minutes after the room's last end. Null without a secret or when signing fails (the
   * reconnect then goes through the session, as a first connection does).
   */
  async resumeToken(plan: RoomPlan, userId: number, role: string): Promise<string | null> {
    const secret = this.env.SESSION_SECRET;
    if (!secret || secret.length < 32) return null;
    const { simulationId, shard, startTime } = plan.config;
    const expiresAt = plan.end + RESUME_AFTER_END_MS;
    // The room's simulation and shard are fixed; the sitting (start, end) may move before it begins.
    const id = `${userId}|${role}|${startTime}|${expiresAt}`;
    const known = this.resumeTokens.get(id);
    if (known) return known;
    try {
      const token = await signResume(secret, { userId, role, simulationId, shard, startTime }, expiresAt);
      this.resumeTokens.set(id, token);
      return token;
    } catch (error) {
      console.warn("room: could not sign a resume token", error);
      return null;
    }
  }

  /** Subject `index`'s key (base64), derived once per wake-up (HKDF from SESSION_SECRET, no D1); null without a secret. */
  private subjectKey(plan: RoomPlan, index: number): Promise<string> | null {
    const secret = this.env.SESSION_SECRET;
    const subject = plan.config.subjects[index];
    if (!secret || !subject) return null;
    let key = this.subjectKeys.get(index);
    if (!key) {
      key = subjectKeyText(secret, plan.config.simulationId, index, subject.binding ?? "");
      key.catch(() => this.subjectKeys.delete(index));
      this.subjectKeys.set(index, key);
    }
    return key;
  }

  /**
   * The key of subject `index` to a candidate for whom it is open now (their own windows, accommodation included: the
   * same rule as the questions of GET /api/simulations/{id}), else a refusal. Each request after the first derivation
   * costs a map lookup and one send, like an ack.
   */
  async release(
    ws: WebSocket,
    userId: number,
    index: number,
    staff: boolean,
    planOf: () => Promise<RoomPlan | null>,
  ): Promise<void> {
    const refuse = (error: string) => ws.send(encodeServerMessage({ type: "key-refused", subject: index, error }));
    if (staff) return refuse(ROOM_TEXT.keyNotForStaff);
    const plan = await planOf();
    if (!plan) return refuse(ROOM_TEXT.notStarted);
    const window = Number.isInteger(index) && index >= 0 ? plan.windowsOf(userId)[index] : undefined;
    const subject = window ? plan.config.subjects[index] : undefined;
    if (!window || !subject) return refuse(ROOM_TEXT.unknownSubject);
    if (Date.now() < window.startsAt) return refuse(ROOM_TEXT.notYet);
    const key = this.subjectKey(plan, index);
    if (!key) return refuse(ROOM_TEXT.noKey);
    try {
      ws.send(encodeServerMessage({ type: "subject-key", subject: index, key: await key }));
    } catch (error) {
      console.warn("room: could not release a subject key", error);
      // closed meanwhile: the runner asks again or falls back to HTTP
      sendTo(ws, encodeServerMessage({ type: "key-refused", subject: index, error: ROOM_TEXT.noKey }));
    }
  }

  /**
   * At each opening (the alarm), the key of every subject that opened in (since, now] for a connected candidate (their
   * own windows) goes to them unasked, so a whole sitting opens its subject without a request each. A socket opened
   * later asks (release).
   */
  async push(plan: RoomPlan, candidates: Iterable<{ ws: WebSocket; userId: number }>, since: number, now: number) {
    const due = new Map<number, WebSocket[]>();
    for (const { ws, userId } of candidates) {
      for (const index of openedBetween(plan.windowsOf(userId), since, now)) {
        const list = due.get(index);
        if (list) list.push(ws);
        else due.set(index, [ws]);
      }
    }
    for (const [index, sockets] of due) {
      let text: string;
      try {
        const key = this.subjectKey(plan, index);
        if (!key) return;
        text = encodeServerMessage({ type: "subject-key", subject: index, key: await key });
      } catch (error) {
        console.warn("room: could not derive a subject key", error);
        continue;
      }
      sendEach(sockets, text); // a socket closing: the runner asks again once reconnected
    }
  }

  /** Forgets what was derived and signed (the simulation was deleted). */
  forget() {
    this.subjectKeys.clear();
    this.resumeTokens.clear();
  }
}
