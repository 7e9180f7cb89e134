import { describe, expect, it } from "vitest";
import { flagState, FLAG_REASONS, reasonForKey, reasonLabel } from "./flags";
import type { FlagEntry } from "./bindings/FlagEntry";

const flag = (over: Partial<FlagEntry>): FlagEntry => ({
  id: 1, questionId: "7", resultId: 2, question: null, reason: "unreadable", note: "", raisedBy: "ann",
  raised: "2026-12-02T10:00:00.000", taskStatus: 1, answer: null, ...over,
});

describe("flag reasons", () => {
  it("are picked by the keys 1 to 4 and nothing else", () => {
    expect(FLAG_REASONS.map((_, i) => reasonForKey(String(i + 1))?.value)).toEqual(["unreadable", "malpractice", "off-rubric", "second-look"]);
    for (const key of ["0", "5", "9", "a", "", "12"]) expect(reasonForKey(key)).toBeNull();
  });

  it("are labelled, an unknown one as the server names it", () => {
    expect(reasonLabel("off-rubric")).toBe("Off the rubric");
    expect(reasonLabel("copied")).toBe("copied");
  });
});

describe("a flag's state", () => {
  it("says whether it is open and what its answer did", () => {
    expect(flagState(flag({}))).toBe("Open: the task is locked");
    expect(flagState(flag({ taskStatus: 3 }))).toBe("Open: the task is at 3 now");
    const answer = { outcome: "released", note: "ok", answeredBy: "lee", answered: "" };
    expect(flagState(flag({ answer }))).toBe("Released to the queue by lee");
    expect(flagState(flag({ answer: { ...answer, outcome: "taken-over" } }))).toBe("Taken over by lee");
  });
});
