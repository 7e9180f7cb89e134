import { describe, expect, it } from "vitest";
import { viewerCommand } from "./viewerKeys";

describe("viewerCommand", () => {
  it("pans only with Shift held: plain arrows move through the rubric", () => {
    expect(viewerCommand("ArrowDown", true)).toEqual({ pan: [0, 1] });
    expect(viewerCommand("ArrowUp", true)).toEqual({ pan: [0, -1] });
    expect(viewerCommand("ArrowLeft", true)).toEqual({ pan: [-1, 0] });
    expect(viewerCommand("ArrowRight", true)).toEqual({ pan: [1, 0] });
    expect(viewerCommand("ArrowDown", false)).toBeNull();
    expect(viewerCommand("ArrowLeft", false)).toBeNull();
  });

  it("zooms, fits and rotates by letter", () => {
    expect(viewerCommand("+", false)).toEqual({ zoom: 1.25 });
    expect(viewerCommand("=", false)).toEqual({ zoom: 1.25 });
    expect(viewerCommand("-", false)).toEqual({ zoom: 0.8 });
    expect(viewerCommand("f", false)).toEqual({ fit: true });
    expect(viewerCommand("o", false)).toEqual({ rotate: 1 });
    expect(viewerCommand("O", true)).toEqual({ rotate: -1 });
  });

  it("leaves score digits and the rubric's letters alone", () => {
    for (const key of ["0", "7", "j", "k", "c", "m", "F", "Enter"]) expect(viewerCommand(key, false)).toBeNull();
  });
});
