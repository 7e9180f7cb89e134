import { describe, expect, it } from "vitest";
import { answerShown, current, nextPressed, queueShown, taskTaken } from "./timing";

describe("timings", () => {
  it("pairs an answer shown with the last press of next, once", () => {
    nextPressed(100);
    taskTaken(130);
    answerShown("1/2", true, 160);
    answerShown("1/2", true, 900);
    expect(current().nextToAnswerMs).toEqual([{ key: "1/2", ms: 60, takeMs: 30, prepared: true }]);
  });

  it("keeps the first queue's start-up figure only", () => {
    queueShown(812);
    queueShown(9000);
    expect(current().startToQueueMs).toBe(812);
  });
});
