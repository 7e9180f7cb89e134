import { describe, expect, it } from "vitest";
import type { UploadOutcome } from "./bindings/UploadOutcome";
import { problemsOf, scoreOf, uploadAll, uploadSummary } from "./uploads";

const scored: UploadOutcome = { kind: "scored", attemptId: "1", resultId: "9", totalScore: 3, maxScore: 14, band: "Pass", scoringTasks: 2 };

describe("answer uploads", () => {
  it("sends every file, never more than a few at once, and shows each outcome", async () => {
    let inFlight = 0;
    let most = 0;
    const shown: string[] = [];
    await uploadAll(
      ["a", "b", "c", "d", "e", "f", "g"],
      async (file) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((r) => setTimeout(r, file === "b" ? 20 : 2));
        inFlight -= 1;
        if (file === "c") throw new Error("connection refused");
        return scored;
      },
      (file, outcome) => shown.push(`${file}:${outcome.kind}`),
      3,
    );
    expect(most).toBe(3);
    expect(shown.sort()).toEqual(["a:scored", "b:scored", "c:unreachable", "d:scored", "e:scored", "f:scored", "g:scored"]);
  });
  it("counts the outcomes", () => {
    const refused: UploadOutcome = { kind: "refused", message: "QuestionOrderNumber 9 ..." };
    const lost: UploadOutcome = { kind: "unreachable", message: "Cannot reach" };
    expect(uploadSummary([scored, refused, lost, null])).toBe("4 files: 1 scored, 1 refused, 1 not sent (retry them), 1 to go");
    expect(uploadSummary([scored])).toBe("1 file: 1 scored, 0 refused");
  });
  it("shows a score out of the maximum", () => {
    expect(scoreOf(scored)).toBe("3 / 14");
    expect(scoreOf({ kind: "refused", message: "x" })).toBe("");
  });
});

describe("problemsOf", () => {
  it("lists each problem of a file refused for several, the count as its head", () => {
    const message = "3 problems: QuestionAndChoices[0].UploadedChoices[0].ChoiceOrderNumber: 9 is not a choice of question 1, which has choices 1 to 4; QuestionAndChoices[2].TextResponse: question 3 is answered with choices; and 1 more";
    expect(problemsOf(message)).toEqual({
      head: "3 problems:",
      items: [
        "QuestionAndChoices[0].UploadedChoices[0].ChoiceOrderNumber: 9 is not a choice of question 1, which has choices 1 to 4",
        "QuestionAndChoices[2].TextResponse: question 3 is answered with choices",
        "and 1 more",
      ],
    });
  });

  it("leaves one problem, and any other message, whole", () => {
    const one = "AttemptID: 7 is not an attempt of this customer area";
    expect(problemsOf(one)).toEqual({ head: one, items: [] });
    expect(problemsOf("the server does not answer; try again")).toEqual({ head: "the server does not answer; try again", items: [] });
  });
});
