// The Rush tab's form and the server check one schema (issue 19): the values the form holds (Rome wall-clock times
// from <input type="datetime-local">) are read by the same rules and refused with the same messages.
import { describe, expect, it } from "vitest";
import { rushEventInputSchema } from "~/lib/forms/rush-event";
import { fromRomeInputValue } from "~/lib/rush";
import { issueMessage, labelsOf } from "~/lib/validation";

const messages = (value: unknown) => {
  const parsed = rushEventInputSchema.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((i) => issueMessage(i, labelsOf(rushEventInputSchema)));
};

describe("the Rush event form's schema", () => {
  it("reads the form's Rome times as the instants the server stores", () => {
    const form = {
      title: " Rush di Natale ",
      startsAt: "2030-12-20T18:00",
      endsAt: "2030-12-21T09:30",
      published: true,
    };
    const parsed = rushEventInputSchema.parse(form);
    expect(parsed).toEqual({
      title: "Rush di Natale",
      startsAt: fromRomeInputValue("2030-12-20T18:00"),
      endsAt: fromRomeInputValue("2030-12-21T09:30"),
      published: true,
    });
  });

  it("refuses an empty title, a missing time and an end before the start, in Italian", () => {
    expect(messages({ title: "  ", startsAt: "2030-12-20T18:00", endsAt: "2030-12-21T09:30" }).join()).toContain(
      "Il titolo è obbligatorio.",
    );
    expect(messages({ title: "R", startsAt: "", endsAt: "2030-12-21T09:30" }).join()).toContain("Inizio");
    expect(messages({ title: "R", startsAt: "2030-12-20T18:00", endsAt: "2030-12-20T09:00" })).toEqual([
      "La fine deve essere successiva all'inizio.",
    ]);
  });

  it("refuses a day or a time that does not exist, in either form (issue 44: 2026-02-31 became 3 March)", () => {
    const valid = { title: "R", endsAt: "2030-12-21T09:30" };
    for (const startsAt of [
      "2030-02-31T10:00",
      "2030-04-31T10:00",
      "2030-12-20T10:75",
      "2030-12-20T24:00",
      "2030-02-31T10:00:00Z",
      "2030-02-29T10:00:00+01:00",
      "2030-12-20T24:00:00Z",
      "2030-12-20T10:00:00+25:00",
    ])
      expect(messages({ ...valid, startsAt }).join(), startsAt).toMatch(/Inizio: data e ora non valide/);
    expect(messages({ ...valid, startsAt: "2030-12-20T10:00:00.000Z" })).toEqual([]);
    expect(messages({ ...valid, startsAt: "2030-12-20T10:00:00+01:00" })).toEqual([]);
  });
});
