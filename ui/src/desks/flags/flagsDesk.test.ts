import { describe, expect, it } from "vitest";
import { FlagsDesk, type FlagsCommands } from "./flagsDesk.svelte";
import type { FlagDesk } from "../../lib/bindings/FlagDesk";
import type { FlagEntry } from "../../lib/bindings/FlagEntry";

const entry = (id: number): FlagEntry => ({
  id, questionId: "7", resultId: id, question: null, reason: "unreadable", note: "", raisedBy: "ann",
  raised: "2026-12-02T10:00:00.000", taskStatus: 1, answer: null,
});

/** A server of two open flags that answers by closing them. */
function server(mayAnswer = true) {
  const answered: Array<[number, string, string]> = [];
  let open = [entry(1), entry(2)];
  const commands: FlagsCommands = {
    load: async (): Promise<FlagDesk> => ({ open, answered: [], mayAnswer }),
    answer: async (id, outcome, note) => {
      answered.push([id, outcome, note]);
      open = open.filter((flag) => flag.id !== id);
    },
  };
  return { commands, answered };
}

describe("the flags desk", () => {
  it("answers the highlighted flag and hands a taken-over task back to mark", async () => {
    const { commands, answered } = server();
    const desk = new FlagsDesk(commands);
    await desk.load();
    desk.move(1);
    expect(desk.current?.id).toBe(2);
    expect(desk.begin("taken-over")).toBe(true);
    desk.answering!.note = "Mine.";
    const taken = await desk.send();
    expect(taken?.id).toBe(2);
    expect(answered).toEqual([[2, "taken-over", "Mine."]]);
    expect(desk.open.map((f) => f.id)).toEqual([1]);
    expect(desk.selected).toBe(0);
    expect(desk.begin("released")).toBe(true);
    desk.answering!.note = "Fine.";
    expect(await desk.send()).toBeNull();
    expect(desk.open).toEqual([]);
  });

  it("sends no answer without a note, and none where the account may not answer", async () => {
    const { commands, answered } = server();
    const desk = new FlagsDesk(commands);
    await desk.load();
    desk.begin("released");
    desk.answering!.note = "   ";
    expect(await desk.send()).toBeNull();
    expect(desk.problem).toContain("note");
    expect(answered).toEqual([]);

    const scorer = new FlagsDesk(server(false).commands);
    await scorer.load();
    expect(scorer.begin("released")).toBe(false);
    expect(scorer.answering).toBeNull();
  });
});
