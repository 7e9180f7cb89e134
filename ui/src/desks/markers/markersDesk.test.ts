import { describe, expect, it } from "vitest";
import { MarkersDesk, type MarkersCommands } from "./markersDesk.svelte";
import type { MarkerFigures } from "../../lib/bindings/MarkerFigures";

const figures = (questionId: string, markers: string[]): MarkerFigures => ({
  question: { marker: null, scripts: markers.length, pairs: 0, seeds: 0 },
  markers: markers.map((marker) => ({ marker, scripts: 1, pairs: 0, seeds: 0, mean: Number(questionId) })),
  drift: [],
});

/** Two questions; once `hold()` is called, the first's figures answer only on `release()`. */
function server() {
  const asked: string[] = [];
  let held = false;
  let release: () => void = () => {};
  const commands: MarkersCommands = {
    questions: async () => [
      { questionId: "1", name: "Essay" },
      { questionId: "2", name: "Letter" },
    ],
    figures: (questionId) => {
      asked.push(questionId);
      if (questionId === "1" && held) {
        return new Promise((resolve) => (release = () => resolve(figures("1", ["late"]))));
      }
      return Promise.resolve(figures(questionId, ["ann", "bob"]));
    },
  };
  return { commands, asked, hold: () => (held = true), release: () => release() };
}

describe("the markers desk", () => {
  it("reads the first question's figures, then the one chosen", async () => {
    const { commands, asked } = server();
    const desk = new MarkersDesk(commands);
    await desk.load();
    expect(desk.question?.name).toBe("Essay");
    expect(desk.figures?.markers.map((m) => m.marker)).toEqual(["ann", "bob"]);
    desk.choose(1);
    await desk.read();
    expect(asked).toEqual(["1", "2", "2"]);
    expect(desk.figures?.markers[0].mean).toBe(2);
    // Past the end: nothing moves, nothing is asked.
    desk.choose(1);
    expect(asked.length).toBe(3);
  });

  it("drops an answer for a question no longer chosen", async () => {
    const { commands, hold, release } = server();
    const desk = new MarkersDesk(commands);
    await desk.load();
    desk.choose(1);
    await desk.read();
    hold();
    desk.choose(-1); // question 1 again: its answer is held back
    desk.choose(1); // and question 2 chosen before it comes
    release();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(desk.question?.questionId).toBe("2");
    expect(desk.figures?.markers.map((m) => m.marker)).toEqual(["ann", "bob"]);
  });

  it("highlights markers in turn and forgets one who is not in the figures", async () => {
    const { commands } = server();
    const desk = new MarkersDesk(commands);
    await desk.load();
    desk.moveMarker(-1);
    expect(desk.marker).toBe("bob");
    desk.moveMarker(1);
    expect(desk.marker).toBe("bob");
    desk.moveMarker(-1);
    expect(desk.marker).toBe("ann");
    desk.marker = "gone";
    await desk.read();
    expect(desk.marker).toBeNull();
  });

  it("keeps the figures it has when a read fails, and says why", async () => {
    const { commands } = server();
    let fail = false;
    const desk = new MarkersDesk({ ...commands, figures: (id) => (fail ? Promise.reject("The server is down.") : commands.figures(id)) });
    await desk.load();
    fail = true;
    await desk.read();
    expect(desk.figures?.markers.length).toBe(2);
    expect(desk.problem).toContain("down");
    fail = false;
    await desk.read();
    expect(desk.problem).toBeNull();
  });
});
