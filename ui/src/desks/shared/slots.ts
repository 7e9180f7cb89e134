// What one desk shown inside another is given. The root (App.svelte) composes them:
// the delivery desk shows the results desk for its assessment and, in a print batch,
// the sheets desk, without importing either (server/tests/layers/ui.rs).
import type { DeliveryAssessment, PrintBatch } from "../../lib/api";

/** The results desk inside delivery: for `assessment`, closed by `onclose`. */
export interface ResultsSlot {
  assessment: DeliveryAssessment;
  onclose: () => void;
}

/** The sheets desk inside a print batch. */
export interface SheetsSlot {
  batch: PrintBatch;
  /** The participants' names by AttemptID, for the review. */
  participants: Record<number, string>;
  /** The review of doubtful marks opened or closed: the batch gives it the keyboard. */
  onreviewing: (open: boolean) => void;
  /** Readings were uploaded: the batch reads its attempts again. */
  onuploaded: () => void;
}
