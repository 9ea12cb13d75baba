import { describe, expect, it } from "vitest";
import {
  clampRushScore,
  elapsedPercent,
  estimatedOverallPosition,
  formatCountdown,
  formatRomeDateTime,
  fromRomeInputValue,
  rushTestQuery,
  subjectIconKind,
  toRomeInputValue,
} from "~/lib/rush";

describe("Quiz Rush helpers", () => {
  it("formats the remaining time as 'days g HH:MM:SS', never negative", () => {
    expect(formatCountdown(((2 * 24 + 3) * 3600 + 4 * 60 + 5) * 1000 + 999)).toBe("2 g 03:04:05");
    expect(formatCountdown(59_000)).toBe("0 g 00:00:59");
    expect(formatCountdown(-5000)).toBe("0 g 00:00:00");
  });

  it("computes the elapsed share of the window in whole percent, clamped", () => {
    expect(elapsedPercent(0, 1000, 250)).toBe(25);
    expect(elapsedPercent(0, 1000, -10)).toBe(0);
    expect(elapsedPercent(0, 1000, 5000)).toBe(100);
  });

  it("reads and shows times in Europe/Rome across daylight saving time", () => {
    expect(fromRomeInputValue("2026-12-01T10:00")).toBe(Date.UTC(2026, 11, 1, 9, 0));
    expect(fromRomeInputValue("2026-07-01T10:00")).toBe(Date.UTC(2026, 6, 1, 8, 0));
    expect(fromRomeInputValue("2026-02-31T10:00")).toBeNull();
    expect(fromRomeInputValue("domani")).toBeNull();
    expect(toRomeInputValue(Date.UTC(2026, 6, 1, 8, 0))).toBe("2026-07-01T10:00");
    expect(formatRomeDateTime(Date.UTC(2026, 10, 22, 8, 5))).toBe("22/11/2026, 09:05");
  });

  it("clamps scores to 0-31 and estimates the overall position as max(1, 200 − round(score/31 × 180))", () => {
    expect(clampRushScore(45)).toBe(31);
    expect(clampRushScore(-2)).toBe(0);
    expect(clampRushScore(Number.NaN)).toBe(0);
    expect(estimatedOverallPosition(31)).toBe(20);
    expect(estimatedOverallPosition(0)).toBe(200);
    expect(estimatedOverallPosition(15.5)).toBe(110);
    expect(estimatedOverallPosition(99)).toBe(20);
  });

  it("picks the subject icon from the name", () => {
    expect(subjectIconKind("Biologia")).toBe("biology");
    expect(subjectIconKind("Chimica e propedeutica biochimica")).toBe("chemistry");
    expect(subjectIconKind("Fisica")).toBe("physics");
    expect(subjectIconKind("Matematica")).toBe("maths");
    expect(subjectIconKind("Ragionamento Logico")).toBe("logic");
    expect(subjectIconKind("Logica")).toBe("logic");
    expect(subjectIconKind("Storia")).toBe("book");
  });

  it("builds the /test query: q defaults to 31 and is clamped, topic and time optional, any bad value refused", () => {
    expect(rushTestQuery({ subject: "1", eventId: 7 })).toBe("subject=1&q=31&rushEventId=7");
    expect(rushTestQuery({ subject: "2", topic: "5", q: "10", time: "400", eventId: 7 })).toBe(
      "subject=2&topic=5&q=10&time=400&rushEventId=7",
    );
    expect(rushTestQuery({ subject: "2", q: "99", eventId: 7 })).toBe("subject=2&q=31&rushEventId=7");
    expect(rushTestQuery({ subject: null, eventId: 7 })).toBeNull();
    expect(rushTestQuery({ subject: "x", eventId: 7 })).toBeNull();
    expect(rushTestQuery({ subject: "1", topic: "abc", eventId: 7 })).toBeNull();
    expect(rushTestQuery({ subject: "1", time: "0", eventId: 7 })).toBeNull();
  });
});
