// The moderation list's state without a window (issue 33): it reads the saved
// tasks, the highlight moves only over the rows shown, and stays on a row that is
// there after a read.
import { describe, expect, it } from "vitest";
import { ModerationList } from "./moderationList.svelte";
import type { Queue, QueueFilter, QueueTask } from "../../lib/api";
import { NO_FILTERS, SHOWN_TASKS } from "../../lib/taskLists";

const task = (resultId: number): QueueTask => ({ questionId: "11", resultId, assessmentId: "1", question: "Essay", participant: `P${resultId}`, groupName: "A", finishedAt: null, score: 3, comments: null, savedBy: "ben" });
const savedOf = (count: number): Queue => ({ tasks: Array.from({ length: count }, (_, i) => task(100 - i)), matching: null, groups: [], aside: null, checkedAt: "2026-11-27T09:00:00Z" });

describe("ModerationList", () => {
  it("reads the saved tasks under the filters", async () => {
    const asked: QueueFilter[] = [];
    const list = new ModerationList(async (filter) => (asked.push(filter), savedOf(3)));
    await list.refresh({ ...NO_FILTERS, questionId: "11" });
    expect(asked).toEqual([{ kind: "saved", group: null, assessmentId: null, questionId: "11" }]);
    expect(list.task()?.resultId).toBe(100);
  });

  it("moves the highlight within the rows shown, never past them", async () => {
    const list = new ModerationList(async () => savedOf(30));
    await list.refresh(NO_FILTERS);
    list.move(-1);
    expect(list.selected).toBe(0);
    for (let i = 0; i < 40; i++) list.move(1);
    expect(list.selected).toBe(SHOWN_TASKS - 1);
    expect(list.task()?.resultId).toBe(100 - (SHOWN_TASKS - 1));
  });

  it("keeps the highlight on a row that is still there after a read", async () => {
    let count = 8;
    const list = new ModerationList(async () => savedOf(count));
    await list.refresh(NO_FILTERS);
    list.move(6);
    expect(list.selected).toBe(6);
    count = 2;
    await list.refresh(NO_FILTERS);
    expect(list.selected).toBe(1);
    count = 0;
    await list.refresh(NO_FILTERS);
    expect(list.selected).toBe(0);
    expect(list.task()).toBeUndefined();
  });
});
