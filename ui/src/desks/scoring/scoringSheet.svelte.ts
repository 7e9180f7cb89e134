// One task's scoring as the scoring view holds it: the draft, the dimension the
// keys score, what the last action said, and the save, release and conflict rules.
// The draft is kept on this computer after every change (lib/draftStore.ts) and
// forgotten only once the server has it; a save the server was not there for is
// done again, with the latest draft, when it answers; a save another client beat
// becomes a conflict to resolve field by field, never an overwrite.
import { applyAnswerGroup, errorMessage, isUnreachable, releaseTask, submitScores, type Draft, type GroupApplied, type ScoringView, type SubmitOutcome } from "../../lib/api";
import { complete, defaultKeep, draftFrom, forgetDraft, hasTypedWork, keepDraft, merge, parseScore, recoverDraft, scoreFromKey, total, withDimension, type DraftStore } from "../../lib/scoring";

/** What the sheet asks of the app (its commands; a test gives its own). */
export interface ScoringCommands {
  submit: (draft: Draft, status: 2 | 3) => Promise<SubmitOutcome>;
  release: (questionId: string, resultId: number) => Promise<unknown>;
  applyGroup: (questionId: string, resultId: number) => Promise<GroupApplied>;
}

/** Where the drafts are kept: the app's store, with the last write's failure. */
export interface KeptDrafts extends DraftStore {
  problem: string | null;
  flushed(): Promise<unknown>;
}

/** `kept`: submitted, and kept by the server for a second marking (the task stays Saved). */
export type Done = "saved" | "submitted" | "kept" | "released";

export interface SheetOptions {
  drafts: KeptDrafts;
  /**
   * The task is done with: `score` is the overall score saved or submitted,
   * `group` what applying it to its answer group came to, when asked.
   */
  ondone: (outcome: Done, score?: number, group?: string) => void;
  /** A save found the server unreachable. */
  onunreachable?: () => void;
  commands?: ScoringCommands;
  /** Only warming WebKit up: no draft is read or kept. */
  rehearsal?: boolean;
}

const COMMANDS: ScoringCommands = { submit: submitScores, release: releaseTask, applyGroup: applyAnswerGroup };

/** What applying a marking to its answer group came to, in a sentence. */
export function groupSaid(applied: GroupApplied): string {
  const answers = (n: number) => (n === 1 ? "1 answer" : `${n} answers`);
  const said = applied.members === 0 ? "No answer alike was left open to apply it to." : `Applied to ${answers(applied.members)} alike.`;
  return applied.remaining > 0 ? `${said} ${answers(applied.remaining)} more are left: reopen it (Ctrl+Z) and apply again (A).` : said;
}

export class ScoringSheet {
  draft = $state<Draft | null>(null);
  /** The dimension the digit keys score. */
  selected = $state(0);
  busy = $state(false);
  message = $state<string | null>(null);
  fieldErrors = $state<Record<number, string | null>>({});
  conflict = $state<{ mine: Draft; stored: Draft; keep: Set<string>; status: 2 | 3 } | null>(null);
  /** A save the server was not there for, done again when it answers. */
  pending = $state<2 | 3 | null>(null);
  /** Releasing was asked for while the scorer has typed work: the dialog asks first. */
  confirmingRelease = $state(false);

  readonly view: ScoringView;
  /** The draft as the task was opened, to tell typed work from none. */
  readonly initial: Draft | null;
  private readonly options: SheetOptions;
  private readonly commands: ScoringCommands;

  constructor(view: ScoringView, options: SheetOptions) {
    this.view = view;
    this.options = options;
    this.commands = options.commands ?? COMMANDS;
    this.initial = draftFrom(view);
    this.draft = this.initial && !options.rehearsal ? recoverDraft(options.drafts, this.initial) : this.initial;
  }

  get dimensions() {
    return this.view.rubric?.dimensions ?? [];
  }

  get sum(): number {
    return this.draft ? total(this.draft.dimensions) : 0;
  }

  /** Every change is kept on this computer before anything else. */
  change(next: Draft) {
    this.draft = next;
    if (this.options.rehearsal) return;
    const { drafts } = this.options;
    keepDraft(drafts, next, { question: this.view.question, participant: this.view.participant });
    drafts.flushed().then(() => {
      if (drafts.problem) this.message = `Your latest change is not kept on this computer yet: ${drafts.problem}`;
    });
  }

