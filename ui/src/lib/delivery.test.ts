import { describe, expect, it } from "vitest";
import { attemptState, attemptsOutcome, auditState, bandText, describeExtraTime, describeSnapshotDate, extraSecondsOf, extraTimeApplies, resultScore, resultStatus, snapshotName } from "./delivery";

describe("the delivery desk's words", () => {
  it("names a new snapshot after its assessment and the day", () => {
    expect(snapshotName("Biology", new Date("2026-11-24T10:00:00Z"))).toBe("Biology – 2026-11-24");
  });
  it("shows the server's times to the minute, in UTC", () => {
    expect(describeSnapshotDate("2026-11-24T09:30:12.345")).toBe("2026-11-24 09:30 UTC");
    expect(describeSnapshotDate("garbled")).toBe("garbled");
  });
  it("says what a run of create attempts did", () => {
    expect(attemptsOutcome({ created: 1, already: 0, refused: [], unreachable: [] })).toBe("1 attempt created.");
    expect(attemptsOutcome({ created: 0, already: 12, refused: [{}], unreachable: [{}, {}] })).toBe(
      "0 attempts created, 12 already had one, 1 refused, 2 not sent: the server did not answer (run it again to retry them).",
    );
  });
  it("says where each participant stands", () => {
    expect(attemptState({ attemptId: null, resultId: null })).toBe("no attempt yet");
    expect(attemptState({ attemptId: "4", resultId: null })).toBe("awaiting answers");
    expect(attemptState({ attemptId: "4", resultId: "90" })).toBe("result 90");
  });
  it("shows a result's score out of its maximum", () => {
    expect(resultScore({ totalScore: 7, maxScore: 15 })).toBe("7 / 15");
    expect(resultScore({ totalScore: null, maxScore: 15 })).toBe("–");
  });
  it("says where a purge stands", () => {
    expect(auditState({ inQueue: true, successful: null, affected: 100 }, 240)).toBe("in progress: 100 of 240 results removed");
    expect(auditState({ inQueue: true, successful: null, affected: 0 })).toBe("in progress: 0 results so far");
    expect(auditState({ inQueue: false, successful: true, affected: 1 })).toBe("done: 1 result");
    expect(auditState({ inQueue: false, successful: false, affected: 3 })).toBe("failed after 3 results");
  });
  it("names a result's status", () => {
    expect(resultStatus(1)).toBe("in progress");
    expect(resultStatus(6)).toBe("paused");
    expect(resultStatus(7)).toBe("terminated");
    expect(resultStatus(0)).toBe("finished (0)");
  });
});

describe("extra time", () => {
  it("is offered only while the result is running (in progress or paused)", () => {
    expect(extraTimeApplies(1)).toBe(true);
    expect(extraTimeApplies(6)).toBe(true);
    for (const finished of [0, 2, 3, 4, 5, 7, null]) expect(extraTimeApplies(finished)).toBe(false);
  });

  it("is typed in whole minutes and sent in seconds", () => {
    expect(extraSecondsOf("5")).toEqual({ seconds: 300 });
    expect(extraSecondsOf(" 0 ")).toEqual({ seconds: 0 });
    for (const wrong of ["", "-5", "1.5", "5m", "99999999999"]) expect(extraSecondsOf(wrong)).toHaveProperty("error");
  });

  it("reads in minutes, or seconds when not whole minutes", () => {
    expect(describeExtraTime(300)).toBe("5 min");
    expect(describeExtraTime(90)).toBe("90 s");
    expect(describeExtraTime(0)).toBe("");
    expect(describeExtraTime(null)).toBe("");
  });
});

describe("bandText", () => {
  it("marks the band provisional while answers wait for a scorer", () => {
    expect(bandText("Pass", 2)).toBe("Pass (provisional)");
    expect(bandText("Pass", 0)).toBe("Pass");
    expect(bandText(null, 3)).toBe("");
  });
});
