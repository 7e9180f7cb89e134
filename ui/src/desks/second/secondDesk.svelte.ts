// The second-marking desk as it holds its state: one list of what this account can
// do, in the order it is likely to: the markings it took and left (go on with
// them), the rounds waiting (take one), and, for a lead marker, the rounds others
// took and left (free them). The server decides what each account sees.
import { errorMessage, giveBackMarking, secondMarkingDesk, type SecondMarkingDesk, type TakenMarking, type WaitingRound } from "../../lib/api";

export type DeskRow = { kind: "mine"; marking: TakenMarking } | { kind: "waiting"; round: WaitingRound } | { kind: "others"; marking: TakenMarking };

export interface DeskCommands {
  load: () => Promise<SecondMarkingDesk>;
  free: (markingId: number) => Promise<void>;
}

const COMMANDS: DeskCommands = { load: secondMarkingDesk, free: giveBackMarking };

/** The rows of the desk, in the order the list shows them. */
export function rowsOf(desk: SecondMarkingDesk | null): DeskRow[] {
  if (!desk) return [];
  return [
    ...desk.taken.filter((m) => m.mine).map((marking) => ({ kind: "mine" as const, marking })),
    ...desk.waiting.map((round) => ({ kind: "waiting" as const, round })),
    ...desk.taken.filter((m) => !m.mine).map((marking) => ({ kind: "others" as const, marking })),
  ];
}

/** A row's task, for its data attributes and its words. */
export function taskOf(row: DeskRow): { questionId: string; resultId: number; round: number; question: string | null } {
  const item = row.kind === "waiting" ? row.round : row.marking;
  return { questionId: item.questionId, resultId: item.resultId, round: item.round, question: item.question ?? null };
}

export class SecondDesk {
  desk = $state<SecondMarkingDesk | null>(null);
  selected = $state(0);
  problem = $state<string | null>(null);
  /** A lead asked to free another's round: the next Ctrl+Backspace frees it. */
  confirmingFree = $state(false);
  busy = $state(false);
  private readonly commands: DeskCommands;

  constructor(commands: DeskCommands = COMMANDS) {
    this.commands = commands;
  }

  get rows(): DeskRow[] {
    return rowsOf(this.desk);
  }

  get current(): DeskRow | undefined {
    return this.rows[this.selected];
  }

  async load() {
    try {
      this.desk = await this.commands.load();
      this.selected = Math.min(this.selected, Math.max(0, this.rows.length - 1));
      this.problem = null;
    } catch (error) {
      this.problem = errorMessage(error);
    }
  }

  move(step: number) {
    this.confirmingFree = false;
    this.selected = Math.max(0, Math.min(this.rows.length - 1, this.selected + step));
  }

  /** Frees the highlighted round another marker took (asked twice). False when it is not such a row. */
  async free(): Promise<boolean> {
    const row = this.current;
    if (row?.kind !== "others" || this.busy) return false;
    if (!this.confirmingFree) return (this.confirmingFree = true);
    this.confirmingFree = false;
    this.busy = true;
    try {
      await this.commands.free(row.marking.id);
      await this.load();
    } catch (error) {
      this.problem = `Not freed: ${errorMessage(error)}`;
    } finally {
      this.busy = false;
    }
    return true;
  }
}
