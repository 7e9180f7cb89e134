// The moderation list as its desk holds it: the saved scores awaiting review
// (Status 2), newest result first, and the highlighted row, which `Enter` opens
// without claiming it. The highlight stays on the rows shown.
import { loadQueue, type Queue, type QueueFilter, type QueueTask } from "../../lib/api";
import { queueFilter, SHOWN_TASKS, type Filters } from "../../lib/taskLists";

export class ModerationList {
  saved = $state<Queue | null>(null);
  /** The highlighted row. */
  selected = $state(0);
  private readonly load: (filter: QueueFilter) => Promise<Queue>;

  /** `load` reads the saved tasks (the app's command; a test gives its own). */
  constructor(load: (filter: QueueFilter) => Promise<Queue> = loadQueue) {
    this.load = load;
  }

  /** Reads the saved tasks under `filters`; the highlight stays on a row that is there. */
  async refresh(filters: Filters) {
    this.saved = await this.load(queueFilter(filters, "saved"));
    this.selected = Math.min(this.selected, Math.max(0, this.shown - 1));
  }

  /** How many rows are on screen. */
  get shown(): number {
    return Math.min(this.saved?.tasks.length ?? 0, SHOWN_TASKS);
  }

  /** Moves the highlight by `step` rows (J K, the arrows), within the rows shown. */
  move(step: number) {
    this.selected = Math.max(0, Math.min(this.shown - 1, this.selected + step));
  }

  /** The task of a row (the highlighted one by default). */
  task(index: number = this.selected): QueueTask | undefined {
    return this.saved?.tasks[index];
  }

  /** Back to the first row (the desk is shown again). */
  reset() {
    this.selected = 0;
  }

  forget() {
    this.saved = null;
    this.selected = 0;
  }
}
