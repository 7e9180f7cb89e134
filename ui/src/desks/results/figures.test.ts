// The figures panel's state without a window (issue 34): the figures are read
// again on a timer while open and never after it stops, a failed read keeps the
// last figures and says so, and "Save as" saves only where the coordinator chose.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FiguresPanel, REFRESH_MS, figure, plotPoint, type FiguresCommands } from "./figures.svelte";
import type { Figures } from "../../lib/api";

const figures = (open: number): Figures => ({
  progress: [{ by: "Assessment", name: "All questions", open, beingScored: 0, saved: 0, scored: 4, scoredByHour: [1, 0, 0, 0, 0, 0, 0, 0] }],
  n: 4, leftOut: 1, mean: 2.5, standardDeviation: 1, alpha: 0.7, dichotomous: false, standardErrorOfMeasurement: 0.5, distribution: [0, 1, 2, 1],
  items: [{ position: 1, questionId: "10", maxScore: 2, facility: 0.95, discrimination: 0.1, flags: ["TooEasy", "WeakDiscrimination"] }],
});

function commands(): FiguresCommands & { figures: ReturnType<typeof vi.fn> } {
  return {
    figures: vi.fn(async () => figures(3)),
    choosePath: vi.fn(async () => "/tmp/out.xlsx"),
    save: vi.fn(async () => {}),
  };
}

describe("FiguresPanel", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("reads the figures again while open, and not after it stops", async () => {
    const given = commands();
    const panel = new FiguresPanel({ id: "5", name: "Physics" }, given);
    panel.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(given.figures).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(REFRESH_MS);
    expect(given.figures).toHaveBeenCalledTimes(2);
    panel.stop();
    await vi.advanceTimersByTimeAsync(REFRESH_MS * 3);
    expect(given.figures).toHaveBeenCalledTimes(2);
  });

  it("keeps the last figures when a read fails, and clears the failure on the next", async () => {
    const given = commands();
    const panel = new FiguresPanel({ id: "5", name: "Physics" }, given);
    await panel.load();
    given.figures.mockRejectedValueOnce({ kind: "unreachable", message: "gone" });
    await panel.load();
    expect(panel.figures?.progress[0].open).toBe(3);
    expect(panel.error).toContain("could not be read");
    await panel.load();
    expect(panel.error).toBeNull();
  });

  it("saves where the coordinator chose, and nothing when they cancel", async () => {
    const given = commands();
    const panel = new FiguresPanel({ id: "5", name: "Physics" }, given);
    await panel.saveAs("xlsx");
    expect(given.save).toHaveBeenCalledWith("5", "xlsx", "/tmp/out.xlsx");
    expect(panel.saved).toContain("Excel workbook saved: /tmp/out.xlsx");
    (given.choosePath as ReturnType<typeof vi.fn>).mockResolvedValueOnce(null);
    await panel.saveAs("csv");
    expect(given.save).toHaveBeenCalledTimes(1);
  });

  it("places plot points inside the box, and shows a dash for no figure", () => {
    expect(plotPoint(1, 1, 200, 100)).toEqual({ x: 200, y: 0 });
    expect(plotPoint(0, -1, 200, 100)).toEqual({ x: 0, y: 100 });
    expect(plotPoint(0.5, null, 200, 100)).toEqual({ x: 100, y: 50 });
    expect(plotPoint(2, 5, 200, 100)).toEqual({ x: 200, y: 0 });
    expect(figure(null)).toBe("–");
    expect(figure(0.12345)).toBe("0.123");
  });
});
