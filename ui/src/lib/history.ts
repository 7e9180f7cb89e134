// What this scorer saved or submitted since the app started: the list the queue
// shows under "Scored this session", newest first, each reopened to be corrected
// (the task is claimed again and its stored scores shown; submitting it again
// updates the participant's result). Ctrl+Z reopens the latest.

export type Outcome = "saved" | "submitted";

export interface ScoredTask {
  questionId: string;
  resultId: number;
  question: string | null;
  participant: string | null;
  score: number;
  outcome: Outcome;
  /** When it was saved or submitted (ms since the epoch). */
  at: number;
}

/** How many entries the list keeps. */
export const HISTORY_LENGTH = 50;

/** The list with `entry` first; an earlier entry of the same task is replaced. */
export function recordScored(history: ScoredTask[], entry: ScoredTask): ScoredTask[] {
  const others = history.filter((h) => h.questionId !== entry.questionId || h.resultId !== entry.resultId);
  return [entry, ...others].slice(0, HISTORY_LENGTH);
}

/** "Submitted 7" or "Saved 5 for moderation". */
export function describeScored(entry: ScoredTask): string {
  return entry.outcome === "submitted" ? `Submitted ${entry.score}` : `Saved ${entry.score} for moderation`;
}
