import { describe, expect, it } from "vitest";
import { SeedsState, deviationLabel, type SeedsCommands } from "./seedsDesk.svelte";
import type { SeedsDesk } from "../../lib/bindings/SeedsDesk";
import type { PauseEntry } from "../../lib/bindings/PauseEntry";

const pause = (id: number): PauseEntry => ({
  id, questionId: "7", question: null, marker: `m${id}`, seedsCounted: 1, meanDeviation: 2,
  tolerance: 0, message: "you are paused", paused: "2026-12-04T10:00:00.000",
});

function server(mayRelease = true) {
  const released: Array<[number, string]> = [];
  let pauses = [pause(1), pause(2)];
  const commands: SeedsCommands = {
    load: async (): Promise<SeedsDesk> => ({ pauses, seedMarkings: [], seeds: [], mayRelease }),
    release: async (id, note) => {
      released.push([id, note]);
      pauses = pauses.filter((p) => p.id !== id);
    },
  };
  return { commands, released };
}

describe("the pauses beside the flags", () => {
  it("releases the highlighted pause with a note, never without one", async () => {
    const { commands, released } = server();
    const desk = new SeedsState(commands);
    await desk.load();
    desk.move(1);
    expect(desk.begin()).toBe(true);
    expect(await desk.send()).toBe(false);
    expect(desk.problem).toContain("Write a note");
    desk.releasing!.note = "Talked it over.";
    expect(await desk.send()).toBe(true);
    expect(released).toEqual([[2, "Talked it over."]]);
    expect(desk.pauses.map((p) => p.id)).toEqual([1]);
    expect(desk.selected).toBe(0);
  });

  it("lets a scorer read his pause but not release it", async () => {
    const { commands, released } = server(false);
    const desk = new SeedsState(commands);
    await desk.load();
    expect(desk.begin()).toBe(false);
    expect(released).toEqual([]);
  });

  it("says a deviation signed", () => {
    expect([deviationLabel(-2), deviationLabel(0), deviationLabel(3), deviationLabel(null)]).toEqual(["-2", "exact", "+3", "not marked yet"]);
  });
});
