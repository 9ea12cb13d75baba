// Validation errors name the field as the screen does ("Data di nascita", "CAP", "Punteggio assegnato"),
// never by its code name: each schema carries one label map (withLabels in app/server/errors.server.ts).
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { withLabels, zodMessage } from "~/server/errors.server";
import { insertUser } from "./analytics-fixtures";
import { call, json, login, seed } from "./helpers";

beforeAll(async () => {
  await seed();
  await insertUser(9311, "campi.prova@example.com", "campi.prova", "Carla Campi");
});

/** A code name in parentheses or quotes: camelCase or snake_case identifiers like birth, assignedScore, option_id. */
const CODE_NAME =
  /\(campo: [a-z]+[A-Z_]\w*\)|\(campo: (birth|zip|cf|phone|city|bio|goal|school|address|ids|id|q|status|role|title)\)|"[a-z]+[A-Z_][A-Za-z_]*"/;

async function errorOf(method: string, path: string, token: string, body: unknown) {
  const response = await call(method, path, { token, json: body });
  expect(response.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
  return String((await json(response)).error);
}

describe("Italian field names in validation errors", () => {
  it("names the profile's fields as the form does", async () => {
    const token = await login("campi.prova@example.com");
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ birth: "12/04/2007" }, /^Data di nascita non valida/],
      [{ zip: "123" }, /^CAP non valido/],
      [{ cf: "XYZ" }, /^Codice fiscale non valido/],
      [{ phone: "abc" }, /telefono non valido/i],
      [{ city: 42 }, /Città/],
      [{ schoolYear: 9 }, /^Anno scolastico non valido/],
      [{ bio: "x".repeat(600) }, /Bio/],
    ];
    for (const [body, expected] of cases) {
      const error = await errorOf("POST", "/api/profile", token, body);
      expect(error, JSON.stringify(body)).toMatch(expected);
      expect(error).not.toMatch(CODE_NAME);
      expect(error).not.toMatch(/campo: (birth|zip|cf|phone|city|schoolYear|bio)\b/);
    }
  });

  it("names the report editor's score 'Punteggio assegnato'", async () => {
    const admin = await login("admin@example.com");
    const report = await call("POST", "/api/report-question", {
      token: admin,
      json: { questionId: 1001, message: "Campi" },
    });
    const { id } = (await json(report)) as { id: number };
    const error = await errorOf("PUT", `/api/admin/reports/${id}`, admin, { assignedScore: 40 });
    expect(error).toMatch(/punteggio assegnato/i);
    expect(error).not.toMatch(/assignedScore/);
  });

  it("answers zod's generic failures in Italian with the label (wrong type, missing, too long)", async () => {
    const token = await login("campi.prova@example.com");
    expect(await errorOf("POST", "/api/friends", token, { handle: 42 })).toMatch(/amico/);
    const grade = await errorOf("POST", "/api/quiz/1/attempt", token, {
      answers: [{ question_id: "x" }],
      timeTaken: 10,
    });
    expect(grade).not.toMatch(/question_id|timeTaken/);
    const missing = await errorOf("POST", "/api/quiz/1/attempt", token, { answers: [] });
    expect(missing).toMatch(/Tempo impiegato/);
  });

  it("never prints a code name, even without a label", () => {
    const schema = z.object({ someField: z.string() });
    const error = schema.safeParse({ someField: 1 }).error!;
    expect(zodMessage(error)).toBe("Un campo ha un tipo di valore non valido.");
    const labelled = withLabels(z.object({ someField: z.string().max(3) }), { someField: "Nome breve" });
    expect(zodMessage(labelled.safeParse({ someField: "abcd" }).error!, { someField: "Nome breve" })).toBe(
      'Il campo "Nome breve" è troppo lungo (massimo 3 caratteri).',
    );
    const list = z.object({ answers: z.array(z.object({ time: z.number() })) });
    expect(
      zodMessage(list.safeParse({ answers: [{ time: 1 }, { time: "x" }] }).error!, { "answers.time": "Tempo" }),
    ).toBe('Il campo "Tempo n. 2" ha un tipo di valore non valido.');
  });
});
