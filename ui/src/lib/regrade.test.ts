import { describe, expect, it } from "vitest";
import { changes, planSummary, regradeProblems } from "./regrade";
import type { RegradeDimension } from "./bindings/RegradeDimension";

const idea = (scores: number[]): RegradeDimension => ({ order: 1, name: "Idea", oldMax: 3, newMax: 2, scores });

describe("regrade", () => {
  it("takes a map that never decreases and stays within the new dimension", () => {
    expect(regradeProblems([idea([0, 1, 1, 2])], "Level 3 is worth 2.")).toEqual([]);
    expect(changes(idea([0, 1, 1, 2]))).toEqual(["2→1", "3→2"]);
    expect(changes({ ...idea([0, 1]), oldMax: 1 })).toEqual([]);
  });

  it("names each problem, the reason included", () => {
    expect(regradeProblems([idea([0, 1, 3, 2])], "x")).toEqual([
      "Idea: old 2 must become a score from 0 to 2.",
      "Idea: old 3 earns less than old 2; a higher level never earns less.",
    ]);
    expect(regradeProblems([idea([0, 2, 1, 2])], "x")).toEqual(["Idea: old 2 earns less than old 1; a higher level never earns less."]);
    expect(regradeProblems([idea([0, 1])], "x")).toEqual(["Each old score needs its new score."]);
    expect(regradeProblems([idea([0, 1, 1, 2])], "  ")).toEqual(["Say why the scheme changed (the reason is kept with the regrade)."]);
  });

  it("says what would move", () => {
    const plan = { fromRubricId: 7, toRubricId: 9, scripts: 12, scored: 9, markings: 2, seeds: 1, dimensions: [] };
    expect(planSummary(plan)).toBe("12 scripts were marked with rubric 7 (9 scored, 2 markings of double marking, 1 check script). Regrade them onto rubric 9?");
    expect(planSummary({ ...plan, scripts: 1, scored: 0, markings: 0, seeds: 0 })).toBe("1 script was marked with rubric 7 (0 scored). Regrade them onto rubric 9?");
  });
});
