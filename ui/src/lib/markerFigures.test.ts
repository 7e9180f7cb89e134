import { describe, expect, it } from "vitest";
import { driftLines, driftRange, marksRange, meanBar, pace, percent, signed, standing } from "./markerFigures";
import type { MarkerLine } from "./bindings/MarkerLine";

const line = (more: Partial<MarkerLine>): MarkerLine => ({ marker: "ann", scripts: 10, pairs: 0, seeds: 0, ...more });

describe("the markers' figures in words", () => {
  it("calls a marker harsher or more lenient only beyond two standard errors", () => {
    expect(standing(line({ meanDifferenceZ: -2.5 }))).toBe("harsher");
    expect(standing(line({ meanDifferenceZ: 2 }))).toBe("more lenient");
    expect(standing(line({ meanDifferenceZ: 1.99 }))).toBe("in line");
    expect(standing(line({ meanDifferenceZ: -1.99 }))).toBe("in line");
    expect(standing(line({ meanDifferenceZ: null }))).toBe("too few scripts");
  });

  it("writes signs, pace and shares as a lead reads them", () => {
    expect(signed(1.75)).toBe("+1.75");
    expect(signed(-0.5)).toBe("−0.50");
    expect(signed(-0.001)).toBe("0.00");
    expect(signed(null)).toBe("–");
    expect(pace(125)).toBe("2 min 5 s");
    expect(pace(120)).toBe("2 min");
    expect(pace(40.4)).toBe("40 s");
    expect(pace(null)).toBe("–");
    expect(percent(0.5)).toBe("50 %");
    expect(percent(undefined)).toBe("–");
  });
});

describe("the plots", () => {
  it("puts each mean and its spread on one marks axis, clamped to it", () => {
    const lines = [line({ mean: 6, spread: 1.5 }), line({ mean: 2, spread: 3 })];
    expect(marksRange(lines)).toBe(8);
    expect(marksRange([])).toBe(1);
    const bar = meanBar(lines[1], 8, { width: 80, height: 10 });
    expect(bar).toEqual({ from: 0, at: 20, to: 50 });
  });

  it("draws a marker's windows left to right, above the middle when he is more lenient", () => {
    const drift = [
      { marker: "bob", window: 1, scripts: 20, meanDifference: -1 },
      { marker: "ann", window: 2, scripts: 20, meanDifference: 0 },
      { marker: "ann", window: 1, scripts: 20, meanDifference: 2 },
      { marker: "ann", window: 3, scripts: 5, meanDifference: -2 },
    ];
    expect(driftRange(drift)).toBe(2);
    const lines = driftLines(drift, { width: 100, height: 40 });
    expect(lines.map((l) => l.marker)).toEqual(["ann", "bob"]);
    expect(lines[0].points).toBe("0.0,0.0 50.0,20.0 100.0,40.0");
    expect(lines[1].points).toBe("0.0,30.0");
    expect(lines[0].last).toEqual({ x: 100, y: 40 });
    // Nobody away from the mean still has half a mark either side.
    expect(driftRange([{ marker: "ann", window: 1, scripts: 3, meanDifference: 0 }])).toBe(0.5);
  });
});
