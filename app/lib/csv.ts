// CSV in and out through papaparse: exports open correctly in Excel and LibreOffice (UTF-8 with a BOM,
// every field quoted when needed, CRLF line ends); imports strip the BOM and trim the headers.
import Papa from "papaparse";

export const BOM = "\uFEFF";

/** A CSV file's text: BOM, header row, then one row per record, in the order of `columns`. */
export function toCsv<T extends Record<string, unknown>>(
  rows: T[],
  columns: { key: keyof T & string; label: string }[],
): string {
  const data = rows.map((row) =>
    columns.map(({ key }) => {
      const value = row[key];
      if (value === null || value === undefined) return "";
      if (typeof value === "boolean") return value ? "sì" : "no";
      // A number stays a number: papaparse defuses text that starts like a formula, and a negative score is not one.
      if (typeof value === "number") return value;
      if (Array.isArray(value)) return value.join(" | ");
      return String(value);
    }),
  );
  const body = Papa.unparse(
    { fields: columns.map((c) => c.label), data },
    { quotes: false, newline: "\r\n", escapeFormulae: true },
  );
  return BOM + body + "\r\n";
}

/** Parses CSV text with a header row into records keyed by header (trimmed); blank lines are skipped. */
export function parseCsv(text: string): { rows: Record<string, string>[]; errors: { row: number; message: string }[] } {
  const clean = text.startsWith(BOM) ? text.slice(1) : text;
  const result = Papa.parse<Record<string, string>>(clean, {
    header: true,
    skipEmptyLines: "greedy",
    transformHeader: (h) => h.trim(),
  });
  const errors = result.errors
    .filter((e) => e.code !== "UndetectableDelimiter")
    .map((e) => ({ row: (e.row ?? 0) + 2, message: e.message }));
  return { rows: result.data, errors };
}

/** Starts a download of a CSV file in the browser. */
export function downloadCsv(filename: string, csv: string) {
  const blob = new Blob([csv], { type: "text/csv;charset=utf-8" });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
