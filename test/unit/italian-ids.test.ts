import { describe, expect, it } from "vitest";
import { codiceFiscaleCheckChar, isValidCap, isValidCodiceFiscale, isValidPhone } from "~/lib/italian-ids";

describe("codice fiscale", () => {
  it("accepts well-formed codes with the right check character, in any case", () => {
    expect(isValidCodiceFiscale("RSSMRA85T10A562S")).toBe(true);
    expect(isValidCodiceFiscale("mrtmtt91d08f205j")).toBe(true);
    expect(codiceFiscaleCheckChar("RSSMRA85T10A562")).toBe("S");
  });
  it("refuses a wrong check character, a bad month letter, a wrong length", () => {
    expect(isValidCodiceFiscale("RSSMRA85T10A562X")).toBe(false);
    expect(isValidCodiceFiscale("RSSMRA85Z10A562S")).toBe(false);
    expect(isValidCodiceFiscale("RSSMRA85T10A562")).toBe(false);
    expect(isValidCodiceFiscale("")).toBe(false);
  });
});

describe("CAP and phone", () => {
  it("CAP is exactly five digits", () => {
    expect(isValidCap("20121")).toBe(true);
    expect(isValidCap("2012")).toBe(false);
    expect(isValidCap("2012A")).toBe(false);
  });
  it("phone allows a leading + and separators", () => {
    expect(isValidPhone("+39 333 123 4567")).toBe(true);
    expect(isValidPhone("02-1234567")).toBe(true);
    expect(isValidPhone("12ab")).toBe(false);
  });
});
