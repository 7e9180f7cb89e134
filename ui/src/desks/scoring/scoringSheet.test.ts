// One task's scoring without a window (issue 33): digits score the selected
// dimension and move on, every change is kept on this computer before anything
// else, a submit needs every dimension, a save the server missed is done again with
// the latest draft, a conflict is resolved field by field and never overwrites, and
// releasing typed work asks first and keeps it.
import { describe, expect, it, vi } from "vitest";
import { groupSaid, ScoringSheet, type ScoringCommands } from "./scoringSheet.svelte";
import { DurableDraftStore } from "../../lib/draftStore";
import { draftKey } from "../../lib/scoring";
import type { Draft, ScoringView, SubmitOutcome } from "../../lib/api";

const dimension = (order: number, maxScore: number) => ({ order, name: `D${order}`, instructions: null, maxScore, score: null, comment: null, levels: [] });
const view: ScoringView = {
  questionId: "11",
  resultId: 5,
  status: 1,
  participant: "Ben",
  groupName: "A",
  finishedAt: null,
  question: "Essay",
  maxScore: 7,
  markupHtml: "<p>Why?</p>",
  answer: { kind: "text", text: "Because.", occurrence: 1, blockNumber: 1 },
  rubric: { rubricId: 3, name: "Essay", instructions: null, maxScore: 7, dimensions: [dimension(1, 4), dimension(2, 3)], score: null, comments: null, modified: "2026-11-27T09:00:00.000" },
};

function open(submit: ScoringCommands["submit"] = async () => ({ outcome: "saved" }), applyGroup: ScoringCommands["applyGroup"] = async () => ({ members: 0, remaining: 0 })) {
  const writes: [string, Record<string, unknown>][] = [];
  const drafts = new DurableDraftStore(async (command, args) => void writes.push([command, args]));
  const ondone = vi.fn();
  const onunreachable = vi.fn();
  const release = vi.fn(async () => undefined);
  const sheet = new ScoringSheet(view, { drafts, ondone, onunreachable, commands: { submit, release, applyGroup } });
  return { sheet, drafts, writes, ondone, onunreachable, release };
}

const key = draftKey("11", 5);

