// The room's protocol: what the room and the browser accept, and how students are spread over rooms.
import { describe, expect, it } from "vitest";
import { BLIP_END_MARGIN_MS, blipFlushAt, SOCKET_BLIP_GRACE_MS } from "~/lib/runner-timing";
import {
  ClientMessage,
  encodeServerMessage,
  parseClientFrame,
  parseFrame,
  roomName,
  ServerMessage,
  shardCount,
  shardOf,
} from "~/lib/simulation-protocol";

describe("simulation protocol", () => {
  it("parses the client's ping and answer, and nothing else", () => {
    expect(parseFrame(ClientMessage, JSON.stringify({ type: "ping", t0: 12.5 }))).toEqual({ type: "ping", t0: 12.5 });
    expect(
      parseFrame(
        ClientMessage,
        JSON.stringify({ type: "answer", seq: 3, subjectId: 2, questionId: 2001, value: "30" }),
      ),
    ).toMatchObject({ questionId: 2001 });
    expect(parseFrame(ClientMessage, "not json")).toBeNull();
    expect(
      parseFrame(ClientMessage, JSON.stringify({ type: "answer", subjectId: "2", questionId: 2001, value: "30" })),
    ).toBeNull();
    expect(
      parseFrame(ClientMessage, JSON.stringify({ type: "ack", seq: 1, subjectId: 2, questionId: 2001 })),
    ).toBeNull();
    // Sealed prefetch (issue 31): a subject's key, by its index in the flow.
    expect(parseFrame(ClientMessage, JSON.stringify({ type: "key", subject: 1 }))).toEqual({ type: "key", subject: 1 });
    expect(parseFrame(ClientMessage, JSON.stringify({ type: "key", subject: "1" }))).toBeNull();
    expect(parseFrame(ClientMessage, JSON.stringify({ type: "key", subject: 0.5 }))).toBeNull();
    expect(parseFrame(ClientMessage, new TextEncoder().encode(JSON.stringify({ type: "ping" })).buffer)).toEqual({
      type: "ping",
    });
  });

  it("the room's fast parser accepts and refuses exactly what ClientMessage does, and keeps only its fields", () => {
    const values: unknown[] = [
      undefined,
      null,
      0,
      -0,
      1,
      -7,
      2.5,
      2 ** 53,
      -(2 ** 53),
      1e300,
      "1",
      "",
      "risposta",
      true,
      [],
      {},
      [1],
    ];
    const frames: string[] = ["", "not json", "null", "[]", "42", '"answer"', "{}"];
    for (const type of ["answer", "ping", "key", "Answer", undefined, 3])
      for (const a of values)
        for (const b of values) {
          frames.push(JSON.stringify({ type, seq: a, subjectId: 2, questionId: b, value: "x" }));
          frames.push(JSON.stringify({ type, seq: 1, subjectId: a, questionId: 2001, value: b }));
          frames.push(JSON.stringify({ type, t0: a, subject: b }));
          frames.push(JSON.stringify({ type, subjectId: 2, questionId: 2001, value: a, extra: b }));
        }
    let accepted = 0;
    for (const frame of frames) {
      const fast = parseClientFrame(frame);
      expect(fast, frame).toEqual(parseFrame(ClientMessage, frame));
      if (fast) accepted++;
    }
    // Both kinds of answer the bench sends, and a ping, are among the accepted ones.
    expect(accepted).toBeGreaterThan(100);
    expect(parseClientFrame(JSON.stringify({ type: "answer", subjectId: 2, questionId: 9, value: "B", x: 1 }))).toEqual(
      {
        type: "answer",
        subjectId: 2,
        questionId: 9,
        value: "B",
      },
    );
  });

  it("round-trips every message of the room through the browser's schema", () => {
    const messages = [
      {
        type: "hello",
        serverTime: 1,
        id: "s",
        started: true,
        startTime: 2,
        closedThrough: 1,
        answers: { "2": { "2001": "30" } },
        graded: false,
      },
      { type: "pong", t0: null, serverTime: 5 },
      { type: "simulation-start", id: "s", startTime: 9 },
      { type: "subject-closed", closedThrough: 2 },
      { type: "simulation-end", id: "s" },
      { type: "ack", seq: 1, subjectId: 2, questionId: 2001 },
      { type: "rejected", seq: null, subjectId: 2, questionId: 2001, error: "Tempo scaduto" },
      { type: "error", error: "Messaggio non valido." },
      { type: "subject-key", subject: 1, key: "AAEC" },
      { type: "key-refused", subject: 1, error: "Questa materia non è ancora iniziata." },
    ] as const;
    for (const m of messages) expect(parseFrame(ServerMessage, encodeServerMessage(m))).toEqual(m);
    expect(parseFrame(ServerMessage, JSON.stringify({ type: "subject-closed" }))).toBeNull();
  });

  it("gives ceil(allowed / 1,000) rooms, at least one, and a room per student that depends on its id only", () => {
    expect([0, 1, 1000, 1001, 60_000].map(shardCount)).toEqual([1, 1, 1, 2, 60]);
    expect(shardOf(7, 1)).toBe(0);
    const counts = new Array(60).fill(0);
    for (let id = 1; id <= 60_000; id++) counts[shardOf(id, 60)]++;
    expect(Math.max(...counts)).toBe(1000);
    expect(shardOf(12_345, 60)).toBe(shardOf(12_345, 60));
    expect(roomName("nazionale", 7)).toBe("nazionale:7");
  });

  it("holds an answer given with the socket down until the blip's grace ends, or the subject's last seconds", () => {
    // A socket that never opened (blocked): over HTTP at once.
    expect(blipFlushAt(null, 10_000, 60_000)).toBe(10_000);
    // Dropped 1 s ago, a minute left: at the end of the grace, counted from the drop.
    expect(blipFlushAt(9_000, 10_000, 60_000)).toBe(9_000 + SOCKET_BLIP_GRACE_MS);
    expect(blipFlushAt(9_000, 10_000)).toBe(9_000 + SOCKET_BLIP_GRACE_MS);
    // Near the subject's end: the margin before it comes first.
    expect(blipFlushAt(9_000, 10_000, 4_000)).toBe(10_000 + 4_000 - BLIP_END_MARGIN_MS);
    // In the last seconds: not later than now (the caller saves over HTTP at once).
    expect(blipFlushAt(9_000, 10_000, 1_000)).toBeLessThanOrEqual(10_000);
  });
});
