import { describe, expect, it } from "vitest";
import { answerShown, current, nextPressed, phase, queueShown, taskTaken } from "./timing";

describe("timings", () => {
  it("pairs an answer shown with the last press of next, once", () => {
    nextPressed(100);
    taskTaken(130);
    phase("mounted", 140);
    phase("mounted", 150);
    answerShown("1/2", true, 160);
    answerShown("1/2", true, 900);
    // Each step of the open is marked once, the first time it happens.
    expect(current().nextToAnswerMs).toEqual([{ key: "1/2", ms: 60, takeMs: 30, prepared: true, phases: { mounted: 40 } }]);
  });

  it("keeps the first queue's start-up figure only", () => {
    queueShown(812);
    queueShown(9000);
    expect(current().startToQueueMs).toBe(812);
  });
});
