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
