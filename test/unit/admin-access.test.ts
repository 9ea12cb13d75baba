import { describe, expect, it } from "vitest";
import { canReadAttempt } from "~/server/admin/access.server";

describe("canReadAttempt", () => {
  it("lets the owner and any admin read an attempt, and nobody else (moderators included)", () => {
    expect(canReadAttempt({ id: 1, effectiveRole: "studente" }, 1)).toBe(true);
    expect(canReadAttempt({ id: 2, effectiveRole: "studente" }, 1)).toBe(false);
    expect(canReadAttempt({ id: 3, effectiveRole: "moderator" }, 1)).toBe(false);
    expect(canReadAttempt({ id: 4, effectiveRole: "admin" }, 1)).toBe(true);
  });
});
