// The exam editions every database starts with (issue 29), from ../shared/spec/exam-format.md. Written into
// migrations/0008_exam_editions.sql by `node scripts/editions-sql.ts` (production gets them with the schema);
// an admin corrects them in the console's Edizioni tab, never here.
// Pure TypeScript (erasable syntax only): Node runs it in the script, tests import it.
import type { EditionInput } from "../app/lib/edition.ts";

const CORE = { chimica: 2, fisica: 4, biologia: 1 } as const;
const SCORING = { right: 1, blank: 0, wrong: -0.1 };

const units = (subjectId: number, rows: Array<[string, number]>) =>
  rows.map(([title, credits], i) => ({ subjectId, number: i + 1, title, credits }));

/** DM 418/2025, as seed/bank/SYLLABUS.md reads it. */
const UNITS_2025 = [
  ...units(CORE.chimica, [
    ["Atomo, tavola periodica, legami chimici", 0.5],
    ["Stati di aggregazione della materia, principi di termodinamica", 0.5],
    ["Miscele, soluzioni e proprietà colligative", 1],
    ["Reazioni chimiche, cinetica ed equilibrio", 0.5],
    ["Acidi, basi e sali, pH, tamponi; ossidoriduzioni ed elettrochimica", 1],
    ["Chimica del carbonio: idrocarburi, alogenuri alchilici, composti aromatici", 0.5],
    ["Gruppi funzionali e isomeria", 1],
    ["Biomolecole: amminoacidi e proteine, carboidrati, lipidi, nucleotidi", 1],
  ]),
  ...units(CORE.fisica, [
    ["Metodi della fisica: grandezze, unità SI, notazione scientifica, grafici, trigonometria, vettori", 0.25],
    ["Meccanica", 1.5],
    ["Meccanica dei fluidi", 1],
    ["Onde meccaniche", 0.5],
    ["Termodinamica", 1],
    ["Elettricità e magnetismo", 1.25],
    ["Radiazioni elettromagnetiche", 0.5],
  ]),
  ...units(CORE.biologia, [
    ["Organizzazione biologica e molecolare della vita", 0.75],
    ["Informazione genetica ed epigenetica", 0.5],
    ["Flusso dell'informazione genetica", 1],
    ["Trasmissione dei caratteri selvatici e mutati", 0.75],
    ["Strutture cellulari: biogenesi, morfologia e funzioni", 1.5],
    ["Cellula e ambiente: segnalazione e trasduzione del segnale", 0.75],
    ["Controllo della proliferazione e della sopravvivenza cellulare", 0.75],
  ]),
];

/**
 * DM 704/2026 as one secondary source reports it (exam-format.md): Chimica's units 1 and 2 merged (1 CFU);
 * Fisica's credits 0,2 / 1,4 / 1,2 / 0,4 / 1 / 1,2 / 0,6 with unit 7 "Fisica delle radiazioni"; Biologia's
 * unit 5 at 1,75. Biologia's other credits are not reported: unit 1 loses the 0,25 (Darwin and One Health
 * left it), our reading until the official text is read.
 */
