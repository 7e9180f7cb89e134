// The flags desk as it holds its state: the open flags (oldest first) and the
// latest answered, the highlighted open one, and an answer being written. Only an
// account the server lets answer (a lead marker, an administrator) writes one;
// every marker sees the flags and their answers.
import { answerFlag, errorMessage, flagDesk, type FlagDesk, type FlagEntry } from "../../lib/api";

export type Outcome = "released" | "taken-over";

export interface FlagsCommands {
  load: () => Promise<FlagDesk>;
  answer: (id: number, outcome: Outcome, note: string) => Promise<void>;
}

const COMMANDS: FlagsCommands = { load: flagDesk, answer: answerFlag };

export class FlagsDesk {
  desk = $state<FlagDesk | null>(null);
  selected = $state(0);
  /** The answer being written to the highlighted flag. */
  answering = $state<{ outcome: Outcome; note: string } | null>(null);
  busy = $state(false);
  problem = $state<string | null>(null);
  private readonly commands: FlagsCommands;

  constructor(commands: FlagsCommands = COMMANDS) {
    this.commands = commands;
  }

  async load() {
    try {
      this.desk = await this.commands.load();
      this.selected = Math.min(this.selected, Math.max(0, this.open.length - 1));
      this.problem = null;
    } catch (error) {
      this.problem = errorMessage(error);
    }
  }

  get open(): FlagEntry[] {
    return this.desk?.open ?? [];
  }

  get current(): FlagEntry | undefined {
    return this.open[this.selected];
  }

  move(step: number) {
    if (this.answering) return;
    this.selected = Math.max(0, Math.min(this.open.length - 1, this.selected + step));
  }

  /** Starts an answer to the highlighted flag; false when there is none or it may not be answered here. */
  begin(outcome: Outcome): boolean {
    if (!this.current || !this.desk?.mayAnswer || this.busy) return false;
    this.answering = { outcome, note: this.answering?.note ?? "" };
    this.problem = null;
    return true;
  }

  cancel() {
    this.answering = null;
  }

  /**
   * Sends the answer (its note must say something: the marker reads it). Returns
   * the flag answered when it was taken over, for the lead to mark it at once.
   */
  async send(): Promise<FlagEntry | null> {
    const flag = this.current;
    const answering = this.answering;
    if (!flag || !answering || this.busy) return null;
    if (!answering.note.trim()) {
      this.problem = "Write a note first: the marker who flagged reads it.";
      return null;
    }
    this.busy = true;
    try {
      await this.commands.answer(flag.id, answering.outcome, answering.note);
      this.answering = null;
      this.problem = null;
      await this.load();
      return answering.outcome === "taken-over" ? flag : null;
    } catch (error) {
      this.problem = `Not answered: ${errorMessage(error)}`;
      return null;
    } finally {
      this.busy = false;
    }
  }
}
