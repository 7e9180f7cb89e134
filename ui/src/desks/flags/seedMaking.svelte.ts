// Making a check script (seed) on the lead's desk: one of the scripts this lead
// submitted lately (the session's history, on this computer or another), not a
// seed already, with the reasons it earns its marks. Its dimension scores become
// the definitive marks; the server refuses a script no longer at 3 or not scored
// in every dimension, and says why.
import { errorMessage, makeSeed } from "../../lib/api";
import type { ScoredTask } from "../../lib/history";
import type { SeedEntry } from "../../lib/bindings/SeedEntry";

export type MakeSeed = (questionId: string, resultId: number, reasons: string) => Promise<void>;

/** The scripts that may become seeds: submitted with a total, newest first, not seeds yet. */
export function seedCandidates(history: ScoredTask[], seeds: SeedEntry[]): ScoredTask[] {
  const made = new Set(seeds.map((seed) => `${seed.questionId}/${seed.resultId}`));
  return history.filter((entry) => entry.outcome === "submitted" && entry.score !== null && !made.has(`${entry.questionId}/${entry.resultId}`));
}

export class SeedMaking {
  /** The form while it is open: which candidate, and the reasons written. */
  form = $state<{ chosen: number; reasons: string } | null>(null);
  busy = $state(false);
  problem = $state<string | null>(null);
  private readonly make: MakeSeed;

  constructor(make: MakeSeed = makeSeed) {
    this.make = make;
  }

  /** Opens the form on the latest candidate; false when there is none. */
  begin(candidates: ScoredTask[]): boolean {
    if (this.busy) return false;
    if (!candidates.length) {
      this.problem = "Score a script in full first (Ctrl+Enter): a check script is one you marked.";
      return false;
    }
    this.form = { chosen: 0, reasons: "" };
    this.problem = null;
    return true;
  }

  cancel() {
    this.form = null;
    this.problem = null;
  }

  /** Makes the chosen script a seed; its reasons must say something (leads read them). */
  async send(candidates: ScoredTask[]): Promise<boolean> {
    const form = this.form;
    const script = form ? candidates[form.chosen] : undefined;
    if (!form || !script || this.busy) return false;
    if (!form.reasons.trim()) {
      this.problem = "Write why the script earns its marks first.";
      return false;
    }
    this.busy = true;
    try {
      await this.make(script.questionId, script.resultId, form.reasons);
      this.form = null;
      this.problem = null;
      return true;
    } catch (error) {
      this.problem = `Not made a check script: ${errorMessage(error)}`;
      return false;
    } finally {
      this.busy = false;
    }
  }
}
