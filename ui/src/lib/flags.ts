// Flags to the lead marker: the four reasons a marker picks by number in the
// flag dialog (desks/scoring/FlagDialog.svelte), as the server names them
// (docs/odata.md, "Flags and FlagAnswers"), and how the desk says what became of one.
import type { FlagEntry } from "./bindings/FlagEntry";

export interface FlagReason {
  /** The server's name for it. */
  value: string;
  label: string;
}

export const FLAG_REASONS: readonly FlagReason[] = [
  { value: "unreadable", label: "Unreadable" },
  { value: "malpractice", label: "Possible malpractice" },
  { value: "off-rubric", label: "Off the rubric" },
  { value: "second-look", label: "Needs a second look" },
];

/** The reason key `key` picks (1 to 4), if any. */
export function reasonForKey(key: string): FlagReason | null {
  const index = Number.parseInt(key, 10);
  return /^[1-9]$/.test(key) && index <= FLAG_REASONS.length ? FLAG_REASONS[index - 1] : null;
}

/** A reason's label; an unknown one (a newer server's) as the server names it. */
export function reasonLabel(value: string): string {
  return FLAG_REASONS.find((reason) => reason.value === value)?.label ?? value;
}

/** What became of a flag, in the desk's words. */
export function flagState(flag: FlagEntry): string {
  if (!flag.answer) return flag.taskStatus === 1 ? "Open: the task is locked" : `Open: the task is at ${flag.taskStatus ?? "?"} now`;
  const outcome = flag.answer.outcome === "released" ? "Released to the queue" : flag.answer.outcome === "taken-over" ? "Taken over" : flag.answer.outcome;
  return `${outcome} by ${flag.answer.answeredBy}`;
}
