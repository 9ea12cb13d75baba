import { describe, expect, it } from "vitest";
import { type AssignmentReport, assignmentCsv, assignmentCsvName, assignmentStatus } from "~/lib/assignments";
import { parseCsv } from "~/lib/csv";

const DUE = Date.UTC(2026, 10, 30, 22, 59);

describe("assignmentStatus", () => {
  it("done by the due date (the due minute included), late after it, not done while unsubmitted", () => {
    expect(assignmentStatus({ status: "completed", finishedAt: DUE - 1 }, DUE)).toBe("fatto");
    expect(assignmentStatus({ status: "completed", finishedAt: DUE }, DUE)).toBe("fatto");
    expect(assignmentStatus({ status: "completed", finishedAt: DUE + 1 }, DUE)).toBe("in_ritardo");
    expect(assignmentStatus({ status: "in_progress", finishedAt: null }, DUE)).toBe("non_fatto");
    expect(assignmentStatus({ status: "abandoned", finishedAt: DUE - 5 }, DUE)).toBe("non_fatto");
    expect(assignmentStatus(null, DUE)).toBe("non_fatto");
  });
});

describe("assignmentCsv", () => {
  const report: AssignmentReport = {
    assignment: {
      id: 1,
      classId: 1,
      className: "5ªB",
      title: "Stechiometria",
      subjectId: 1,
      subjectName: "Chimica",
      questionCount: 3,
      timeLimitSec: null,
      mode: "comune",
      units: null,
      opensAt: DUE - 86_400_000,
      dueAt: DUE,
    },
    pupils: [
      {
        userId: 1,
        name: "Giulia Rossi",
        email: "g@example.com",
        status: "fatto",
        score: -0.3,
        correct: 2,
        total: 3,
        timeSec: 95,
        finishedAt: DUE - 60_000,
      },
      {
        userId: 2,
        name: "=cmd()",
        email: "m@example.com",
        status: "non_fatto",
        score: null,
        correct: null,
        total: null,
        timeSec: null,
        finishedAt: null,
      },
    ],
    questions: [],
  };

  it("one row per pupil in Italian, the submission time in Rome, a formula-like name defused, a negative score kept", () => {
    const { rows, errors } = parseCsv(assignmentCsv(report));
    expect(errors).toEqual([]);
    expect(rows[0]).toEqual({
      Studente: "Giulia Rossi",
      Email: "g@example.com",
      Stato: "Fatto",
      // A negative score stays a number (not text defused like a formula).
      "Punteggio (0-31)": "-0.3",
      Corrette: "2",
      Domande: "3",
      "Tempo (s)": "95",
      "Consegnato il (ora di Roma)": "30/11/2026, 23:58",
    });
    expect(rows[1]).toMatchObject({ Studente: "'=cmd()", Stato: "Non fatto", "Punteggio (0-31)": "" });
  });

  it("names the file after the title in ASCII", () => {
    expect(assignmentCsvName("Unità 3: l'atomo è già?")).toBe("compito-Unita-3-l-atomo-e-gia.csv");
    expect(assignmentCsvName("???")).toBe("compito-classe.csv");
  });
});
