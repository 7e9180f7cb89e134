import { describe, expect, it } from "vitest";
import { SeedMaking, seedCandidates } from "./seedMaking.svelte";
import type { ScoredTask } from "../../lib/history";
import type { SeedEntry } from "../../lib/bindings/SeedEntry";

const scored = (resultId: number, outcome: "saved" | "submitted", score: number | null = 5): ScoredTask => ({
  questionId: "7", resultId, question: "Essay", participant: null, score, outcome, at: resultId,
});
const seed = (resultId: number): SeedEntry => ({
  id: resultId, questionId: "7", question: null, resultId, score: 5, reasons: "r", createdBy: "lead", created: "2026-12-04T10:00:00.000",
});

describe("making a check script", () => {
  it("offers only submitted scripts with a total that are not seeds yet", () => {
    const history = [scored(4, "submitted"), scored(3, "saved"), scored(2, "submitted", null), scored(1, "submitted")];
    expect(seedCandidates(history, [seed(1)]).map((entry) => entry.resultId)).toEqual([4]);
  });

  it("makes the chosen script a seed with its reasons, never without them", async () => {
    const made: Array<[string, number, string]> = [];
    const making = new SeedMaking(async (q, r, reasons) => void made.push([q, r, reasons]));
    const candidates = [scored(9, "submitted"), scored(8, "submitted")];
    expect(making.begin(candidates)).toBe(true);
    making.form!.chosen = 1;
    expect(await making.send(candidates)).toBe(false);
    expect(making.problem).toContain("Write why");
    making.form!.reasons = "Every point argued.";
    expect(await making.send(candidates)).toBe(true);
    expect(made).toEqual([["7", 8, "Every point argued."]]);
    expect(making.form).toBeNull();
  });

  it("says what to do when nothing was scored, and what the server refused", async () => {
    const making = new SeedMaking(async () => {
      throw { kind: "refused", message: "not every dimension of the rubric is scored" };
    });
    expect(making.begin([])).toBe(false);
    expect(making.problem).toContain("Score a script in full first");
    const candidates = [scored(9, "submitted")];
    making.begin(candidates);
    making.form!.reasons = "Full marks.";
    expect(await making.send(candidates)).toBe(false);
    expect(making.problem).toBe("Not made a check script: not every dimension of the rubric is scored");
    expect(making.form).not.toBeNull();
  });
});
