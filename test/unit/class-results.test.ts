import { describe, expect, it } from "vitest";
import { classResultsCsv, scoreDistribution, subjectAverages, type ClassResult } from "~/lib/class-results";
import { parseCsv } from "~/lib/csv";
import { parseEmailList } from "~/server/classes.server";

describe("class results helpers", () => {
  it("puts totals in the 0-31 bands (floored, clamped)", () => {
    const d = scoreDistribution([-2, 0, 4.9, 5, 19.99, 20, 24.9, 25, 31, 40]);
    expect(d.map((b) => [b.label, b.count])).toEqual([
      ["0-4", 3],
      ["5-9", 1],
      ["10-14", 0],
      ["15-19", 1],
      ["20-24", 2],
      ["25-31", 3],
    ]);
  });

  it("averages each subject over the attempts that have it, one decimal", () => {
    const avg = subjectAverages([
      [
        { id: 1, name: "Biologia", score31: 20 },
        { id: 2, name: "Chimica", score31: 10 },
      ],
      [{ id: 1, name: "Biologia", score31: 25 }],
      [
        { id: 1, name: "Biologia", score31: 26 },
        { id: 2, name: "Chimica", score31: 11 },
      ],
    ]);
    expect(avg).toEqual([
      { subjectId: 1, name: "Biologia", average: 23.7, count: 3 },
      { subjectId: 2, name: "Chimica", average: 10.5, count: 2 },
    ]);
  });

  it("exports one CSV row per pupil (ranked first, then absentees) that reads back with papaparse", () => {
    const result: ClassResult = {
      classId: 1,
      name: "5ªB",
      members: 3,
      participants: 2,
      ranking: [
        {
          pos: 1,
          userId: 2,
          name: "Niccolò D'Alessandro",
          email: "n@example.com",
          score: 27.5,
          perc: 80,
          timeSec: 600,
          subjects: [{ subjectId: 1, name: "Biologia", score31: 28 }],
        },
        {
          pos: 2,
          userId: 1,
          name: "Rossi, Giulia",
          email: "g@example.com",
          score: 20,
          perc: 60,
          timeSec: 640,
          subjects: [{ subjectId: 1, name: "Biologia", score31: 20 }],
        },
      ],
      subjectAverages: [{ subjectId: 1, name: "Biologia", average: 24, count: 2 }],
      distribution: [],
      absent: [{ userId: 3, name: "Zeno", email: "z@example.com" }],
    };
    const { rows, errors } = parseCsv(classResultsCsv(result));
    expect(errors).toEqual([]);
    expect(rows).toEqual([
      {
        Posizione: "1",
        Studente: "Niccolò D'Alessandro",
        Email: "n@example.com",
        Presente: "sì",
        "Punteggio (0-31)": "27.5",
        "Corrette %": "80",
        "Tempo (s)": "600",
        "Biologia (0-31)": "28",
      },
      {
        Posizione: "2",
        Studente: "Rossi, Giulia",
        Email: "g@example.com",
        Presente: "sì",
        "Punteggio (0-31)": "20",
        "Corrette %": "60",
        "Tempo (s)": "640",
        "Biologia (0-31)": "20",
      },
      {
        Posizione: "",
        Studente: "Zeno",
        Email: "z@example.com",
        Presente: "no",
        "Punteggio (0-31)": "",
        "Corrette %": "",
        "Tempo (s)": "",
        "Biologia (0-31)": "",
      },
    ]);
  });
});

describe("pasted e-mail lists", () => {
  it("reads lines, commas, semicolons, tabs and 'Name <address>', lowercased and without repeats", () => {
    expect(parseEmailList("A@x.it\nb@x.it, c@x.it;d@x.it\tMario Rossi <E@X.IT>\na@x.it\n\n  ")).toEqual({
      emails: ["a@x.it", "b@x.it", "c@x.it", "d@x.it", "e@x.it"],
      malformed: [],
    });
    expect(parseEmailList("solo un nome\nx@y")).toEqual({ emails: [], malformed: ["solo un nome", "x@y"] });
    expect(parseEmailList(["f@x.it", " G@x.it "])).toEqual({ emails: ["f@x.it", "g@x.it"], malformed: [] });
  });

  it("gives an edition's day its ranking score and section, never a score on 31 (issue 44)", () => {
    const grade = { value: 18, label: "18/30", passed: true, lode: false, text: "18/30" };
    const result: ClassResult = {
      classId: 1,
      name: "5ªB",
      members: 1,
      participants: 1,
      ranking: [
        {
          pos: 1,
          userId: 2,
          name: "Ada",
          email: "a@example.com",
          score: 118,
          section: 100,
          total: 18,
          perc: 60,
          timeSec: 600,
          subjects: [{ subjectId: 1, name: "Biologia", score31: 18, grade }],
        },
      ],
      subjectAverages: [{ subjectId: 1, name: "Biologia", average: 18, count: 1 }],
      distribution: [],
      absent: [],
    };
    const { rows } = parseCsv(classResultsCsv(result));
    expect(rows[0]).toMatchObject({
      "Punteggio in graduatoria": "118",
      Sezione: "100",
      "Biologia (voto /30)": "18/30",
    });
    expect(Object.keys(rows[0]!)).not.toContain("Punteggio (0-31)");
  });
});
