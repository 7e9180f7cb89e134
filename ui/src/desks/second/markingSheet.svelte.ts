// One second marking (or resolution) as its screen holds it: the marker's scores
// and comments, the dimension the digit keys score, and what the last action said.
// The server is where the work is kept: every change is sent there (one change set
// of the scores, comments and marking, a moment after the last key) so that a
// marking left open, or a computer that stops, loses nothing; submitting sends the
// latest version and submits it in the same change set. A marking is written by
// its marker alone, so there is no other scorer's save to merge with.
import { errorMessage, giveBackMarking, saveMarking, type MarkingDraft, type MarkingOutcome, type MarkingScoreDraft, type MarkingView } from "../../lib/api";
import { complete, parseScore, scoreFromKey, total } from "../../lib/scoring";

/** What the sheet asks of the app (its commands; a test gives its own). */
export interface MarkingCommands {
  save: (draft: MarkingDraft, submit: boolean) => Promise<MarkingOutcome>;
  giveBack: (markingId: number) => Promise<void>;
}

const COMMANDS: MarkingCommands = { save: saveMarking, giveBack: giveBackMarking };

/** How the marking ended: submitted (with what it came to), given back, or left to go on later. */
export type MarkingEnd = { kind: "submitted"; outcome: MarkingOutcome } | { kind: "given-back" } | { kind: "closed" };

/** The pause after the last change before it is sent to the server. */
export const KEEP_AFTER_MS = 600;

export class MarkingSheet {
  dimensions = $state<MarkingScoreDraft[]>([]);
  comments = $state<string | null>(null);
  selected = $state(0);
  busy = $state(false);
  message = $state<string | null>(null);
  fieldErrors = $state<Record<number, string | null>>({});
  /** Giving back was asked for with scores given: the marker confirms first. */
  confirmingGiveBack = $state(false);
  /** Whether every change so far is on the server. */
  kept = $state(true);
  /** A close found the latest change not kept: the next close leaves without it. */
  private closingUnkept = false;

  readonly view: MarkingView;
  private modified: unknown;
  private readonly commands: MarkingCommands;
  private readonly ondone: (end: MarkingEnd) => void;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The keeps in flight, one after another (each sends the revision the last one made). */
  private keeping: Promise<void> = Promise.resolve();

  constructor(view: MarkingView, ondone: (end: MarkingEnd) => void, commands: MarkingCommands = COMMANDS) {
    this.view = view;
    this.ondone = ondone;
    this.commands = commands;
    this.modified = view.modified;
    this.comments = view.comments;
    this.dimensions = view.dimensions.map((d) => ({ order: d.order, score: d.score, comment: d.comment }));
    const first = view.dimensions.findIndex((d) => d.score === null);
    this.selected = first === -1 ? 0 : first;
  }

  get sum(): number {
    return total(this.dimensions);
  }

  get draft(): MarkingDraft {
    return { markingId: this.view.markingId, modified: this.modified as MarkingDraft["modified"], comments: this.comments, dimensions: this.dimensions };
  }

  /** A change: kept on the server once the keys pause. */
  private changed() {
    this.kept = false;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.keep(), KEEP_AFTER_MS);
  }

  setDimension(order: number, change: Partial<MarkingScoreDraft>) {
    this.dimensions = this.dimensions.map((d) => (d.order === order ? { ...d, ...change } : d));
    this.changed();
  }

  setComments(text: string) {
    this.comments = text || null;
    this.changed();
  }

  /** A score typed into a dimension's field: kept when valid, its error shown when not. */
  setScore(index: number, text: string) {
    const dimension = this.view.dimensions[index];
    if (!dimension) return;
    const parsed = parseScore(text, dimension.maxScore);
    this.fieldErrors = { ...this.fieldErrors, [dimension.order]: parsed.error };
    if (!parsed.error) this.setDimension(dimension.order, { score: parsed.score });
  }

  /** A digit scores the selected dimension and moves on; one too high says so. */
  scoreKey(key: string): boolean {
    const dimension = this.view.dimensions[this.selected];
    if (!dimension || this.busy) return false;
    const score = scoreFromKey(key, dimension.maxScore);
    if (score !== null) {
      this.setDimension(dimension.order, { score });
      this.fieldErrors = { ...this.fieldErrors, [dimension.order]: null };
      this.message = null;
      if (this.selected < this.view.dimensions.length - 1) this.selected += 1;
      return true;
    }
    if (!/^[0-9]$/.test(key)) return false;
    this.message = `${dimension.name ?? "This dimension"} gives at most ${dimension.maxScore}.`;
    return true;
  }

  move(by: number) {
    this.selected = Math.max(0, Math.min(this.view.dimensions.length - 1, this.selected + by));
  }

  /** Sends the latest version to the server now, after any keep already on its way. */
  keep(): Promise<void> {
    clearTimeout(this.timer);
    this.keeping = this.keeping.then(async () => {
      if (this.kept) return;
      const sent = this.draft;
      try {
        const outcome = await this.commands.save(sent, false);
        if (outcome.outcome === "kept") this.modified = outcome.modified;
        // Kept unless something changed while it was on its way (then that is sent next).
        this.kept = sent.dimensions === this.dimensions && sent.comments === this.comments;
        if (!this.kept) this.changed();
      } catch (error) {
        this.message = `Not kept on the server yet: ${errorMessage(error)} It is sent again with your next change.`;
      }
    });
    return this.keeping;
  }

  /** Submits: every dimension must be scored; the latest version goes with it. */
  async submit() {
    if (this.busy) return;
    const unscored = this.view.dimensions.find((d, i) => this.dimensions[i]?.score === null);
    if (!complete(this.dimensions)) {
      this.selected = this.view.dimensions.indexOf(unscored!);
      this.message = `Score ${unscored?.name ?? "every dimension"} before submitting.`;
      return;
    }
    this.busy = true;
    this.message = "Submitting…";
    try {
      await this.keep();
      const outcome = await this.commands.save(this.draft, true);
      this.kept = true;
      this.ondone({ kind: "submitted", outcome });
    } catch (error) {
      this.message = `Not submitted: ${errorMessage(error)}`;
    } finally {
      this.busy = false;
    }
  }

  /**
   * Leaves the marking for later: what is typed is sent first, and the round stays
   * this marker's. When the server did not take it, a second close leaves anyway.
   */
  async close() {
    if (this.busy) return;
    if (this.closingUnkept) return void this.ondone({ kind: "closed" });
    this.busy = true;
    await this.keep();
    this.busy = false;
    if (this.kept) return void this.ondone({ kind: "closed" });
    this.closingUnkept = true;
    this.message = `${this.message ?? "Not kept on the server."} Esc again closes without the changes since the last keep.`;
  }

  /** Gives the round back unmarked; with scores given it asks first. */
  async giveBack(confirmed = false) {
    if (this.busy) return;
    const scored = this.dimensions.some((d) => d.score !== null || d.comment) || !!this.comments;
    if (scored && !confirmed) return void (this.confirmingGiveBack = true);
    this.confirmingGiveBack = false;
    clearTimeout(this.timer);
    this.busy = true;
    try {
      await this.keeping;
      await this.commands.giveBack(this.view.markingId);
      this.ondone({ kind: "given-back" });
    } catch (error) {
      this.message = `Not given back: ${errorMessage(error)}`;
    } finally {
      this.busy = false;
    }
  }

  /** The screen goes away: nothing more is sent on a timer. */
  dispose() {
    clearTimeout(this.timer);
  }
}
