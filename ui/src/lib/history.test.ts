import { describe, expect, it } from "vitest";
import { describeScored, fromEvents, HISTORY_LENGTH, mergeHistory, recordScored, type ScoredTask } from "./history";

const entry = (resultId: number, score = 3, outcome: ScoredTask["outcome"] = "submitted"): ScoredTask => ({
  questionId: "7",
  resultId,
  question: "Essay",
  participant: "Ada",
  score,
  outcome,
  at: resultId,
});

describe("the session's scored tasks", () => {
  it("lists the newest first, each task once with its latest score", () => {
    let history = recordScored([], entry(1));
    history = recordScored(history, entry(2));
    history = recordScored(history, entry(1, 5, "saved"));
    expect(history.map((h) => [h.resultId, h.score])).toEqual([
      [1, 5],
      [2, 3],
    ]);
  });

  it("keeps a bounded number of entries", () => {
    let history: ScoredTask[] = [];
    for (let i = 0; i < HISTORY_LENGTH + 5; i++) history = recordScored(history, entry(i));
    expect(history).toHaveLength(HISTORY_LENGTH);
    expect(history[0].resultId).toBe(HISTORY_LENGTH + 4);
  });

  it("says what was done", () => {
    expect(describeScored(entry(1, 7))).toBe("Submitted 7");
    expect(describeScored(entry(1, 5, "saved"))).toBe("Saved 5 for moderation");
  });
});

describe("the history from the server", () => {
  it("reads the server's record, its times as UTC", () => {
    const [saved, submitted] = fromEvents([
      { questionId: "7", resultId: 1, question: "Essay", participant: "Ada", score: null, status: 2, at: "2026-11-23T10:00:00.000" },
      { questionId: "7", resultId: 2, question: "Essay", participant: "Bo", score: 4, status: 3, at: "2026-11-23T10:05:00.000Z" },
    ]);
    expect(saved.outcome).toBe("saved");
    expect(saved.at).toBe(Date.UTC(2026, 10, 23, 10, 0, 0));
    expect(describeScored(saved)).toBe("Saved without a total for moderation");
    expect(submitted.outcome).toBe("submitted");
    expect(submitted.at).toBe(Date.UTC(2026, 10, 23, 10, 5, 0));
  });

  it("merges with what was scored here: each task once, at its latest", () => {
    const here = [entry(1, 5)];
    const elsewhere = [{ ...entry(1, 2), at: 0 }, { ...entry(3, 1), at: 9 }];
    expect(mergeHistory(here, elsewhere).map((h) => [h.resultId, h.score])).toEqual([
      [3, 1],
      [1, 5],
    ]);
  });
});
