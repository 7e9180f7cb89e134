// Markers paused by their check scripts, beside the flags: the open pauses (a
// scorer's own, with the message he is shown) and, for a lead marker, the latest
// seed markings with their deviation from the definitive marks. A lead highlights
// a pause and releases it with a note the marker reads.
import { errorMessage, releasePause, seedsDesk, type SeedsDesk } from "../../lib/api";
import type { PauseEntry } from "../../lib/bindings/PauseEntry";

export interface SeedsCommands {
  load: () => Promise<SeedsDesk>;
  release: (id: number, note: string) => Promise<void>;
}

const COMMANDS: SeedsCommands = { load: seedsDesk, release: releasePause };

export class SeedsState {
  desk = $state<SeedsDesk | null>(null);
  selected = $state(0);
  /** The note of the release being written to the highlighted pause. */
  releasing = $state<{ note: string } | null>(null);
  busy = $state(false);
  problem = $state<string | null>(null);
  private readonly commands: SeedsCommands;

  constructor(commands: SeedsCommands = COMMANDS) {
    this.commands = commands;
  }

  async load() {
    try {
      this.desk = await this.commands.load();
      this.selected = Math.min(this.selected, Math.max(0, this.pauses.length - 1));
      this.problem = null;
    } catch (error) {
      this.problem = errorMessage(error);
    }
  }

  get pauses(): PauseEntry[] {
    return this.desk?.pauses ?? [];
  }

  get current(): PauseEntry | undefined {
    return this.pauses[this.selected];
  }

  move(step: number) {
    if (this.releasing) return;
    this.selected = Math.max(0, Math.min(this.pauses.length - 1, this.selected + step));
  }

  /** Starts a release of the highlighted pause; false when there is none or this account may not. */
  begin(): boolean {
    if (!this.current || !this.desk?.mayRelease || this.busy) return false;
    this.releasing = { note: this.releasing?.note ?? "" };
    this.problem = null;
    return true;
  }

  cancel() {
    this.releasing = null;
  }

  /** Sends the release; its note must say something (the marker reads it). */
  async send(): Promise<boolean> {
    const pause = this.current;
    const releasing = this.releasing;
    if (!pause || !releasing || this.busy) return false;
    if (!releasing.note.trim()) {
      this.problem = "Write a note first: the marker reads what you agreed.";
      return false;
    }
    this.busy = true;
    try {
      await this.commands.release(pause.id, releasing.note);
      this.releasing = null;
      await this.load();
      return true;
    } catch (error) {
      this.problem = `Not released: ${errorMessage(error)}`;
      return false;
    } finally {
      this.busy = false;
    }
  }
}

/** A deviation as the desk says it: signed, "exact" at 0. */
export function deviationLabel(deviation: number | null | undefined): string {
  if (deviation === null || deviation === undefined) return "not marked yet";
  if (deviation === 0) return "exact";
  return deviation > 0 ? `+${deviation}` : `${deviation}`;
}
