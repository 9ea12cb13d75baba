import { describe, expect, it } from "vitest";
import { addDays, daysEndingOn, isCalendarDay, isClockTime, italianDay, readFromForDay } from "~/lib/days";

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

describe("dates a person types (issue 44)", () => {
  it("takes a day only when it exists: 2026-02-31 is not 3 March", () => {
    for (const day of ["2026-02-28", "2024-02-29", "2026-12-31", "2027-01-01", "2026-04-30"])
      expect(isCalendarDay(day), day).toBe(true);
    for (const day of [
      "2026-02-31",
      "2026-02-29",
      "2026-04-31",
      "2026-13-01",
      "2026-00-10",
      "2026-01-00",
      "2026-1-05",
      "26-01-05",
      "0999-01-01",
      "2026-01-05T10:00",
      " 2026-01-05",
      "",
    ])
      expect(isCalendarDay(day), day).toBe(false);
  });

  it("takes a time of day from 00:00 to 23:59:59, never 24:00 or 10:75", () => {
    for (const time of ["00:00", "09:05", "23:59", "23:59:59"]) expect(isClockTime(time), time).toBe(true);
    for (const time of ["24:00", "10:60", "10:75", "9:05", "10:00:60", "10", ""])
      expect(isClockTime(time), time).toBe(false);
  });
});
