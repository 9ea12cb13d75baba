import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { OverallCard, SubjectRankingCard } from "~/components/rush/RankingCards";

const text = (html: string) => html.replace(/<[^>]+>/g, "").replace(/<!-- -->/g, "");
const subjects = [
  { id: 1, name: "Biologia" },
  { id: 2, name: "Chimica" },
];

describe("rush ranking cards", () => {
  it("shows the server's overall position, never the estimate, when the server answered", () => {
    const html = renderToString(
      createElement(OverallCard, {
        leaderboard: { items: [{ subjectId: 1, position: 3, participants: 9 }], overall: 4, participants: 12 },
        completed: 1,
        total: 5,
        knownScores: [24.5],
      }),
    );
    expect(text(html)).toContain("#4 su 12");
    expect(text(html)).toContain("Completate 1 / 5");
    expect(text(html)).toContain("La posizione totale potrebbe aggiornarsi dopo la convalida del sistema.");
    expect(text(html)).not.toContain("stima");
    expect(html).toContain('aria-valuenow="20"');
  });

  it("falls back to the labelled estimate only when the server could not answer", () => {
    const html = renderToString(
      createElement(OverallCard, { leaderboard: null, completed: 2, total: 5, knownScores: [31, 0] }),
    );
    // average 15.5 → max(1, 200 − round(15.5/31 × 180)) = 110
    expect(text(html)).toContain("#110");
    expect(text(html)).toContain("stima");
    const none = renderToString(
      createElement(OverallCard, { leaderboard: null, completed: 0, total: 5, knownScores: [] }),
    );
    expect(text(none)).not.toContain("stima");
    expect(text(none)).toContain("—");
  });

  it("lists #n per ranked subject and a dash for the others", () => {
    const html = renderToString(
      createElement(SubjectRankingCard, {
        subjects,
        leaderboard: { items: [{ subjectId: 2, position: 7, participants: 30 }], overall: 5, participants: 30 },
      }),
    );
    expect(text(html)).toMatch(/Biologia—/);
    expect(text(html)).toMatch(/Chimica#7 su 30/);
  });
});
