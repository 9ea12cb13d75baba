// The browser side of the teacher's live view: one staff socket per room (reconnecting with a jittered back-off that
// starts over once the room has sent its state, app/lib/runner-timing.ts), the rooms'
// states kept current from their messages, and the server clock (offset from ping round trips, fastest kept).
// Nothing is polled: the state changes only when a room says so.
import { useEffect, useRef, useState } from "react";
import { roomView, withPupil, type RoomView } from "~/lib/live-view";
import { firstResyncMs, RESYNC_MS, ReconnectBackoff } from "~/lib/runner-timing";
import { estimateClockOffset, type ClockSample } from "~/lib/simulation";
import { encodeClientMessage, type LiveStateMessage, parseFrame, StaffServerMessage } from "~/lib/simulation-protocol";

const PINGS_PER_SYNC = 5;

export function useStaffRooms(simulationId: string, initial: LiveStateMessage[], shards: number) {
  const [rooms, setRooms] = useState<(RoomView | undefined)[]>(() => initial.map(roomView));
  const [open, setOpen] = useState<boolean[]>(() => Array.from({ length: shards }, () => false));
  const [offset, setOffset] = useState<number | null>(null);
  const samples = useRef<ClockSample[]>([]);

  useEffect(() => {
    let stopped = false;
    const sockets: (WebSocket | null)[] = [];
    const timers: ReturnType<typeof setTimeout>[] = [];
    const setRoom = (shard: number, update: (room: RoomView | undefined) => RoomView | undefined) =>
      setRooms((list) => {
        const next = [...list];
        next[shard] = update(next[shard]);
        return next;
      });
    const setOpenAt = (shard: number, value: boolean) =>
      setOpen((list) => list.map((v, i) => (i === shard ? value : v)));

    const connect = (shard: number, backoff: ReconnectBackoff) => {
      const proto = location.protocol === "https:" ? "wss:" : "ws:";
      const ws = new WebSocket(
        `${proto}//${location.host}/api/simulations/${encodeURIComponent(simulationId)}/staff/ws?shard=${shard}`,
      );
      sockets[shard] = ws;
      let pingsLeft = 0;
      let sync: ReturnType<typeof setTimeout> | undefined;
      const ping = () =>
        ws.readyState === WebSocket.OPEN && ws.send(encodeClientMessage({ type: "ping", t0: performance.now() }));
      const syncNow = () => {
        pingsLeft = PINGS_PER_SYNC;
        ping();
      };
      // Every RESYNC_MS after a first one at this socket's own phase.
      const resync = () => {
        syncNow();
        sync = setTimeout(resync, RESYNC_MS);
      };
      ws.onopen = () => {
        backoff.opened(performance.now());
        setOpenAt(shard, true);
        syncNow();
        sync = setTimeout(resync, firstResyncMs(Math.random()));
      };
      ws.onmessage = (event) => {
        const receivedAt = performance.now();
        const m = parseFrame(StaffServerMessage, typeof event.data === "string" ? event.data : String(event.data));
        if (!m) return;
        switch (m.type) {
          case "live-state":
            backoff.greet();
            setRoom(shard, () => roomView(m));
            break;
          case "live-pupil":
            setRoom(shard, (room) => (room ? withPupil(room, m.pupil) : room));
            break;
          case "simulation-start":
            setRoom(shard, (room) => (room ? { ...room, started: true, startTime: m.startTime } : room));
            break;
          case "pong":
            if (m.t0 !== null) {
              samples.current = [...samples.current.slice(-11), { sentAt: m.t0, receivedAt, serverTime: m.serverTime }];
              const est = estimateClockOffset(samples.current, 3);
              if (est) setOffset(est.offset);
            }
            if (--pingsLeft > 0) ping();
            break;
          default:
            break;
        }
      };
      ws.onclose = (event) => {
        clearTimeout(sync);
        setOpenAt(shard, false);
        if (stopped) return;
        // Jittered: every teacher watching a room that restarts does not come back at once.
        const { delayMs } = backoff.afterClose(event.code, event.reason, performance.now());
        timers.push(setTimeout(() => connect(shard, backoff), delayMs));
      };
    };
    for (let shard = 0; shard < shards; shard++) connect(shard, new ReconnectBackoff());
    return () => {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      for (const ws of sockets) ws?.close(1000, "bye");
    };
  }, [simulationId, shards]);

  return { rooms, connected: open.every(Boolean), offset };
}
