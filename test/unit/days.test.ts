import { describe, expect, it } from "vitest";
import { addDays, daysEndingOn, italianDay, readFromForDay } from "~/lib/days";

describe("days in Italy's time", () => {
  it("puts an instant on its Italian calendar day, in winter (UTC+1) and in summer (UTC+2)", () => {
    expect(italianDay(Date.UTC(2026, 10, 22, 22, 59))).toBe("2026-11-22"); // 23:59 in Rome
    expect(italianDay(Date.UTC(2026, 10, 22, 23, 0))).toBe("2026-11-23"); // midnight in Rome, 23:00 in UTC
    expect(italianDay(Date.UTC(2026, 6, 10, 21, 59))).toBe("2026-07-10");
    expect(italianDay(Date.UTC(2026, 6, 10, 22, 0))).toBe("2026-07-11"); // summer time: 00:00 in Rome
    expect(italianDay(new Date(Date.UTC(2026, 11, 31, 23, 30)))).toBe("2027-01-01");
  });

  it("counts calendar days across month, year and daylight-saving changes", () => {
    expect(addDays("2026-02-28", 1)).toBe("2026-03-01");
    expect(addDays("2026-01-01", -1)).toBe("2025-12-31");
    expect(addDays("2026-03-29", 1)).toBe("2026-03-30"); // the 23-hour day
    expect(daysEndingOn("2026-03-30", 3)).toEqual(["2026-03-28", "2026-03-29", "2026-03-30"]);
    expect(daysEndingOn("2026-11-22", 60)).toHaveLength(60);
    expect(new Set(daysEndingOn("2026-11-22", 365)).size).toBe(365);
  });

  it("reads from an instant no later than the day's Italian midnight", () => {
    for (const day of ["2026-01-15", "2026-07-15"]) {
      const from = readFromForDay(day);
      expect(italianDay(from - 1) < day).toBe(true); // the instant before is still the day before
      expect(italianDay(from) >= addDays(day, -1)).toBe(true); // and not a whole day early
    }
  });
});
