import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { HappeningCards } from "~/components/dashboard/HappeningCards";
import {
  groupSimulations,
  type MySimulation,
  nextSimulation,
  simulationHref,
  simulationResultHref,
  simulationStage,
} from "~/lib/my-simulations";

const MIN = 60_000;
const T0 = Date.UTC(2026, 10, 22, 8, 0); // 09:00 in Rome

describe("simulationStage", () => {
  const base = { started: true, startTime: T0, endsAt: T0 + 12 * MIN, attempted: false };
  it("is upcoming before Avvia and before the fixed start", () => {
    expect(simulationStage({ started: false, startTime: null, endsAt: null, attempted: false }, T0)).toBe("upcoming");
    expect(simulationStage(base, T0 - 1)).toBe("upcoming");
  });
  it("is live from the start (inclusive) to the last subject's close (exclusive)", () => {
    expect(simulationStage(base, T0)).toBe("live");
    expect(simulationStage(base, T0 + 12 * MIN - 1)).toBe("live");
    expect(simulationStage(base, T0 + 12 * MIN)).toBe("past");
  });
  it("is past as soon as the student's result is stored", () => {
    expect(simulationStage({ ...base, attempted: true }, T0 + MIN)).toBe("past");
  });
});

describe("groupSimulations and nextSimulation", () => {
  const sim = (id: string, stage: MySimulation["stage"], startTime: number | null): MySimulation => ({
    id,
    title: id,
    stage,
    startTime,
    endsAt: startTime == null ? null : startTime + MIN,
    myEndsAt: startTime == null ? null : startTime + MIN,
    sittingEndsAt: null,
    edition: false,
    extraTimePct: 0,
    result: null,
  });

  it("orders live by start, upcoming with a start first then those waiting for the teacher, past latest first", () => {
    const lists = groupSimulations([
      sim("waiting-a", "upcoming", null),
      sim("old", "past", T0 - 3 * MIN),
      sim("soon-2", "upcoming", T0 + 2 * MIN),
      sim("live-2", "live", T0 - MIN),
      sim("waiting-b", "upcoming", null),
      sim("soon-1", "upcoming", T0 + MIN),
      sim("recent", "past", T0 - 2 * MIN),
      sim("live-1", "live", T0 - 2 * MIN),
    ]);
    expect(lists.live.map((s) => s.id)).toEqual(["live-1", "live-2"]);
    expect(lists.upcoming.map((s) => s.id)).toEqual(["soon-1", "soon-2", "waiting-a", "waiting-b"]);
    expect(lists.past.map((s) => s.id)).toEqual(["recent", "old"]);
    expect(nextSimulation(lists)?.id).toBe("live-1");
    expect(nextSimulation({ live: [], upcoming: lists.upcoming })?.id).toBe("soon-1");
    expect(nextSimulation({ live: [], upcoming: [] })).toBeNull();
  });

  it("links to the runner and the result page with the id encoded", () => {
    expect(simulationHref("demo-5b")).toBe("/simulazione?id=demo-5b");
    expect(simulationResultHref("a b", 7)).toBe("/simulazione/riepilogo/a%20b/7");
  });
});

describe("HappeningCards (server render from the loader's now)", () => {
  const render = (happening: Parameters<typeof HappeningCards>[0]["happening"]) => {
    return renderToString(createElement(MemoryRouter, null, createElement(HappeningCards, { happening })))
      .replace(/<!-- -->/g, "")
      .replace(/<[^>]+>/g, " ")
      .replace(/&#x27;/g, "'")
      .replace(/\s+/g, " ");
  };

  it("renders nothing when there is neither a simulation nor a Rush event", () => {
    expect(render({ now: T0, simulation: null, rush: null }).trim()).toBe("");
  });

  it("shows the next simulation with its start in Rome's time, a countdown from the server's now and Entra", () => {
    const text = render({
      now: T0 - (26 * 60 + 5) * MIN - 7_000,
      simulation: { ...sim0(), startTime: T0, stage: "upcoming" },
      rush: null,
    });
    expect(text).toContain("Simulazione 5ªB");
    expect(text).toContain("Inizio: 22/11/2026, 09:00 (ora di Roma)");
    expect(text).toContain("Inizia tra 1 g 02:05:07");
    expect(text).toContain("Entra");
    expect(text).toContain("Tutte le simulazioni");
  });

  it("a live simulation tells the sitting's common end and the student's own deadline apart (+30 %)", () => {
    // The day: 09:00 to 11:40 for everybody (three 50′ exams and two 30′ breaks); with +30 % the student ends at 12:25.
    const live = (extraTimePct: number, myEndsAt: number): MySimulation => ({
      ...sim0(),
      stage: "live",
      startTime: T0,
      endsAt: T0 + 220 * MIN,
      myEndsAt,
      extraTimePct,
    });
    const plain = render({ now: T0 + 10 * MIN, simulation: live(0, T0 + 220 * MIN), rush: null });
    expect(plain).toContain("Fine della prova: 22/11/2026, 12:40 (ora di Roma)");
    expect(plain).toContain("Termina tra 0 g 03:30:00");
    const extra = render({ now: T0 + 10 * MIN, simulation: live(30, T0 + 265 * MIN), rush: null });
    expect(extra).toContain("Fine della prova: 22/11/2026, 12:40 (ora di Roma)");
    expect(extra).toContain("Il tuo tempo (+30 %) termina tra 0 g 04:15:00");
  });

  it("an upcoming started simulation shows the sitting's end, and the student's later one with extra time", () => {
    const text = render({
      now: T0 - 5 * MIN,
      simulation: { ...sim0(), startTime: T0, endsAt: T0 + 220 * MIN, myEndsAt: T0 + 265 * MIN, extraTimePct: 30 },
      rush: null,
    });
    expect(text).toContain("Fine della prova: 22/11/2026, 12:40 (ora di Roma)");
    expect(text).toContain("Il tuo tempo (+30 %) termina: 22/11/2026, 13:25");
  });

  it("says a simulation not yet started waits for the teacher", () => {
    const text = render({ now: T0, simulation: sim0(), rush: null });
    expect(text).toContain("In attesa dell'avvio del docente");
    expect(text).toContain("Entra");
  });

  it("shows a Rush event opening within 24 hours with its window, countdown and open subjects", () => {
    const text = render({
      now: T0 - 90 * MIN,
      simulation: null,
      rush: {
        event: { id: 3, title: "Rush di novembre", startsAt: T0, endsAt: T0 + 120 * MIN },
        live: false,
        openSubjects: [
          { id: 1, name: "Biologia" },
          { id: 2, name: "Chimica" },
        ],
      },
    });
    expect(text).toContain("Quiz Rush · Evento in arrivo");
    expect(text).toContain("Rush di novembre");
    expect(text).toContain("Dal 22/11/2026, 09:00 al 22/11/2026, 11:00 (ora di Roma)");
    expect(text).toContain("Inizia tra 0 g 01:30:00");
    expect(text).toContain("Materie ancora da fare: Biologia, Chimica");
    expect(text).toContain("Vai a Quiz Rush");
  });

  function sim0(): MySimulation {
    return {
      id: "demo-5b",
      title: "Simulazione 5ªB",
      stage: "upcoming",
      startTime: null,
      endsAt: null,
      myEndsAt: null,
      sittingEndsAt: null,
      edition: false,
      extraTimePct: 0,
      result: null,
    };
  }
});
