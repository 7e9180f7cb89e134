// The scoring queue's state without a window (issue 33): what it asks the app for,
// what `N` takes, and that a task finished here never comes back from a read that
// was on its way when it finished (the 10 s poll racing a submit).
import { describe, expect, it } from "vitest";
import { ScoringQueue } from "./scoringQueue.svelte";
import type { Queue, QueueFilter, QueueTask } from "../../lib/api";
import { NO_FILTERS } from "../../lib/taskLists";

const task = (resultId: number): QueueTask => ({ questionId: "11", resultId, assessmentId: "1", question: "Essay", participant: `P${resultId}`, groupName: "A", finishedAt: null, score: null, comments: null, savedBy: null });
const queueOf = (...ids: number[]): Queue => ({ tasks: ids.map(task), matching: null, groups: [], aside: null, checkedAt: "2026-11-27T09:00:00Z" });

/** Reads that answer when the test says, in any order. */
function server() {
  const asked: QueueFilter[] = [];
  const pending: ((queue: Queue) => void)[] = [];
  const load = (filter: QueueFilter) => {
    asked.push(filter);
    return new Promise<Queue>((resolve) => pending.push(resolve));
  };
  return { asked, pending, load };
}

describe("ScoringQueue", () => {
  it("asks for the open tasks under the filters set, an unset one as none", async () => {
    const { asked, pending, load } = server();
    const queue = new ScoringQueue(load);
    const read = queue.refresh({ ...NO_FILTERS, group: "Year 10" });
    pending[0](queueOf(5, 4));
    await read;
    expect(asked).toEqual([{ kind: "open", group: "Year 10", assessmentId: null, questionId: null }]);
    expect(queue.next?.resultId).toBe(5);
    expect(queue.task(1)?.resultId).toBe(4);
    expect(queue.empty).toBe(false);
  });

  it("takes a finished task out at once, and out of a read already on its way", async () => {
    const { pending, load } = server();
    const queue = new ScoringQueue(load);
    const first = queue.refresh(NO_FILTERS);
    pending[0](queueOf(5, 4, 3));
    await first;
    // The poll leaves, then the scorer submits task 5 before it answers.
    const poll = queue.refresh(NO_FILTERS);
    queue.finish({ questionId: "11", resultId: 5 });
    expect(queue.next?.resultId).toBe(4);
    pending[1](queueOf(5, 4, 3));
    await poll;
    expect(queue.queue?.tasks.map((t) => t.resultId)).toEqual([4, 3]);
    // A read sent after the submit has the server's word, whatever it is.
    const after = queue.refresh(NO_FILTERS);
    pending[2](queueOf(5, 4));
    await after;
    expect(queue.queue?.tasks.map((t) => t.resultId)).toEqual([5, 4]);
  });

  it("never shows an older read over a newer one that answered first", async () => {
    const { pending, load } = server();
    const queue = new ScoringQueue(load);
    const older = queue.refresh(NO_FILTERS);
    const newer = queue.refresh({ ...NO_FILTERS, group: "B" });
    pending[1](queueOf(9));
    await newer;
    pending[0](queueOf(1, 2, 3));
    await older;
    expect(queue.queue?.tasks.map((t) => t.resultId)).toEqual([9]);
  });

  it("forgets everything for another server", async () => {
    const { pending, load } = server();
    const queue = new ScoringQueue(load);
    const read = queue.refresh(NO_FILTERS);
    pending[0](queueOf());
    await read;
    expect(queue.empty).toBe(true);
    queue.forget();
    expect(queue.queue).toBeNull();
    expect(queue.empty).toBe(false);
  });
});