const UNITS_2026 = [
  ...units(CORE.chimica, [
    ["Atomo, legami chimici, stati di aggregazione e termodinamica", 1],
    ["Miscele, soluzioni e proprietà colligative", 1],
    ["Reazioni chimiche, cinetica ed equilibrio", 0.5],
    ["Acidi, basi e sali, pH, tamponi; ossidoriduzioni ed elettrochimica", 1],
    ["Chimica del carbonio: idrocarburi, alogenuri alchilici, composti aromatici", 0.5],
    ["Gruppi funzionali e isomeria", 1],
    ["Biomolecole: amminoacidi e proteine, carboidrati, lipidi, nucleotidi", 1],
  ]),
  ...units(CORE.fisica, [
    ["Metodi della fisica: grandezze, unità SI, notazione scientifica, grafici, trigonometria, vettori", 0.2],
    ["Meccanica", 1.4],
    ["Meccanica dei fluidi", 1.2],
    ["Onde meccaniche", 0.4],
    ["Termodinamica", 1],
    ["Elettricità e magnetismo", 1.2],
    ["Fisica delle radiazioni", 0.6],
  ]),
  ...units(CORE.biologia, [
    ["Organizzazione biologica e molecolare della vita", 0.5],
    ["Informazione genetica ed epigenetica", 0.5],
    ["Flusso dell'informazione genetica", 1],
    ["Trasmissione dei caratteri selvatici e mutati", 0.75],
    ["Strutture cellulari: biogenesi, morfologia e funzioni", 1.75],
    ["Cellula e ambiente: segnalazione e trasduzione del segnale", 0.75],
    ["Controllo della proliferazione e della sopravvivenza cellulare", 0.75],
  ]),
];

const subjects = (mc: number, gap: number, minutes: number) => [
  { subjectId: CORE.chimica, name: "Chimica", mc, gap, minutes },
  { subjectId: CORE.fisica, name: "Fisica", mc, gap, minutes },
  { subjectId: CORE.biologia, name: "Biologia", mc, gap, minutes },
];

export const SEED_EDITIONS: Array<EditionInput & { isDefault: boolean }> = [
  {
    academicYear: "2025/26",
    label: "Semestre filtro 2025/26",
    status: "confermato",
    source: "DM 418/2025, DM 557/2025; linee guida del Ministero per il foglio risposte (2025).",
    isDefault: false,
    format: {
      questionTotal: 31,
      subjects: subjects(15, 16, 45),
      breakMin: 15,
      gapBoxes: 16,
      scoring: SCORING,
      maxGrade: 30,
      passMark: 18,
      lode: 31,
      rounding: "nearest-from-pass",
      sectionPoints: 100,
      sittings: [
        { date: "2025-11-20", time: "11:00", label: "Primo appello" },
        { date: "2025-12-10", time: "11:00", label: "Secondo appello" },
      ],
      units: UNITS_2025,
    },
  },
  {
    academicYear: "2026/27",
    label: "Semestre filtro 2026/27",
    status: "provvisorio",
    source:
      "Fonti secondarie concordi (app di un ateneo, 10 ottobre 2026; guida in inglese, settembre 2026; un sito di tutoraggio; un progetto di quiz) che citano DM 941 del 10 luglio 2026 (allegato 2), DD 249 del 13 luglio 2026 e DM 704 del 29 maggio 2026. Testo ufficiale non ancora letto.",
    isDefault: true,
    format: {
      questionTotal: 31,
      subjects: subjects(21, 10, 50),
      breakMin: 30,
      gapBoxes: 16,
      scoring: SCORING,
      maxGrade: 30,
      passMark: 18,
      lode: 31,
      rounding: "nearest-from-pass",
      sectionPoints: 100,
      sittings: [
        { date: "2026-12-10", time: "11:00", label: "Primo appello" },
        { date: "2027-01-11", time: "11:00", label: "Secondo appello" },
      ],
      units: UNITS_2026,
    },
  },
];

const quote = (v: string | null | undefined) => (v == null ? "NULL" : `'${v.replace(/'/g, "''")}'`);

/** The INSERTs that open the editions table (fixed ids 1 and 2; `now` stamps updated_at). */
export function editionsInsertSql(now: number): string {
  return SEED_EDITIONS.map(
    (e, i) =>
      `INSERT INTO exam_editions (id, academic_year, label, status, source, is_default, format, version, updated_at) VALUES (${i + 1}, ${quote(e.academicYear)}, ${quote(e.label)}, ${quote(e.status)}, ${quote(e.source)}, ${e.isDefault ? 1 : 0}, ${quote(JSON.stringify(e.format))}, 1, ${now});`,
  ).join("\n--> statement-breakpoint\n");
}
