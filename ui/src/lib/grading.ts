// Grade by question: the scorer chooses one question and marks it across every
// script before the next. The queue narrows to that question, "N" stays in it, the
// progress says "12 of 65 done", and the end of the question offers the next one.
// The choice is remembered per server and customer area, so a restart carries on.
import type { ConnectionStatus } from "./api";
import type { QuestionProgress } from "./bindings/QuestionProgress";

export type { QuestionProgress };

/** The question being graded. */
export interface GradedQuestion {
  questionId: string;
  name: string;
}

/** Where the choice is kept between runs. */
const STORAGE_KEY = "scoredesk.gradeByQuestion";

/**
 * The server and customer area a choice belongs to ("" before the first status).
 * The built-in server listens on a new port at each start, so it is known by its
 * mode alone; a remote one by its address.
 */
export function serverKey(status: ConnectionStatus | null): string {
  if (status?.customerId == null) return "";
  if (status.mode === "embedded") return `embedded|${status.customerId}`;
  return status.serverUrl ? `remote|${status.serverUrl}|${status.customerId}` : "";
}

/** The question chosen on this server in an earlier run, if any. */
export function rememberedQuestion(storage: Pick<Storage, "getItem">, server: string): GradedQuestion | null {
  if (!server) return null;
  try {
    const kept = JSON.parse(storage.getItem(STORAGE_KEY) ?? "null");
    if (kept?.server !== server || typeof kept.questionId !== "string" || !/^\d+$/.test(kept.questionId)) return null;
    return { questionId: kept.questionId, name: typeof kept.name === "string" ? kept.name : `Question ${kept.questionId}` };
  } catch {
    return null;
  }
}

/** Remembers the choice (null: grading every question again). */
export function rememberQuestion(storage: Pick<Storage, "setItem" | "removeItem">, server: string, question: GradedQuestion | null) {
  if (question && server) storage.setItem(STORAGE_KEY, JSON.stringify({ server, ...question }));
  else storage.removeItem(STORAGE_KEY);
}

/** "12 of 65 done". */
export function describeProgress(progress: QuestionProgress): string {
  return `${progress.done} of ${progress.total} done`;
}

/** Whether nothing of the question is left to take. */
export function finished(progress: QuestionProgress | null): boolean {
  return progress !== null && progress.toScore === 0;
}

/** What the end of a question says: all done, or what others still hold. */
export function describeEnd(progress: QuestionProgress): string {
  const elsewhere = Math.max(0, progress.total - progress.done - progress.toScore);
  const held = elsewhere === 0 ? "" : ` ${elsewhere} ${elsewhere === 1 ? "is" : "are"} being scored by others.`;
  return `Nothing left to score in “${progress.name}”: ${describeProgress(progress)}.${held}`;
}

/**
 * The question to offer after `current`: the next with tasks to score in the list's
 * order (by name, as the Rust side sorts it), wrapping round; null when none has any.
 */
export function nextQuestion(questions: QuestionProgress[], current: GradedQuestion): QuestionProgress | null {
  const others = questions.filter((q) => q.toScore > 0 && q.questionId !== current.questionId);
  const after = (q: QuestionProgress) => q.name > current.name || (q.name === current.name && q.questionId > current.questionId);
  return others.find(after) ?? others[0] ?? null;
}

/**
 * What the end of a question says when the queue's filters (a group, an
 * assessment) leave its other tasks out: how many remain outside them, and how to
 * reach them.
 */
export function describeFilteredEnd(progress: QuestionProgress): string {
  const outside = progress.toScore;
  return `Nothing of “${progress.name}” is left in this group or assessment: ${outside} ${outside === 1 ? "task is" : "tasks are"} to score outside the filters (X clears them).`;
}
