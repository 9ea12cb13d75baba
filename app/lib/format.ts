// Italian number formatting with one Intl.NumberFormat per shape, made once: toLocaleString builds a new formatter
// on every call, and the dashboard formats a few hundred numbers per page (it showed in the server's CPU profile).
const formatters = new Map<string, Intl.NumberFormat>();

/** `n` in Italian ("12,5"), with between `min` and `max` decimals. */
export function formatDecimal(n: number, max = 1, min = 0): string {
  const key = `${min}:${max}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat("it-IT", { minimumFractionDigits: min, maximumFractionDigits: max });
    formatters.set(key, formatter);
  }
  return formatter.format(n);
}
