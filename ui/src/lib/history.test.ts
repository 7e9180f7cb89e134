import { describe, expect, it } from "vitest";
import { describeScored, HISTORY_LENGTH, recordScored, type ScoredTask } from "./history";

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
