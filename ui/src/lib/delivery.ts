// What the delivery desk shows, as functions the unit tests can reach.

/** The name a new snapshot starts with: the assessment's, and the day. */
export function snapshotName(assessment: string, today: Date): string {
  const day = today.toISOString().slice(0, 10);
  return `${assessment} – ${day}`;
}

/** A date-time as the server writes it (`2026-11-24T09:30:00.000`, UTC), for people. */
export function describeSnapshotDate(serverTime: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(serverTime);
  return match ? `${match[1]} ${match[2]} UTC` : serverTime;
}

/** What one run of "create attempts" did, in a sentence. */
export function attemptsOutcome(summary: { created: number; already: number; refused: unknown[]; unreachable: unknown[] }): string {
  const parts = [`${summary.created} ${summary.created === 1 ? "attempt" : "attempts"} created`];
  if (summary.already) parts.push(`${summary.already} already had one`);
  if (summary.refused.length) parts.push(`${summary.refused.length} refused`);
  if (summary.unreachable.length) parts.push(`${summary.unreachable.length} not sent: the server did not answer (run it again to retry them)`);
  return parts.join(", ") + ".";
}

/** Where one participant of a batch stands. */
export function attemptState(row: { attemptId: string | null; resultId: string | null }): string {
  if (!row.attemptId) return "no attempt yet";
  if (!row.resultId) return "awaiting answers";
  return `result ${row.resultId}`;
}

/**
 * Where the coordinator was on the desk: the desk is left while a task is scored
 * and comes back to the same assessment, snapshot and open batch.
 */
export const deskMemory: { assessmentId: string | null; snapshotId: string | null; batchId: string | null } = {
  assessmentId: null,
  snapshotId: null,
  batchId: null,
};

/** A result's score for the table: "7 / 15", or "–" when not yet computed. */
export function resultScore(result: { totalScore: number | null; maxScore: number | null }): string {
  return result.totalScore === null ? "–" : `${result.totalScore} / ${result.maxScore ?? "?"}`;
}

/** Where an audit log entry stands, in words. */
export function auditState(entry: { inQueue: boolean; successful: boolean | null; affected: number }, expected?: number): string {
  const results = (n: number) => `${n} ${n === 1 ? "result" : "results"}`;
  if (entry.inQueue) return expected ? `in progress: ${entry.affected} of ${results(expected)} removed` : `in progress: ${results(entry.affected)} so far`;
  if (entry.successful === false) return `failed after ${results(entry.affected)}`;
  return `done: ${results(entry.affected)}`;
}

/** A result's Status in words (spec: 1 in progress, 6 paused, 7 terminated). */
export function resultStatus(status: number | null): string {
  return status === 1 ? "in progress" : status === 6 ? "paused" : status === 7 ? "terminated" : status === null ? "" : `finished (${status})`;
}

/**
 * Whether extra time still means something for a result of `status`: the spec
 * has it act on a running assessment, so only one in progress (1) or paused (6)
 * is offered it. The server accepts it on any result, as the spec lets clients.
 */
export function extraTimeApplies(status: number | null): boolean {
  return status === 1 || status === 6;
}

/** The most minutes of extra time asked for: ExtraTime is an Int32 of seconds. */
export const MAX_EXTRA_MINUTES = Math.floor(2_147_483_647 / 60);

/** Extra time typed in whole minutes, as seconds (the unit of ExtraTime). */
export function extraSecondsOf(typed: string): { seconds: number } | { error: string } {
  const text = typed.trim();
  if (!/^\d+$/.test(text) || Number(text) > MAX_EXTRA_MINUTES) return { error: "Extra time: a whole number of minutes, 0 or more." };
  return { seconds: Number(text) * 60 };
}

/** Extra time as a coordinator reads it: "5 min", or "90 s" when not whole minutes. */
export function describeExtraTime(seconds: number | null): string {
  if (!seconds) return "";
  return seconds % 60 === 0 ? `${seconds / 60} min` : `${seconds} s`;
}

/**
 * A result's band as a coordinator should read it: while any answer waits for a
 * scorer, the total (and so the band) can still rise, so it is marked provisional.
 */
export function bandText(band: string | null, toScore: number): string {
  if (!band) return "";
  return toScore > 0 ? `${band} (provisional)` : band;
}
