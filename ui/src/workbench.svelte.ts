// The scorer's work across the desks, as the shell holds it: the task open in the
// scoring view and how it was opened, what the last one came to, what this scorer
// scored lately (here and, from the server's ScoringEvents, elsewhere), and the
// work kept on this computer. The queue, the moderation list and the history all
// open tasks through it, one at a time. It sits beside App.svelte because it joins
// desks (a task from the queue or the moderation list, finished into the queue).
import { errorMessage, openTask, scoringHistory, type Opening, type ScoringView } from "./lib/api";
import type { ScoredEvent } from "./lib/bindings/ScoredEvent";
import { fromEvents, mergeHistory, recordScored, type ScoredTask } from "./lib/history";
import { keptDrafts, type KeptDraft } from "./lib/scoring";
import type { DurableDraftStore } from "./lib/draftStore";
import { nextPressed, taskTaken } from "./lib/timing";

type TaskKey = { questionId: string; resultId: number };
export type Finished = "saved" | "submitted" | "kept" | "released" | "flagged" | "closed";

/** What the workbench asks of the app (its commands; a test gives its own). */
export interface WorkbenchCommands {
  open: (questionId: string, resultId: number, opening: Opening) => Promise<ScoringView>;
  history: () => Promise<ScoredEvent[]>;
}

const COMMANDS: WorkbenchCommands = { open: openTask, history: scoringHistory };

const OUTCOMES: Record<Finished, string> = {
  saved: "Saved for moderation. Ctrl+Z reopens it.",
  submitted: "Submitted: the result is updated. Ctrl+Z reopens it to correct it.",
  kept: "Submitted, and kept for a second marking: another marker marks this script blind before the result is updated.",
  released: "Released to the queue.",
  flagged: "Flagged to the lead marker: the task is locked until they answer.",
  closed: "Closed without changes.",
};

export class Workbench {
  /** The task in the scoring view, if any. */
  scoring = $state<ScoringView | null>(null);
  /** Whether it was opened without being claimed (a review): Esc closes it. */
  reviewing = $state(false);
  /** A task is being opened: no second one meanwhile. */
  taking = $state(false);
  lastOutcome = $state<string | null>(null);
  history = $state<ScoredTask[]>([]);
  kept = $state<KeptDraft[]>([]);

  private historyAsked = false;
  private readonly drafts: Pick<DurableDraftStore, "length" | "key" | "getItem" | "setItem" | "removeItem">;
  private readonly onerror: (message: string) => void;
  private readonly commands: WorkbenchCommands;

  constructor(drafts: Workbench["drafts"], onerror: (message: string) => void, commands: WorkbenchCommands = COMMANDS) {
    this.drafts = drafts;
    this.onerror = onerror;
    this.commands = commands;
  }

  /**
   * Opens a task into the scoring view: taken to score ("claim", Status 1), for
   * review ("review", unclaimed), resumed from a kept draft ("resume") or reopened
   * to correct it ("correct"). A task this opening did not claim is shown as a review.
   */
  async open(task: TaskKey | undefined, opening: Opening) {
    if (!task || this.taking) return;
    if (opening === "claim") nextPressed();
    this.taking = true;
    try {
      const view = await this.commands.open(task.questionId, task.resultId, opening);
      if (opening === "claim") taskTaken();
      this.reviewing = opening === "review" || view.status !== 1;
      this.scoring = view;
      this.lastOutcome = null;
    } catch (error) {
      this.onerror(errorMessage(error));
    } finally {
      this.taking = false;
    }
  }

  /**
   * The scoring view is done: says how, and a task saved or submitted joins the
   * history (`score` is its overall score; `group` says what applying it to its
   * answer group came to). Returns the task, for the queue to drop it.
   */
  finish(outcome: Finished, score?: number, group?: string): ScoringView | null {
    this.lastOutcome = group ? `${OUTCOMES[outcome]} ${group}` : OUTCOMES[outcome];
    const finished = this.scoring;
    this.scoring = null;
    this.reviewing = false;
    if (!finished || (outcome !== "saved" && outcome !== "submitted" && outcome !== "kept")) return null;
    if (score !== undefined) {
      // Kept for a second marking, it was submitted all the same (ScoringEvents says 3).
      const entry = { questionId: finished.questionId, resultId: finished.resultId, question: finished.question, participant: finished.participant, score, outcome: outcome === "kept" ? ("submitted" as const) : outcome, at: Date.now() };
      this.history = recordScored(this.history, entry);
    }
    return finished;
  }

  /** Asks the server what this scorer scored elsewhere, once per server. */
  async loadHistory() {
    if (this.historyAsked) return;
    this.historyAsked = true;
    try {
      this.history = mergeHistory(this.history, fromEvents(await this.commands.history()));
    } catch {
      // A server without ScoringEvents (another implementation): this computer's list only.
    }
  }

  /** The work kept on this computer, read again. */
  readKept() {
    this.kept = keptDrafts(this.drafts);
  }

  /** The next task `U` resumes (the latest kept), `Ctrl+Z` reopens (the latest scored). */
  get latestKept(): KeptDraft | undefined {
    return this.kept[0];
  }

  get latestScored(): ScoredTask | undefined {
    return this.history[0];
  }

  /** Another server: its own history, asked for again. */
  forgetServer() {
    this.history = [];
    this.historyAsked = false;
  }
}
