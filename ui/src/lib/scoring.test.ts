import { describe, expect, it } from "vitest";
import type { Draft, ScoringView } from "./api";
import {
  allFields,
  defaultKeep,
  complete,
  differences,
  draftFrom,
  forgetDraft,
  hasTypedWork,
  keepDraft,
  keptDrafts,
  draftKey,
  merge,
  parseScore,
  recoverDraft,
  scoreFromKey,
  total,
  withDimension,
  type DraftStore,
} from "./scoring";

const view: ScoringView = {
  questionId: "2185231530264479",
  resultId: 12,
  status: 1,
  participant: "Ada Lovelace",
  groupName: "Year 10",
  finishedAt: "2026-11-20T09:30:00.000",
  question: "Essay",
  maxScore: 8,
  markupHtml: "<p>Explain.</p>",
  answer: { kind: "text", text: "Because.", occurrence: 1, blockNumber: 1 },
  rubric: {
    rubricId: 3,
    name: "Essay rubric",
    instructions: null,
    maxScore: 8,
    modified: "2026-11-21T09:30:12.123",
    score: null,
    comments: null,
    dimensions: [
      { order: 1, name: "Content", instructions: null, maxScore: 5, score: null, comment: null, levels: [] },
      { order: 2, name: "Style", instructions: null, maxScore: 3, score: null, comment: null, levels: [] },
    ],
  },
};

function memoryStore(): DraftStore & { items: Map<string, string>; length: number; key(index: number): string | null } {
  const items = new Map<string, string>();
  return {
    items,
    get length() {
      return items.size;
    },
    key: (index) => [...items.keys()][index] ?? null,
    getItem: (k) => items.get(k) ?? null,
    setItem: (k, v) => void items.set(k, v),
    removeItem: (k) => void items.delete(k),
  };
}

describe("the draft", () => {
  it("starts from the server's version and sums its dimensions live", () => {
    let draft = draftFrom(view)!;
    expect(total(draft.dimensions)).toBe(0);
    expect(complete(draft.dimensions)).toBe(false);
    draft = withDimension(draft, 1, { score: 4 });
    draft = withDimension(draft, 2, { score: 3 });
    expect(draft.score).toBe(7);
    expect(complete(draft.dimensions)).toBe(true);
    expect(draft.modified).toBe("2026-11-21T09:30:12.123");
  });

  it("has no draft when the question has no rubric", () => {
    expect(draftFrom({ ...view, rubric: null })).toBeNull();
  });
});

describe("score limits", () => {
  it("takes whole numbers from 0 to the maximum and says what is wrong otherwise", () => {
    expect(parseScore("3", 5)).toEqual({ score: 3, error: null });
    expect(parseScore(" 0 ", 5)).toEqual({ score: 0, error: null });
    expect(parseScore("", 5)).toEqual({ score: null, error: null });
    expect(parseScore("6", 5).error).toBe("The most this dimension gives is 5.");
    expect(parseScore("2.5", 5).error).toBe("Type a whole number from 0 to 5.");
    expect(parseScore("-1", 5).error).toBe("Type a whole number from 0 to 5.");
  });

  it("turns number keys into scores within the maximum only", () => {
    expect(scoreFromKey("3", 3)).toBe(3);
    expect(scoreFromKey("4", 3)).toBeNull();
    expect(scoreFromKey("a", 3)).toBeNull();
  });
});

