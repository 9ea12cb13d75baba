import { describe, expect, it } from "vitest";
import { navChoiceIn, navCollapsedFrom, navCookie } from "~/lib/nav-state";

describe("the side navigation's collapsed state in a cookie (issue 33)", () => {
  it("is collapsed only when the cookie says so, among other cookies", () => {
    expect(navCollapsedFrom(null)).toBe(false);
    expect(navCollapsedFrom("unicum_session=abc")).toBe(false);
    expect(navCollapsedFrom("unicum_session=abc; unicum_nav=collapsed; unicum_consent=x")).toBe(true);
    expect(navCollapsedFrom("unicum_nav=expanded")).toBe(false);
    expect(navCollapsedFrom("x_unicum_nav=collapsed")).toBe(false);
  });

  it("tells a choice made from none (a choice still in localStorage moves over only then)", () => {
    expect(navChoiceIn("unicum_nav=expanded")).toBe(true);
    expect(navChoiceIn("unicum_session=abc")).toBe(false);
  });

  it("writes a site-wide, year-long cookie that the server reads back", () => {
    const cookie = navCookie(true, true);
    expect(cookie).toMatch(/^unicum_nav=collapsed; Path=\/; Max-Age=31536000; SameSite=Lax; Secure$/);
    expect(navCollapsedFrom(cookie.split(";")[0])).toBe(true);
    expect(navCookie(false, false)).not.toContain("Secure");
  });
});
