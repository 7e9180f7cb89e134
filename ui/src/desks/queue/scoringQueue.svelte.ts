// The scoring queue as its desk holds it: the open tasks on screen, newest result
// first, with the group counts. `N` takes the first. A task this scorer just saved
// or submitted leaves the list at once, and a read that was already on its way when
// it left (the 10 s poll) cannot bring it back: `N` must take the next task, never
// claim the finished one again.
import { loadQueue, type Queue, type QueueFilter, type QueueTask } from "../../lib/api";
import { queueFilter, type Filters } from "../../lib/taskLists";

type TaskKey = { questionId: string; resultId: number };
const keyOf = (task: TaskKey) => `${task.questionId}/${task.resultId}`;

export class ScoringQueue {
  queue = $state<Queue | null>(null);
  /** Finished tasks, each with the number of the last read started before it finished. */
  private finished = new Map<string, number>();
  private reads = 0;
  /** The last read shown: an older one answering late is not shown over it. */
  private shownRead = 0;
  private readonly load: (filter: QueueFilter) => Promise<Queue>;

  /** `load` reads the open tasks (the app's command; a test gives its own). */
  constructor(load: (filter: QueueFilter) => Promise<Queue> = loadQueue) {
    this.load = load;
  }

  /** Reads the open tasks under `filters`. */
  async refresh(filters: Filters): Promise<Queue> {
    const read = ++this.reads;
    const queue = await this.load(queueFilter(filters, "open"));
    if (read < this.shownRead && this.queue) return this.queue;
    this.shownRead = read;
    // A read started after a task finished has the server's word on it.
    const stale = [...this.finished].filter(([, before]) => read <= before).map(([key]) => key);
    for (const [key, before] of this.finished) if (read > before) this.finished.delete(key);
    this.queue = stale.length ? { ...queue, tasks: queue.tasks.filter((t) => !stale.includes(keyOf(t))) } : queue;
    return this.queue;
  }

  /** The task `N` takes. */
  get next(): QueueTask | undefined {
    return this.queue?.tasks[0];
  }

  /** The task of a row. */
  task(index: number): QueueTask | undefined {
    return this.queue?.tasks[index];
  }

  /** Whether the list is read and has nothing to take. */
  get empty(): boolean {
    return this.queue !== null && this.queue.tasks.length === 0;
  }

  /** A task saved or submitted here: out of the list now, and out of any read already on its way. */
  finish(task: TaskKey) {
    this.finished.set(keyOf(task), this.reads);
    if (this.queue) this.queue = { ...this.queue, tasks: this.queue.tasks.filter((t) => keyOf(t) !== keyOf(task)) };
  }

  /** Another server: nothing read yet. */
  forget() {
    this.queue = null;
    this.finished.clear();
  }
}