describe("drafts kept locally", () => {
  it("recovers a kept draft over the server's version, and forgets it once saved", () => {
    const store = memoryStore();
    const fresh = draftFrom(view)!;
    const typed = withDimension(withDimension(fresh, 1, { score: 2, comment: "Thin argument" }), 2, { score: 1 });
    keepDraft(store, typed);
    expect(recoverDraft(store, fresh)).toEqual(typed);
    forgetDraft(store, fresh.questionId, fresh.resultId);
    expect(recoverDraft(store, fresh)).toEqual(fresh);
  });

  it("lists the kept drafts, the latest first, with their labels and totals", () => {
    const store = memoryStore();
    const fresh = draftFrom(view)!;
    keepDraft(store, withDimension(fresh, 1, { score: 2 }), { question: "Essay", participant: "Ada" });
    const other = { ...withDimension(fresh, 2, { score: 1 }), resultId: 13 };
    keepDraft(store, other, null);
    store.items.set(draftKey(fresh.questionId, 13), JSON.stringify({ ...JSON.parse(store.items.get(draftKey(fresh.questionId, 13))!), savedAt: Date.now() + 1000 }));
    store.items.set("scoredesk.blind", "true");
    store.items.set("scoredesk.draft.broken", "{not json");
    const listed = keptDrafts(store);
    expect(listed.map((d) => [d.resultId, d.total, d.label?.question ?? null])).toEqual([
      [13, 1, null],
      [12, 2, "Essay"],
    ]);
  });

  it("ignores a kept draft for another rubric or one that is not JSON", () => {
    const store = memoryStore();
    const fresh = draftFrom(view)!;
    keepDraft(store, { ...fresh, rubricId: 99 });
    expect(recoverDraft(store, fresh)).toEqual(fresh);
    store.items.set([...store.items.keys()][0], "{not json");
    expect(recoverDraft(store, fresh)).toEqual(fresh);
  });
});

describe("conflicts", () => {
  const fresh = draftFrom(view)!;
  const mine: Draft = withDimension(withDimension(fresh, 1, { score: 4, comment: "Good" }), 2, { score: 2 });
  const stored: Draft = {
    ...withDimension(withDimension(fresh, 1, { score: 3 }), 2, { score: 2, comment: "Other scorer" }),
    modified: "2026-11-21T09:31:00.000",
    comments: "Moderated",
  };

  it("lists the fields that differ, field by field", () => {
    expect(differences(mine, stored).map((d) => d.field)).toEqual(["score:1", "comment:1", "comment:2", "score", "comments"]);
    expect(differences(mine, stored, { 1: "Argument" }).map((d) => d.label).slice(0, 3)).toEqual([
      "Argument: score",
      "Argument: comment",
      "Dimension 2: comment",
    ]);
  });

  it("keeps the scorer's fields on top of the stored revision", () => {
    const merged = merge(mine, stored, allFields(mine, stored));
    expect(merged.modified).toBe("2026-11-21T09:31:00.000");
    expect(merged.dimensions).toEqual(mine.dimensions);
    expect(merged.score).toBe(6);
    expect(merged.comments).toBe(mine.comments);
  });

  it("ticks, at first, only the fields where the scorer wrote something", () => {
    expect([...defaultKeep(mine, stored)]).toEqual(["score:1", "comment:1", "score"]);
  });

  it("takes the stored version, or copies single fields across", () => {
    expect(merge(mine, stored, new Set())).toEqual({ ...stored, score: 5 });
    const partly = merge(mine, stored, new Set(["comment:1"]));
    expect(partly.dimensions[0]).toEqual({ order: 1, score: 3, comment: "Good" });
    expect(partly.dimensions[1].comment).toBe("Other scorer");
  });
});

describe("typed work", () => {
  const opened: Draft = {
    questionId: "7",
    resultId: 3,
    rubricId: 1,
    modified: null,
    score: 4,
    comments: null,
    dimensions: [
      { order: 1, score: 2, comment: null },
      { order: 2, score: 2, comment: null },
    ],
  };

  it("is a changed score or comment, never the running total alone", () => {
    expect(hasTypedWork(opened, opened)).toBe(false);
    expect(hasTypedWork({ ...opened, score: 9 }, opened)).toBe(false);
    expect(hasTypedWork(withDimension(opened, 2, { score: 0 }), opened)).toBe(true);
    expect(hasTypedWork(withDimension(opened, 1, { comment: "Good" }), opened)).toBe(true);
    expect(hasTypedWork({ ...opened, comments: "See me" }, opened)).toBe(true);
    expect(hasTypedWork(null, opened)).toBe(false);
  });
});