describe("ScoringSheet", () => {
  it("applies a submitted marking to its answer group only when asked, after the submit, and says what it came to", async () => {
    const order: string[] = [];
    const submit = vi.fn(async (): Promise<SubmitOutcome> => (order.push("submit"), { outcome: "saved" }));
    const applyGroup = vi.fn(async () => (order.push("apply"), { members: 3, remaining: 0 }));
    const { sheet, ondone } = open(submit, applyGroup);
    sheet.scoreKey("3");
    await sheet.save(3, sheet.draft, true);
    expect(submit).not.toHaveBeenCalled();
    expect(applyGroup).not.toHaveBeenCalled();
    sheet.scoreKey("2");
    await sheet.save(3, sheet.draft, true);
    expect(order).toEqual(["submit", "apply"]);
    expect(applyGroup).toHaveBeenCalledWith("11", 5);
    expect(ondone).toHaveBeenCalledWith("submitted", 5, "Applied to 3 answers alike.");
    // A plain submit applies nothing; a refused application leaves the script submitted.
    const plain = open(submit, applyGroup);
    plain.sheet.scoreKey("1");
    plain.sheet.scoreKey("1");
    await plain.sheet.save(3);
    expect(applyGroup).toHaveBeenCalledTimes(1);
    expect(plain.ondone).toHaveBeenCalledWith("submitted", 2);
    const refused = open(submit, async () => Promise.reject({ kind: "rejected", message: "another marker marked it" }));
    refused.sheet.scoreKey("1");
    refused.sheet.scoreKey("1");
    await refused.sheet.save(3, refused.sheet.draft, true);
    expect(refused.ondone).toHaveBeenCalledWith("submitted", 2, expect.stringContaining("Not applied to the answers alike"));
  });

  it("says how many answers alike a marking reached and how many are left", () => {
    expect(groupSaid({ members: 1, remaining: 0 })).toBe("Applied to 1 answer alike.");
    expect(groupSaid({ members: 0, remaining: 0 })).toBe("No answer alike was left open to apply it to.");
    expect(groupSaid({ members: 500, remaining: 20 })).toBe("Applied to 500 answers alike. 20 answers more are left: reopen it (Ctrl+Z) and apply again (A).");
  });

  it("scores the selected dimension by digit, moves on, and keeps every change on this computer", async () => {
    const { sheet, drafts, writes } = open();
    expect(sheet.scoreKey("3")).toBe(true);
    expect(sheet.selected).toBe(1);
    expect(sheet.scoreKey("5")).toBe(true);
    expect(sheet.message).toBe("D2 gives at most 3.");
    expect(sheet.scoreKey("2")).toBe(true);
    expect(sheet.message).toBeNull();
    expect(sheet.scoreKey("x")).toBe(false);
    expect(sheet.sum).toBe(5);
    await drafts.flushed();
    expect(writes.at(-1)?.[0]).toBe("keep_draft");
    expect(JSON.parse(drafts.getItem(key)!).draft.dimensions.map((d: { score: number }) => d.score)).toEqual([3, 2]);
  });

  it("submits only a complete draft, and forgets the kept draft once the server has it", async () => {
    const submit = vi.fn(async (): Promise<SubmitOutcome> => ({ outcome: "saved" }));
    const { sheet, drafts, ondone } = open(submit);
    sheet.scoreKey("3");
    await sheet.save(3);
    expect(submit).not.toHaveBeenCalled();
    expect(sheet.message).toContain("Score every dimension");
    sheet.scoreKey("1");
    await sheet.save(3);
    expect(submit).toHaveBeenCalledWith(expect.objectContaining({ score: 4 }), 3);
    expect(ondone).toHaveBeenCalledWith("submitted", 4);
    expect(drafts.getItem(key)).toBeNull();
  });

  it("saves again, with the latest draft, once the server answers", async () => {
    const submit = vi.fn<ScoringCommands["submit"]>().mockRejectedValueOnce({ kind: "unreachable", message: "connection refused" }).mockResolvedValue({ outcome: "saved" });
    const { sheet, onunreachable, ondone } = open(submit);
    sheet.scoreKey("3");
    await sheet.save(2);
    expect(sheet.pending).toBe(2);
    expect(onunreachable).toHaveBeenCalled();
    expect(sheet.message).toContain("kept on this computer");
    sheet.scoreKey("2");
    sheet.retry();
    await vi.waitFor(() => expect(ondone).toHaveBeenCalledWith("saved", 5));
    expect(submit.mock.calls[1][0].dimensions.map((d) => d.score)).toEqual([3, 2]);
  });

  it("turns a save another client beat into a conflict, and saves the merge it was resolved to", async () => {
    const stored: Draft = { questionId: "11", resultId: 5, rubricId: 3, modified: "2026-11-27T09:05:00.000", score: 3, comments: "Theirs", dimensions: [{ order: 1, score: 1, comment: null }, { order: 2, score: 2, comment: null }] };
    const submit = vi.fn<ScoringCommands["submit"]>().mockResolvedValueOnce({ outcome: "conflict", stored }).mockResolvedValue({ outcome: "saved" });
    const { sheet, ondone } = open(submit);
    sheet.scoreKey("4");
    sheet.scoreKey("3");
    await sheet.save(3);
    expect(ondone).not.toHaveBeenCalled();
    expect([...sheet.conflict!.keep]).toEqual(expect.arrayContaining(["score:1", "score:2"]));
    // Keep mine for the first dimension, theirs for the second.
    await sheet.resolve(new Set(["score:1"]));
    expect(submit.mock.calls[1][0].dimensions.map((d) => d.score)).toEqual([4, 2]);
    expect(submit.mock.calls[1][0].modified).toBe("2026-11-27T09:05:00.000");
    expect(ondone).toHaveBeenCalledWith("submitted", 6);
  });

  it("asks before releasing typed work, and keeps it on this computer", async () => {
    const { sheet, drafts, release, ondone } = open();
    sheet.scoreKey("2");
    await sheet.release();
    expect(sheet.confirmingRelease).toBe(true);
    expect(release).not.toHaveBeenCalled();
    await sheet.release(true);
    expect(release).toHaveBeenCalledWith("11", 5);
    expect(ondone).toHaveBeenCalledWith("released");
    expect(drafts.getItem(key)).not.toBeNull();
  });
});
