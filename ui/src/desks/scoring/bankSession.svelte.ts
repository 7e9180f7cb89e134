// The comment bank as the scoring screen holds it for one question (the rules are in
// commentBank.ts, the dialog is desks/scoring/CommentBank.svelte): its entries,
// read on opening and again after every change (other scorers change it too), what
// went wrong last, and which comment field the open dialog serves.
import { tick } from "svelte";
import { commentBank, errorMessage } from "../../lib/api";
import { bankTarget, type BankedComment } from "../../lib/commentBank";
import { isTextEntry } from "../../lib/keys";

/** The dialog is open for a dimension's comment (its order) or the overall one (null). */
export interface BankOpening {
  order: number | null;
  /** The field focus goes back to on closing, if the scorer was typing in one. */
  returnTo: string | null;
}

export class BankSession {
  entries = $state<BankedComment[]>([]);
  problem = $state<string | null>(null);
  opening = $state<BankOpening | null>(null);
  private readonly questionId: string;

  constructor(questionId: string) {
    this.questionId = questionId;
  }

  async load() {
    try {
      this.entries = await commentBank(this.questionId);
      this.problem = null;
    } catch (error) {
      this.problem = `The comment bank could not be read: ${errorMessage(error)}`;
    }
  }

  /** Runs a change to the bank, then reads it again. */
  async change(work: () => Promise<unknown>) {
    try {
      await work();
      this.problem = null;
    } catch (error) {
      this.problem = errorMessage(error);
    }
    await this.load();
  }

  /** Ctrl+K: the bank of the focused comment field, or of the selected dimension (`selectedOrder`). */
  open(target: EventTarget | null, selectedOrder: number | undefined) {
    const id = target instanceof HTMLElement ? target.id : "";
    const order = bankTarget(id, selectedOrder);
    if (order === undefined) return;
    this.opening = { order, returnTo: isTextEntry(target) ? id : null };
  }

  /** Closes the dialog: back where the scorer was, in the field at the end of its text, or on the page. */
  async close() {
    const returnTo = this.opening?.returnTo;
    this.opening = null;
    await tick();
    const field = returnTo ? (document.getElementById(returnTo) as HTMLTextAreaElement | null) : null;
    field?.focus();
    field?.setSelectionRange(field.value.length, field.value.length);
  }
}
