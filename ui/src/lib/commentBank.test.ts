import { describe, expect, it } from "vitest";
import { bankFor, bankTarget, commentOf, entryForKey, withBankedComment, withInserted, type BankedComment } from "./commentBank";

const comment = (id: number, dimensionOrder: number | null, text = `Comment ${id}`): BankedComment => ({ id, dimensionOrder, text, createdBy: "ann", modified: "2026-11-23T10:00:00.000" });

describe("the comment bank", () => {
  it("keeps each dimension's comments and the overall ones apart", () => {
    const bank = [comment(1, 1), comment(2, null), comment(3, 1), comment(4, 2)];
    expect(bankFor(bank, 1).map((c) => c.id)).toEqual([1, 3]);
    expect(bankFor(bank, null).map((c) => c.id)).toEqual([2]);
    expect(bankFor(bank, 3)).toEqual([]);
  });

  it("adds an inserted comment after what is there", () => {
    expect(withInserted(null, "Clear.")).toBe("Clear.");
    expect(withInserted("  ", "Clear.")).toBe("Clear.");
    expect(withInserted("Good start.", "Units missing.")).toBe("Good start. Units missing.");
    expect(withInserted("Good start ", "units missing")).toBe("Good start; units missing");
  });

  it("serves the focused comment field, else the selected dimension", () => {
    expect(bankTarget("comment-3", 1)).toBe(3);
    expect(bankTarget("overall-comments", 1)).toBeNull();
    expect(bankTarget("", 2)).toBe(2);
    expect(bankTarget("score-4", 2)).toBe(2);
    expect(bankTarget("", undefined)).toBeUndefined();
  });

  it("numbers the first nine comments", () => {
    const entries = [comment(7, 1), comment(9, 1)];
    expect(entryForKey("2", entries)?.id).toBe(9);
    expect(entryForKey("3", entries)).toBeUndefined();
    expect(entryForKey("0", entries)).toBeUndefined();
    expect(entryForKey("a", entries)).toBeUndefined();
  });
});

describe("inserting from the bank into a draft", () => {
  const draft = {
    questionId: "7",
    resultId: 1,
    rubricId: 3,
    score: null,
    comments: "Good.",
    modified: null,
    dimensions: [{ order: 1, score: 2, comment: null }],
  } as unknown as Parameters<typeof withBankedComment>[0];

  it("adds to the dimension's comment or to the overall one", () => {
    expect(commentOf(withBankedComment(draft, 1, "Units missing."), 1)).toBe("Units missing.");
    expect(commentOf(withBankedComment(draft, null, "Clear."), null)).toBe("Good. Clear.");
    expect(commentOf(draft, 2)).toBe("");
  });
});
