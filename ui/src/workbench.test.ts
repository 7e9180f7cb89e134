// The scorer's work across desks without a window (issue 33): one task opened at a
// time, a task not claimed by its opening shown as a review, a failure to open told
// and nothing opened, a saved or submitted task joining the history (and returned
// for the queue to drop), a release not, and the server's history merged once.
import { describe, expect, it, vi } from "vitest";
import { Workbench, type WorkbenchCommands } from "./workbench.svelte";
import { DurableDraftStore } from "./lib/draftStore";
import type { ScoringView } from "./lib/api";

const view = (resultId: number, status: number): ScoringView => ({ questionId: "11", resultId, status, participant: "Ben", groupName: "A", finishedAt: null, question: "Essay", maxScore: 4, markupHtml: "", answer: { kind: "text", text: "", occurrence: 1, blockNumber: 1 }, rubric: null });

function bench(open: WorkbenchCommands["open"] = async (_q, resultId, opening) => view(resultId, opening === "claim" ? 1 : 2)) {
  const errors: string[] = [];
  const history = vi.fn(async () => [{ questionId: "11", resultId: 3, question: "Essay", participant: "Ada", score: 2, status: 3, at: "2026-11-27T08:00:00Z" }]);
  const work = new Workbench(new DurableDraftStore(async () => []), (m) => errors.push(m), { open, history } as WorkbenchCommands);
  return { work, errors, history };
}

describe("Workbench", () => {
  it("opens one task at a time, and shows one it did not claim as a review", async () => {
    let answer: (v: ScoringView) => void = () => {};
    const open = vi.fn(() => new Promise<ScoringView>((resolve) => (answer = resolve)));
    const { work } = bench(open);
    const first = work.open({ questionId: "11", resultId: 5 }, "claim");
    await work.open({ questionId: "11", resultId: 6 }, "claim");
    expect(open).toHaveBeenCalledTimes(1);
    answer(view(5, 2));
    await first;
    expect(work.scoring?.resultId).toBe(5);
    expect(work.reviewing).toBe(true);
  });

  it("tells why a task could not be opened, and opens nothing", async () => {
    const { work, errors } = bench(async () => Promise.reject({ kind: "server", message: "Task 11/5 is being scored by someone else" }));
    await work.open({ questionId: "11", resultId: 5 }, "claim");
    expect(work.scoring).toBeNull();
    expect(work.taking).toBe(false);
    expect(errors).toEqual(["Task 11/5 is being scored by someone else"]);
  });

  it("records a submitted task in the history and hands it back; a release is not recorded", async () => {
    const { work } = bench();
    await work.open({ questionId: "11", resultId: 5 }, "claim");
    const finished = work.finish("submitted", 4);
    expect(finished?.resultId).toBe(5);
    expect(work.scoring).toBeNull();
    expect(work.latestScored).toMatchObject({ resultId: 5, score: 4, outcome: "submitted" });
    expect(work.lastOutcome).toContain("Ctrl+Z reopens it");
    await work.open({ questionId: "11", resultId: 6 }, "claim");
    expect(work.finish("released")).toBeNull();
    expect(work.history).toHaveLength(1);
  });

  it("merges the server's history once per server", async () => {
    const { work, history } = bench();
    await work.loadHistory();
    await work.loadHistory();
    expect(history).toHaveBeenCalledTimes(1);
    expect(work.history.map((h) => h.resultId)).toEqual([3]);
    work.forgetServer();
    expect(work.history).toEqual([]);
    await work.loadHistory();
    expect(history).toHaveBeenCalledTimes(2);
  });
});
