// Italian identifiers on the profile: codice fiscale (with its check character and omocodia
// substitutions), CAP, phone. Pure functions shared by the profile form and the server schema.

const CF_PATTERN = /^[A-Z]{6}[0-9LMNPQRSTUV]{2}[ABCDEHLMPRST][0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{3}[A-Z]$/;

// Values of a character in an odd (1st, 3rd, ...) position; digits share the value of A..J.
const ODD = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23];

function charIndex(ch: string): number {
  const code = ch.charCodeAt(0);
  return code >= 48 && code <= 57 ? code - 48 : code - 65;
}

/** The check character (16th) a codice fiscale must end with, from its first 15 characters. */
export function codiceFiscaleCheckChar(first15: string): string {
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    const idx = charIndex(first15[i]!);
    sum += i % 2 === 0 ? ODD[idx]! : idx;
  }
  return String.fromCharCode(65 + (sum % 26));
}

/** A well-formed Italian codice fiscale (uppercase, 16 characters) with the right check character. */
export function isValidCodiceFiscale(value: string): boolean {
  const cf = value.trim().toUpperCase();
  if (!CF_PATTERN.test(cf)) return false;
  return codiceFiscaleCheckChar(cf.slice(0, 15)) === cf[15];
}

/** CAP: exactly five digits. */
export function isValidCap(value: string): boolean {
  return /^\d{5}$/.test(value.trim());
}

/** Phone: optional leading +, then 6-15 digits (spaces, dots and dashes allowed between). */
export function isValidPhone(value: string): boolean {
  const compact = value.trim().replace(/[\s.-]/g, "");
  return /^\+?\d{6,15}$/.test(compact);
}
