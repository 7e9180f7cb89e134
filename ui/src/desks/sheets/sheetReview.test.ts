// The review of scanned sheets without a window (issue 33): a letter marks a
// choice, a changed decision is unconfirmed again, Enter confirms and goes on to
// the next undecided doubt, and nothing goes up until every doubt is confirmed.
import { describe, expect, it, vi } from "vitest";
import { SheetReview, type ReviewCommands } from "./sheetReview.svelte";
import type { SheetDoubt, SheetScanReport, SheetUpload } from "../../lib/api";

const bubble = (choice: number, label: string, verdict = "unsure") => ({ choice, label, darkness: 0.3, verdict, kind: "a faint fill" });
const doubt = (attemptId: number, question: number, single = true, part = 0): SheetDoubt => ({
  attemptId,
  question,
  part,
  blank: false,
  page: 1,
  single,
  picture: false,
  essay: false,
  reason: "faint",
  bubbles: [bubble(1, "A"), bubble(2, "B"), bubble(3, "C")],
  elsewhere: "nothing marked",
  crop: "data:image/png;base64,",
});
const report = (): SheetScanReport => ({
  pages: 3,
  refused: [],
  attempts: [
    { attemptId: 7, pages: 1, problem: null, doubts: [doubt(7, 2), doubt(7, 5, false), doubt(7, 6, true, 1), doubt(7, 6, true, 3)] },
    { attemptId: 8, pages: 1, problem: null, doubts: [doubt(8, 2)] },
    { attemptId: 9, pages: 1, problem: "page 2 is missing", doubts: [] },
  ],
});

function commands() {
  const decided: [number, number, number, number[]][] = [];
  const typed: [number, number, number, string][] = [];
  const upload = vi.fn(async (): Promise<SheetUpload[]> => [{ attemptId: 7, outcome: { kind: "refused", message: "AttemptID 7 has a result" } }]);
  const given: ReviewCommands = {
    decide: async (a, q, p, c) => void decided.push([a, q, p, c]),
    transcribe: async (a, q, p, t) => void typed.push([a, q, p, t]),
    upload,
  };
  return { decided, typed, upload, given };
}

describe("SheetReview", () => {
  it("marks by letter: one choice alone on a one-choice question, several toggled on another", () => {
    const review = new SheetReview(report(), () => {}, commands().given);
    const first = review.current!;
    expect(review.press("a")).toBe(true);
    review.press("b");
    expect(review.decision(first)).toEqual([2]);
    expect(review.press("z")).toBe(false);
    review.move(1);
    const several = review.current!;
    review.press("c");
    review.press("a");
    expect(review.decision(several)).toEqual([1, 3]);
    review.press("c");
    expect(review.decision(several)).toEqual([1]);
  });

  it("marks a number's row by its digit, point or minus", () => {
    const keys = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", ".", "-"];
    const row = { ...doubt(7, 3, true, 2), bubbles: keys.map((k, i) => bubble(i + 1, k)) };
    const review = new SheetReview(
      { pages: 1, refused: [], attempts: [{ attemptId: 7, pages: 1, problem: null, doubts: [row] }] },
      () => {},
      commands().given,
    );
    expect(review.press("0")).toBe(true);
    expect(review.decision(review.current!)).toEqual([1]);
    review.press("-");
    expect(review.decision(review.current!)).toEqual([12]);
    expect(review.press("a")).toBe(false);
  });

  it("confirms with Enter, goes on to the next undecided doubt, and takes a confirmation back on a change", async () => {
    const { decided, given } = commands();
    const review = new SheetReview(report(), () => {}, given);
    review.press("b");
    await review.enter();
    expect(decided).toEqual([[7, 2, 0, [2]]]);
    expect(review.at).toBe(1);
    review.move(-1);
    review.clear();
    expect(review.isConfirmed(review.current!)).toBe(false);
    expect(review.allDecided).toBe(false);
  });

  it("uploads only once every doubt is confirmed, then says the review is over", async () => {
    const onuploaded = vi.fn();
    const { upload, given } = commands();
    const review = new SheetReview(report(), onuploaded, given);
    await review.upload();
    expect(upload).not.toHaveBeenCalled();
    for (let i = 0; i < 5; i++) await review.enter();
    expect(review.allDecided).toBe(true);
    expect(review.current).toBeUndefined();
    expect(await review.enter()).toBe(false);
    expect(upload).toHaveBeenCalledTimes(1);
    expect(onuploaded).toHaveBeenCalledTimes(1);
    // The upload of the two whole attempts; the incomplete one is not counted.
    expect(review.ready).toBe(2);
    expect(await review.enter()).toBe(true);
  });

  it("keeps a refused decision unconfirmed and says why", async () => {
    const review = new SheetReview(report(), () => {}, {
      decide: async () => Promise.reject({ kind: "server", message: "question 2 is not in doubt" }),
      transcribe: async () => {},
      upload: async () => [],
    });
    await review.enter();
    expect(review.error).toContain("not in doubt");
    expect(review.at).toBe(0);
    expect(review.isConfirmed(review.current!)).toBe(false);
  });

  it("decides a matching's rows each on its own, by question and row", async () => {
    const { decided, given } = commands();
    const review = new SheetReview(report(), () => {}, given);
    review.move(2);
    expect(review.current).toMatchObject({ question: 6, part: 1 });
    review.press("c");
    await review.enter();
    expect(review.current).toMatchObject({ question: 6, part: 3 });
    expect(review.isConfirmed(review.doubts[3])).toBe(false);
    review.press("a");
    await review.enter();
    expect(decided).toEqual([[7, 6, 1, [3]], [7, 6, 3, [1]]]);
  });

  it("takes a short answer's words as typed, letters and all, and sends them trimmed", async () => {
    const { decided, typed, given } = commands();
    const written: SheetDoubt = { ...doubt(8, 4), reason: "written", single: false, bubbles: [] };
    const withBox = report();
    withBox.attempts[1].doubts.push(written);
    const review = new SheetReview(withBox, () => {}, given);
    review.move(5);
    expect(review.current).toMatchObject({ attemptId: 8, question: 4, reason: "written" });
    expect(review.press("a")).toBe(false);
    review.type("  wicked king ");
    expect(review.typedFor(review.current!)).toBe("  wicked king ");
    await review.enter();
    expect(typed).toEqual([[8, 4, 0, "wicked king"]]);
    expect(decided).toEqual([]);
    expect(review.isConfirmed(written)).toBe(true);
    // Changed, it is unconfirmed until Enter again; Backspace empties it.
    review.at = 5;
    review.type("evil king");
    expect(review.isConfirmed(written)).toBe(false);
    review.clear();
    await review.enter();
    expect(typed).toEqual([
      [8, 4, 0, "wicked king"],
      [8, 4, 0, ""],
    ]);
  });
});
