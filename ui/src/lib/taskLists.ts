// What the scoring queue and the moderation list share: the filters the scorer sets
// (group, assessment, question), as the desks hold them and as the app's command
// takes them, and how many rows a list shows.
import type { QueueFilter } from "./api";
import type { QueueKind } from "./bindings/QueueKind";

/** How many rows a list of tasks shows; the count above it says how many there are. */
export const SHOWN_TASKS = 12;

export interface Filters {
  group: string;
  assessmentId: string;
  questionId: string;
}

export const NO_FILTERS: Filters = { group: "", assessmentId: "", questionId: "" };

/** The command's filter of `kind`: an unset choice is no filter. */
export function queueFilter(filters: Filters, kind: QueueKind): QueueFilter {
  return { kind, group: filters.group || null, assessmentId: filters.assessmentId || null, questionId: filters.questionId || null };
}

/** Whether a filter the scorer can clear is set (grade by question's question is not one). */
export function narrowed(filters: Filters, grading: boolean): boolean {
  return Boolean(filters.group || filters.assessmentId || (filters.questionId && !grading));
}
