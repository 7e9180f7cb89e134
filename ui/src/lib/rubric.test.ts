import { describe, expect, it } from "vitest";
import { dimensionTotal, levelsFrom, levelsText, rubricProblems } from "./rubric";
import type { RubricForm } from "./bindings/RubricForm";

const form = (over: Partial<RubricForm> = {}): RubricForm => ({
  questionId: "7", questionMax: 4, rubricId: null, name: "Osmosis", instructions: "",
  dimensions: [
    { name: "Idea", instructions: "", maxScore: 3, levels: [] },
    { name: "Language", instructions: "", maxScore: 1, levels: ["None", "Clear"] },
  ],
  ...over,
});

describe("rubricProblems", () => {
  it("accepts a rubric whose dimensions add up to the question's maximum", () => {
    expect(rubricProblems(form())).toEqual([]);
    expect(dimensionTotal(form())).toBe(4);
  });
  it("says what the dimensions add up to against the question", () => {
    const short = form();
    short.dimensions[0].maxScore = 2;
    expect(rubricProblems(short)).toEqual(["The dimensions add up to 3; the question is worth 4, and the rubric must be too."]);
  });
  it("names the dimension that is wrong", () => {
    const bad = form({ name: " " });
    bad.dimensions[1].name = "";
    bad.dimensions[1].levels = ["one"];
    expect(rubricProblems(bad)).toEqual([
      "The rubric needs a name.",
      "Dimension 2 needs a name.",
      "Dimension 2 describes 1 scores; from 0 to 1 is 2 lines (or none).",
    ]);
  });
  it("wants a worth from 1 to 100", () => {
    const zero = form();
    zero.dimensions[0].maxScore = Number.NaN;
    expect(rubricProblems(zero)[0]).toBe("Dimension 1 is worth nothing: from 1 to 100.");
  });
});

describe("levels", () => {
  it("are one line per score, trailing blank lines dropped", () => {
    expect(levelsFrom("a\n b \n\n")).toEqual(["a", "b"]);
    expect(levelsFrom("\n \n")).toEqual([]);
    expect(levelsText(["a", "b"])).toBe("a\nb");
  });
});
