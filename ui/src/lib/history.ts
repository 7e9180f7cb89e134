// What this scorer saved or submitted lately: the list the queue shows under
// "Scored recently", newest first, each reopened to be corrected (the task is
// claimed again and its stored scores shown; submitting it again updates the
// participant's result). Ctrl+Z reopens the latest. It starts from the server's
// record (ScoringEvents, our extension: what this account did on any computer)
// and grows with what is scored here.
import type { ScoredEvent } from "./bindings/ScoredEvent";

export type Outcome = "saved" | "submitted";

export interface ScoredTask {
  questionId: string;
  resultId: number;
  question: string | null;
  participant: string | null;
  /** Null for a task saved before every dimension had a score. */
  score: number | null;
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
  const score = entry.score ?? "without a total";
  return entry.outcome === "submitted" ? `Submitted ${score}` : `Saved ${score} for moderation`;
}

/** The server's record as entries (its times are UTC, written without a zone). */
export function fromEvents(events: ScoredEvent[]): ScoredTask[] {
  return events.map((event) => ({
    questionId: event.questionId,
    resultId: event.resultId,
    question: event.question,
    participant: event.participant,
    score: event.score,
    outcome: event.status === 3 ? "submitted" : "saved",
    at: Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(event.at) ? event.at : `${event.at}Z`),
  }));
}

/** Both lists as one: each task once, at its latest entry, newest first. */
export function mergeHistory(here: ScoredTask[], elsewhere: ScoredTask[]): ScoredTask[] {
  const latest = new Map<string, ScoredTask>();
  for (const entry of [...here, ...elsewhere]) {
    const key = `${entry.questionId}/${entry.resultId}`;
    const known = latest.get(key);
    if (!known || entry.at > known.at) latest.set(key, entry);
  }
  return [...latest.values()].sort((a, b) => b.at - a.at).slice(0, HISTORY_LENGTH);
}
