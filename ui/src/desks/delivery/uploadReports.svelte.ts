// What a print batch's answer-file uploads reported, kept for the rest of the run:
// a coordinator who leaves the batch (Esc, or to score a task) and comes back
// finds the report as it was, refused files included, until the next upload
// replaces it (issue 33: a report was lost to one Escape).
import type { UploadOutcome } from "../../lib/api";

export type ReportRow = { path: string; name: string; outcome: UploadOutcome | null };

export interface UploadReport {
  rows: ReportRow[];
  /** Files left out before sending, with why ("scanner-log.txt: not a .json file"). */
  skipped: string[];
  /** From the files' arrival to the last outcome on screen. */
  elapsedMs: number | null;
  /** The path typed last (U). */
  path: string;
}

const reports = new Map<string, UploadReport>();

/** The report of batch `batchId`'s uploads in this run (an empty one at first). */
export function uploadReport(batchId: string): UploadReport {
  const kept = reports.get(batchId);
  if (kept) return kept;
  const fresh = $state<UploadReport>({ rows: [], skipped: [], elapsedMs: null, path: "" });
  reports.set(batchId, fresh);
  return fresh;
}
