import { describe, expect, it } from "vitest";
import { BOM, parseCsv, toCsv } from "~/lib/csv";

describe("CSV export (utenti.csv, segnalazioni.csv)", () => {
  const rows = [
    { id: 1, name: "Niccolò D'Alessandro", city: "Forlì, Cesena", bio: 'Ha scritto "perché?"\nsu due righe', ok: true },
    { id: 2, name: "Zoë Làzzari", city: null, bio: "=SUM(A1:A2)", ok: false },
  ];
  const columns = [
    { key: "id", label: "ID" },
    { key: "name", label: "Nome" },
    { key: "city", label: "Città" },
    { key: "bio", label: "Bio" },
    { key: "ok", label: "Verificato" },
  ] as const;

  it("starts with a UTF-8 BOM, uses CRLF and quotes only the fields that need it", () => {
    const csv = toCsv(rows, [...columns]);
    expect(csv.startsWith(BOM)).toBe(true);
    expect(csv.split("\r\n")[0]).toBe(`${BOM}ID,Nome,Città,Bio,Verificato`);
    expect(csv).toContain('"Forlì, Cesena"');
    expect(csv).toContain('"Ha scritto ""perché?""\nsu due righe"');
    // A formula is neutralised so a spreadsheet shows it as text.
    expect(csv).toContain("'=SUM(A1:A2)");
    // The BOM makes Excel read UTF-8: the accents survive as real characters, not mojibake.
    const bytes = new TextEncoder().encode(csv);
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  });

  it("round-trips accents, commas, quotes and line breaks", () => {
    const { rows: back, errors } = parseCsv(toCsv(rows, [...columns]));
    expect(errors).toEqual([]);
    expect(back).toEqual([
      {
        ID: "1",
        Nome: "Niccolò D'Alessandro",
        Città: "Forlì, Cesena",
        Bio: 'Ha scritto "perché?"\nsu due righe',
        Verificato: "sì",
      },
      { ID: "2", Nome: "Zoë Làzzari", Città: "", Bio: "'=SUM(A1:A2)", Verificato: "no" },
    ]);
  });
});
