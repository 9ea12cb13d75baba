import { describe, expect, it } from "vitest";
import { O } from "~/components/offline/messages";
import { savedWhen } from "~/lib/offline-label";

// 28 March 2026, 9:42 in Italy (CET, UTC+1), and the instants around it.
const at = (iso: string) => Date.parse(iso);

describe("the date of data shown offline (issue 47)", () => {
  it("says today, yesterday, or the day, on Italy's clock", () => {
    const now = at("2026-03-28T15:00:00Z");
    expect(O.offlineData(savedWhen(at("2026-03-28T08:42:00Z"), now))).toBe("Offline · dati di oggi alle 9:42");
    expect(savedWhen(at("2026-03-27T17:05:00Z"), now)).toBe("di ieri alle 18:05");
    expect(savedWhen(at("2026-03-03T08:42:00Z"), now)).toBe("del 3 marzo alle 9:42");
    expect(savedWhen(at("2025-12-31T22:59:00Z"), now)).toBe("del 31 dicembre 2025 alle 23:59");
  });
  it("follows Italy's midnight, not UTC's", () => {
    // 23:30 UTC on the 27th is 00:30 on the 28th in Italy: today.
    expect(savedWhen(at("2026-03-27T23:30:00Z"), at("2026-03-28T10:00:00Z"))).toBe("di oggi alle 0:30");
    // Summer time (UTC+2) after the last Sunday of March.
    expect(savedWhen(at("2026-07-01T07:42:00Z"), at("2026-07-01T08:00:00Z"))).toBe("di oggi alle 9:42");
  });
});
