// The room's sockets (hibernation API): who each one is lives in its attachment, and each carries tags so that a hot
// path asks the runtime for the sockets it needs (getWebSockets(tag)) instead of waking every one of them.
//   "candidate"  every socket of the exam page (candidates, and an admin looking on): deadlines, keys, the start
//   "staff"      the teacher's live view (counts and scores, never answers or keys)
//   "user:<id>"  a candidate's own sockets (is this pupil connected? who is moved to another room?)

/** `staff`: the teacher's live view. */
export type SocketData = { userId: number; role: string; staff?: boolean };

export const CANDIDATE_TAG = "candidate";
export const STAFF_TAG = "staff";
export const userTag = (userId: number) => `user:${userId}`;

/** Sends a frame; false when the socket is closing under us (it gets the state in its next hello). */
export function sendTo(ws: WebSocket, text: string): boolean {
  try {
    ws.send(text);
    return true;
  } catch {
    return false;
  }
}

export function sendEach(sockets: Iterable<WebSocket>, text: string) {
  for (const ws of sockets) sendTo(ws, text);
}

/** Closes a socket that may already be closed. */
export function closeQuietly(ws: WebSocket, code: number, reason: string) {
  try {
    ws.close(code, reason);
  } catch {
    // already closed
  }
}

export class RoomSockets {
  /** A socket's attachment, deserialized once per wake-up (every answer needs its user). */
  private attachments = new WeakMap<WebSocket, SocketData>();

  constructor(private readonly ctx: DurableObjectState) {}

  accept(ws: WebSocket, data: SocketData) {
    const tags = data.staff ? [STAFF_TAG] : [CANDIDATE_TAG, userTag(data.userId)];
    this.ctx.acceptWebSocket(ws, tags);
    ws.serializeAttachment(data);
    this.attachments.set(ws, data);
  }

  data(ws: WebSocket): SocketData {
    let data = this.attachments.get(ws);
    if (!data) {
      data = ws.deserializeAttachment() as SocketData;
      this.attachments.set(ws, data);
    }
    return data;
  }

  /** Every socket of the exam page (candidates and admins looking on), not the staff's. */
  candidates(): WebSocket[] {
    return this.ctx.getWebSockets(CANDIDATE_TAG);
  }

  staff(): WebSocket[] {
    return this.ctx.getWebSockets(STAFF_TAG);
  }

  ofUser(userId: number): WebSocket[] {
    return this.ctx.getWebSockets(userTag(userId));
  }

  /** Every socket (a message for everybody: the start, the end). */
  all(): WebSocket[] {
    return this.ctx.getWebSockets();
  }

  /** Whether a candidate has an open socket here (`closing`: one of theirs on its way out). */
  isConnected(userId: number, closing?: WebSocket): boolean {
    return this.ofUser(userId).some((ws) => ws !== closing && ws.readyState === WebSocket.OPEN);
  }

  /** The candidates (not admins) with an open socket. */
  connectedCandidates(): Set<number> {
    const connected = new Set<number>();
    for (const ws of this.candidates()) {
      const data = this.data(ws);
      if (data.role !== "admin" && ws.readyState === WebSocket.OPEN) connected.add(data.userId);
    }
    return connected;
  }
}
