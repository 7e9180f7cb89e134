// The scan "next" will open, made ready before it is asked for: the Rust side
// decodes and scales it (prepareTask), then the web view decodes the data URL
// (decodedScans.ts). A miss only costs time, so a failure is forgotten, not shown.
import { prepareTask } from "../../lib/api";
import { decodeAhead } from "../../lib/decodedScans";

export class ScanPreparer {
  /** The task ("question/result") whose scan is decoded and waiting; the queue shows it for the tests. */
  ready = $state("");
  /** The task asked for last, so that a poll does not ask again. */
  private asked = "";

  prepare(task: { questionId: string; resultId: number } | undefined) {
    const key = task ? `${task.questionId}/${task.resultId}` : "";
    if (!task || key === this.asked) return;
    this.asked = key;
    prepareTask(task.questionId, task.resultId)
      .then((dataUrl) => (dataUrl ? decodeAhead(dataUrl) : undefined))
      .then(() => (this.ready = key))
      .catch(() => (this.asked = ""));
  }
}