  /** A score typed into a dimension's field: kept when valid, its error shown by the field when not. */
  setScore(index: number, text: string) {
    const dimension = this.dimensions[index];
    if (!this.draft || !dimension) return;
    const parsed = parseScore(text, dimension.maxScore);
    this.fieldErrors = { ...this.fieldErrors, [dimension.order]: parsed.error };
    if (!parsed.error) this.change(withDimension(this.draft, dimension.order, { score: parsed.score }));
  }

  /** A digit scores the selected dimension and moves on to the next; one too high says so. */
  scoreKey(key: string): boolean {
    const dimension = this.dimensions[this.selected];
    if (!this.draft || !dimension) return false;
    const score = scoreFromKey(key, dimension.maxScore);
    if (score !== null) {
      this.change(withDimension(this.draft, dimension.order, { score }));
      this.fieldErrors = { ...this.fieldErrors, [dimension.order]: null };
      // A valid score answers any earlier complaint about a key.
      this.message = null;
      if (this.selected < this.dimensions.length - 1) this.selected += 1;
      return true;
    }
    if (!/^[0-9]$/.test(key)) return false;
    this.message = `${dimension.name ?? "This dimension"} gives at most ${dimension.maxScore}.`;
    return true;
  }

  /** J K or the arrows: the dimension below or above. */
  move(by: number) {
    this.selected = Math.max(0, Math.min(this.dimensions.length - 1, this.selected + by));
  }

  /**
   * Saves for moderation (2) or submits (3); a submit needs every dimension scored.
   * With `group`, a submit then applies the marking to the answers alike
   * (AnswerGroupMarkings): the script is submitted whatever that comes to.
   */
  async save(status: 2 | 3, version: Draft | null = this.draft, group = false) {
    if (!version || this.busy) return;
    if (status === 3 && !complete(version.dimensions)) {
      this.message = "Score every dimension before submitting (or save for moderation with Ctrl+S).";
      return;
    }
    this.busy = true;
    this.message = status === 3 ? "Submitting…" : "Saving…";
    try {
      const outcome = await this.commands.submit({ ...version, score: total(version.dimensions) }, status);
      if (outcome.outcome === "conflict") {
        this.conflict = { mine: version, stored: outcome.stored, keep: defaultKeep(version, outcome.stored), status };
        this.message = null;
        return;
      }
      forgetDraft(this.options.drafts, version.questionId, version.resultId);
      const done = outcome.outcome === "keptForSecondMarking" ? "kept" : status === 3 ? "submitted" : "saved";
      if (group && status === 3) this.options.ondone(done, total(version.dimensions), await this.applyGroup());
      else this.options.ondone(done, total(version.dimensions));
    } catch (error) {
      if (isUnreachable(error)) {
        this.pending = status;
        this.message = "Not saved yet: the server does not answer. It is saved as soon as the server answers again; your scores are kept on this computer.";
        this.options.onunreachable?.();
      } else {
        this.message = `Not saved: ${errorMessage(error)} Your scores are kept on this computer; try again.`;
      }
    } finally {
      this.busy = false;
    }
  }

  /** Applies the submitted marking to the answers alike; what it came to, never a throw. */
  private async applyGroup(): Promise<string> {
    try {
      return groupSaid(await this.commands.applyGroup(this.view.questionId, this.view.resultId));
    } catch (error) {
      return `Not applied to the answers alike: ${errorMessage(error)}`;
    }
  }

  /** The server answers again: a save it missed is done now, with the latest draft. */
  retry() {
    if (this.pending === null || this.busy) return;
    const status = this.pending;
    this.pending = null;
    this.save(status);
  }

  /**
   * Release (or, in review, send back to the queue). With typed work it asks first,
   * and the work stays in the drafts kept on this computer (U resumes it).
   */
  async release(confirmed = false) {
    if (this.busy) return;
    const typedWork = hasTypedWork(this.draft, this.initial);
    if (typedWork && !confirmed) return void (this.confirmingRelease = true);
    this.confirmingRelease = false;
    this.busy = true;
    try {
      await this.commands.release(this.view.questionId, this.view.resultId);
      if (!typedWork) forgetDraft(this.options.drafts, this.view.questionId, this.view.resultId);
      this.options.ondone("released");
    } catch (error) {
      this.message = `Not released: ${errorMessage(error)}`;
    } finally {
      this.busy = false;
    }
  }

  /** The conflict resolved field by field: the merge is kept, then saved as it was asked. */
  async resolve(keep: Set<string>) {
    const conflict = this.conflict;
    if (!conflict) return;
    const merged = merge(conflict.mine, conflict.stored, keep);
    this.change(merged);
    this.conflict = null;
    await this.save(conflict.status, merged);
  }
}
