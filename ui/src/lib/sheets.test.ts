import { describe, expect, it } from "vitest";
import type { SheetDoubt } from "./bindings/SheetDoubt";
import type { SheetScanReport } from "./bindings/SheetScanReport";
import { choiceOfKey, decidedSummary, describeChoices, describeDoubt, describeTyped, isWritten, scanSummary, sheetUploadSummary, toggleChoice } from "./sheets";

const bubbles = [
  { choice: 1, label: "A", darkness: 0.04, verdict: "blank", kind: "nothing" },
  { choice: 2, label: "B", darkness: 0.31, verdict: "unsure", kind: "a faint fill" },
  { choice: 3, label: "C", darkness: 0.66, verdict: "marked", kind: "a fill" },
];
const faint: SheetDoubt = { attemptId: 7, question: 4, part: 0, blank: false, page: 1, single: true, picture: false, essay: false, reason: "faint", bubbles, elsewhere: "12 fills", crop: "" };
const several: SheetDoubt = {
  ...faint,
  reason: "severalMarks",
  bubbles: bubbles.map((b) => (b.choice === 2 ? { ...b, darkness: 0.7, verdict: "marked" } : b)),
};

describe("unsure marks", () => {
  it("names the choice a letter stands for, whatever its case", () => {
    expect(choiceOfKey(faint, "b")).toBe(2);
    expect(choiceOfKey(faint, "C")).toBe(3);
    expect(choiceOfKey(faint, "d")).toBeNull();
  });
  it("takes one choice alone on a one-choice question, and toggles on a several-choice one", () => {
    expect(toggleChoice(faint, [], 2)).toEqual([2]);
    expect(toggleChoice(faint, [2], 3)).toEqual([3]);
    expect(toggleChoice(faint, [3], 3)).toEqual([]);
    const multiple = { ...faint, single: false };
    expect(toggleChoice(multiple, [3], 1)).toEqual([1, 3]);
    expect(toggleChoice(multiple, [1, 3], 1)).toEqual([3]);
  });
  it("says why the question is unsure and what was decided", () => {
    expect(describeDoubt(faint)).toBe("A faint mark on B (31 % dark): marked, or rubbed out?");
    expect(describeDoubt(several)).toBe("One choice allowed, and B (70 % dark) and C (66 % dark) are marked.");
    const ticked = { ...faint, bubbles: bubbles.map((b) => (b.choice === 2 ? { ...b, darkness: 0.19, kind: "a tick" } : b)) };
    expect(describeDoubt(ticked)).toBe("Not sure of a tick on B (19 % dark): a mark, or not?");
    expect(describeChoices(faint, [])).toBe("no choice");
    expect(describeChoices(faint, [2, 3])).toBe("B, C");
  });
  it("says what to pick on a picture: the crosses that count, by their letters", () => {
    const crosses = ["A", "B", "C", "D"].map((label, i) => ({ choice: i + 1, label, darkness: 1, verdict: "marked", kind: "a cross" }));
    const picture: SheetDoubt = { ...faint, picture: true, single: false, reason: "severalMarks", bubbles: crosses };
    expect(describeDoubt(picture)).toBe("More crosses on the picture than it takes: of the crosses A, B, C, D, pick the places that count.");
    expect(describeDoubt({ ...picture, single: true, bubbles: crosses.slice(0, 2) })).toBe(
      "More crosses on the picture than it takes: of the crosses A, B, pick the one place that counts.",
    );
    expect(describeDoubt({ ...picture, reason: "faint", bubbles: crosses.slice(0, 1) })).toBe(
      "Ink on the picture that is no cross, besides the cross A: pick the places that count.",
    );
    expect(describeDoubt({ ...picture, reason: "faint", bubbles: [] })).toBe("Ink on the picture that is no cross: look, and confirm that no place is marked.");
    expect(toggleChoice(picture, [2], 3)).toEqual([2, 3]);
  });
  it("asks whether a little ink in an essay's frame is an answer", () => {
    const essay: SheetDoubt = { ...faint, essay: true, bubbles: [{ choice: 1, label: "A", darkness: 0.00061, verdict: "unsure", kind: "a faint fill" }] };
    expect(describeDoubt(essay)).toBe("A little ink in the essay's frame (0.06 % of it): a short answer for a scorer (A), or blank (Backspace)?");
  });
  it("tells a short answer's box from a mark, and says what was typed", () => {
    const written = { ...faint, reason: "written", bubbles: [] };
    expect(isWritten(written)).toBe(true);
    expect(isWritten(faint)).toBe(false);
    expect(describeDoubt(written)).toContain("type what is written in the box");
    expect(describeTyped(" 42 ")).toBe("“42”");
    expect(describeTyped("  ")).toBe("nothing written");
    expect(choiceOfKey(written, "a")).toBeNull();
    expect(decidedSummary([faint])).toBe("All 1 unsure mark decided.");
    expect(decidedSummary([faint, faint, written])).toBe("All 2 unsure marks decided and 1 short answer typed.");
    expect(decidedSummary([written, written])).toBe("All 2 short answers typed.");
    expect(decidedSummary([])).toBe("Nothing unsure: every mark was read clearly.");
  });
  it("sums up a reading and an upload", () => {
    const report: SheetScanReport = {
      pages: 5,
      refused: ["x.png: the page belongs to print batch 9, not to print batch 4"],
      attempts: [
        { attemptId: 1, pages: 2, problem: null, doubts: [faint] },
        { attemptId: 2, pages: 2, problem: null, doubts: [{ ...faint, reason: "written", bubbles: [] }] },
        { attemptId: 3, pages: 1, problem: "attempt 3: page 2 of 2 is missing", doubts: [] },
      ],
    };
    expect(scanSummary(report)).toBe(
      "5 pages read: 3 attempts, 1 with unsure marks to decide, 1 short answer to type, 1 incomplete, 1 scan refused",
    );
    expect(
      sheetUploadSummary([
        { attemptId: 1, outcome: { kind: "scored", attemptId: "1", resultId: "4", totalScore: 2, maxScore: 8, band: null, scoringTasks: 1 } },
        { attemptId: 2, outcome: { kind: "refused", message: "AttemptID: attempt 2 already has a result" } },
      ]),
    ).toBe("1 of 2 uploaded, 1 refused");
  });
});
