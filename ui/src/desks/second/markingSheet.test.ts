import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { KEEP_AFTER_MS, MarkingSheet, type MarkingCommands, type MarkingEnd } from "./markingSheet.svelte";
import { endSaid } from "./markingEnd";
import { rowsOf, SecondDesk } from "./secondDesk.svelte";
import type { MarkingDraft, MarkingOutcome, MarkingView, SecondMarkingDesk, TakenMarking } from "../../lib/api";

const view = (round = 2): MarkingView => ({
  markingId: 9, round, questionId: "7", resultId: 3, participant: "Ann Lee", groupName: null, question: "Essay", maxScore: 8,
  markupHtml: "<p>Q</p>", answer: { kind: "text", text: "An answer", occurrence: 1, blockNumber: 1 }, rubricName: "Essay", instructions: null,
  dimensions: [
    { order: 1, name: "Content", instructions: null, maxScore: 5, score: null, comment: null, levels: [] },
    { order: 2, name: "Style", instructions: null, maxScore: 3, score: null, comment: null, levels: [] },
  ],
  comments: null, modified: "2026-12-03T10:00:00.000", earlier: [],
});

/** A server that keeps each save, answering each keep with a new revision. */
function server(outcome: MarkingOutcome = { outcome: "final", score: 6 }) {
  const saves: Array<{ draft: MarkingDraft; submit: boolean }> = [];
  const givenBack: number[] = [];
  let revision = 0;
  const commands: MarkingCommands = {
    save: async (draft, submit) => {
      saves.push({ draft: JSON.parse(JSON.stringify(draft)) as MarkingDraft, submit });
      if (submit) return outcome;
      revision += 1;
      return { outcome: "kept", modified: `rev-${revision}` };
    },
    giveBack: async (id) => void givenBack.push(id),
  };
  return { commands, saves, givenBack };
}

describe("a second marking", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("scores by digit keys, keeps each change on the server with the revision the last keep made, and submits the latest", async () => {
    const { commands, saves } = server();
    const ends: MarkingEnd[] = [];
    const sheet = new MarkingSheet(view(), (end) => ends.push(end), commands);
    expect(sheet.scoreKey("7")).toBe(true);
    expect(sheet.message).toContain("at most 5");
    expect(sheet.scoreKey("4")).toBe(true);
    expect(sheet.selected).toBe(1);
    expect(sheet.kept).toBe(false);
    await vi.advanceTimersByTimeAsync(KEEP_AFTER_MS + 1);
    expect(saves).toHaveLength(1);
    expect(saves[0].draft.dimensions.map((d) => d.score)).toEqual([4, null]);
    expect(saves[0].draft.modified).toBe("2026-12-03T10:00:00.000");
    expect(sheet.kept).toBe(true);

    // Submitting with a dimension unscored is refused here, pointing at it.
    sheet.selected = 0;
    await sheet.submit();
    expect(sheet.message).toContain("Score Style");
    expect(sheet.selected).toBe(1);
    expect(saves).toHaveLength(1);

    sheet.scoreKey("2");
    sheet.setComments("Clear argument");
    await sheet.submit();
    expect(saves.map((s) => s.submit)).toEqual([false, false, true]);
    // The keep before the submission sent the revision the first keep answered.
    expect(saves[1].draft.modified).toBe("rev-1");
    expect(saves[2].draft.modified).toBe("rev-2");
    expect(saves[2].draft.dimensions.map((d) => d.score)).toEqual([4, 2]);
    expect(saves[2].draft.comments).toBe("Clear argument");
    expect(ends).toEqual([{ kind: "submitted", outcome: { outcome: "final", score: 6 } }]);
  });

  it("asks before giving back a round with scores, and gives an untouched one back at once", async () => {
    const { commands, givenBack } = server();
    const ends: MarkingEnd[] = [];
    const untouched = new MarkingSheet(view(), (end) => ends.push(end), commands);
    await untouched.giveBack();
    expect(givenBack).toEqual([9]);
    const scored = new MarkingSheet(view(), (end) => ends.push(end), commands);
    scored.scoreKey("1");
    await scored.giveBack();
    expect(scored.confirmingGiveBack).toBe(true);
    expect(givenBack).toEqual([9]);
    await scored.giveBack(true);
    expect(givenBack).toEqual([9, 9]);
    expect(ends.map((e) => e.kind)).toEqual(["given-back", "given-back"]);
  });

  it("closes only once its changes are on the server, or on a second close when the server refused them", async () => {
    const { commands } = server();
    const ends: MarkingEnd[] = [];
    let refuse = true;
    const refusing: MarkingCommands = { ...commands, save: (draft, submit) => (refuse ? Promise.reject({ kind: "unreachable", message: "No answer." }) : commands.save(draft, submit)) };
    const sheet = new MarkingSheet(view(), (end) => ends.push(end), refusing);
    sheet.scoreKey("3");
    await sheet.close();
    expect(ends).toEqual([]);
    expect(sheet.message).toContain("Esc again closes");
    refuse = false;
    await sheet.close();
    expect(ends).toEqual([{ kind: "closed" }]);
  });

  it("says what a submission came to", () => {
    expect(endSaid({ kind: "submitted", outcome: { outcome: "resolution" } }, view())).toContain("a lead marker resolves");
    expect(endSaid({ kind: "submitted", outcome: { outcome: "final", score: 6 } }, view())).toContain("markings agree: the script has its final mark (6)");
    expect(endSaid({ kind: "submitted", outcome: { outcome: "final", score: 5 } }, view(3))).toContain("your resolution is the final mark (5)");
    expect(endSaid({ kind: "given-back" }, view(3))).toContain("resolution was given back");
  });
});

const taken = (id: number, mine: boolean): TakenMarking => ({ id, questionId: "7", resultId: id, round: 2, markedBy: mine ? "me" : "ann", mine, question: null, started: "2026-12-03T09:00:00.000" });

describe("the second-marking desk", () => {
  it("lists this marker's own markings, then the waiting rounds, then others' to free (twice)", async () => {
    let desk: SecondMarkingDesk = {
      waiting: [{ questionId: "7", resultId: 20, round: 3, question: "Essay", queued: "2026-12-03T10:00:00.000" }],
      taken: [taken(1, false), taken(2, true)],
    };
    expect(rowsOf(desk).map((r) => r.kind)).toEqual(["mine", "waiting", "others"]);
    const freed: number[] = [];
    const state = new SecondDesk({ load: async () => desk, free: async (id) => {
      freed.push(id);
      desk = { ...desk, taken: desk.taken.filter((m) => m.id !== id) };
    } });
    await state.load();
    expect(await state.free()).toBe(false);
    state.move(2);
    expect(state.current?.kind).toBe("others");
    await state.free();
    expect(state.confirmingFree).toBe(true);
    expect(freed).toEqual([]);
    await state.free();
    expect(freed).toEqual([1]);
    expect(state.rows.map((r) => r.kind)).toEqual(["mine", "waiting"]);
    expect(state.selected).toBe(1);
  });
});
