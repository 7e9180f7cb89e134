import { describe, expect, it } from "vitest";
import type { Annotation } from "./api";
import { codePointAt, codePoints, described, moved, pieces, scanPoint, thinned, wordAt, wordEnd, wordStep } from "./annotations";

const scan = { width: 1000, height: 1400 };

const mark = (kind: string, textStart: number, textEnd: number, text: string | null = null): Annotation => ({
  id: textStart * 100 + textEnd,
  kind,
  points: [],
  textStart,
  textEnd,
  text,
  markedBy: "m",
});

describe("where a mark goes on a scan", () => {
  it("is the scan's own pixel under the pointer, whichever way the view is turned", () => {
    // The scan's top-left corner is where the rotated box shows it.
    expect(scanPoint(0, 0, 0, scan)).toEqual([0, 0]);
    expect(scanPoint(1, 0, 90, scan)).toEqual([0, 0]);
    expect(scanPoint(1, 1, 180, scan)).toEqual([0, 0]);
    expect(scanPoint(0, 1, 270, scan)).toEqual([0, 0]);
    expect(scanPoint(0, 1, -90, scan)).toEqual([0, 0]);
    // Its top-right corner, turned a quarter clockwise, is at the bottom right.
    expect(scanPoint(1, 1, 90, scan)).toEqual([999, 0]);
    expect(scanPoint(0.5, 0.25, 0, scan)).toEqual([500, 350]);
    expect(scanPoint(1.2, -0.1, 0, scan)).toEqual([999, 0]);
  });

  it("moves the keyboard's cursor by steps and keeps it on the scan", () => {
    expect(moved([500, 500], 1, 0, scan)).toEqual([528, 500]);
    expect(moved([5, 5], -1, -1, scan)).toEqual([0, 0]);
    expect(moved([990, 1390], 1, 1, scan)).toEqual([999, 1399]);
  });

  it("thins a stroke but keeps where it ends", () => {
    expect(thinned([[0, 0], [1, 0], [2, 0], [10, 0], [11, 1]], 5)).toEqual([[0, 0], [10, 0], [11, 1]]);
    expect(thinned([[3, 3]], 5)).toEqual([[3, 3]]);
  });
});

describe("where a mark goes on a typed answer", () => {
  it("counts code points as the server does, not UTF-16 units", () => {
    const text = "a😀b é";
    expect(codePoints(text)).toHaveLength(5);
    expect(codePointAt(text, 3)).toBe(2);
  });

  it("moves by words and finds the word at the cursor", () => {
    const points = codePoints("Inertia: the body keeps moving.");
    expect(wordStep(points, 0, 1)).toBe(9);
    expect(wordStep(points, 9, 1)).toBe(13);
    expect(wordStep(points, 13, -1)).toBe(9);
    expect(wordStep(points, 9, -1)).toBe(0);
    expect(wordAt(points, 9)).toEqual([9, 12]);
    expect(wordAt(points, 7)).toEqual([9, 12]);
    expect(wordAt(points, 30)).toBeNull();
    expect(wordEnd(points, 9)).toBe(12);
    expect(wordEnd(points, 12)).toBe(17);
    expect(wordEnd(points, 31)).toBe(31);
  });

  it("cuts the text at every range's edge, highlights inside and marks at the end", () => {
    const text = "one two three";
    const cut = pieces(text, [mark("highlighter", 0, 7), mark("tick", 4, 7), mark("note", 8, 13, "why?")]);
    expect(cut.map((p) => [p.text, p.highlighted, p.marks.map((m) => m.kind)])).toEqual([
      ["one ", true, []],
      ["two", true, ["tick"]],
      [" ", false, []],
      ["three", false, ["note"]],
    ]);
    expect(cut.map((p) => p.text).join("")).toBe(text);
    expect(pieces("", [])).toEqual([]);
    const chosen = pieces(text, [], [4, 7], 4);
    expect(chosen.map((p) => [p.text, p.selected])).toEqual([
      ["one ", false],
      ["two", true],
      [" three", false],
    ]);
  });

  it("describes a mark by its words", () => {
    expect(described(mark("note", 4, 7, "good"), "one two three")).toBe("Note on “two”: good");
    expect(described({ ...mark("tick", 0, 0), textStart: null, textEnd: null, points: [[1, 1]] }, null)).toBe("Tick");
  });
});
