// Italian number formatting, as Intl.NumberFormat("it-IT") writes it, without making one in the browser: the first
// Italian Intl formatter a page makes loads the locale's data, 50-80 ms of a phone's CPU (4x slowdown) in the middle of
// the dashboard's hydration (issue 47, point 4; bench/phone-profile.ts). test/unit/format.test.ts holds the two
// equal. What this does not cover (no finite number, exponent notation, over 20 decimals) goes to Intl, one formatter
// per shape, made once: toLocaleString builds a new formatter on every call.
const formatters = new Map<string, Intl.NumberFormat>();

function withIntl(n: number, max: number, min: number): string {
  const key = `${min}:${max}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat("it-IT", { minimumFractionDigits: min, maximumFractionDigits: max });
    formatters.set(key, formatter);
  }
  return formatter.format(n);
}

/** Adds one to the last digit of a string of digits ("199" → "200", "99" → "100"). */
function increment(digits: string): string {
  let i = digits.length - 1;
  while (i >= 0 && digits[i] === "9") i--;
  if (i < 0) return `1${"0".repeat(digits.length)}`;
  return `${digits.slice(0, i)}${Number(digits[i]) + 1}${"0".repeat(digits.length - i - 1)}`;
}

/** `n` in Italian ("12,5"; "12.345" from ten thousand up), with between `min` and `max` decimals. */
export function formatDecimal(n: number, max = 1, min = 0): string {
  // The shortest decimal that reads back as n, as Intl rounds it (not toFixed's exact binary value: 1.005 → "1,01").
  const shortest = String(Math.abs(n));
  if (!Number.isFinite(n) || shortest.includes("e") || max > 20 || min > max) return withIntl(n, max, min);
  const [whole = "0", fraction = ""] = shortest.split(".");
  let digits = whole + fraction.slice(0, max).padEnd(max, "0");
  // Half away from zero on that decimal (Intl's default rounding, halfExpand).
  if (fraction.length > max && fraction[max]! >= "5") digits = increment(digits);
  const integer = digits.slice(0, digits.length - max) || "0";
  let decimals = digits.slice(digits.length - max);
  let end = decimals.length;
  while (end > min && decimals[end - 1] === "0") end--;
  decimals = decimals.slice(0, end);
  // Italian groups thousands only from five digits up ("1234", "12.345").
  const grouped = integer.length < 5 ? integer : integer.replace(/\B(?=(\d{3})+$)/g, ".");
  const sign = n < 0 || Object.is(n, -0) ? "-" : "";
  return `${sign}${grouped}${decimals ? `,${decimals}` : ""}`;
}
