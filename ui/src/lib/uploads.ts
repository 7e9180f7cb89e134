// Answer files sent to the server a few at a time, each outcome shown as it
// arrives (desks/delivery/AnswerUploads.svelte). The sending itself is the Rust side's
// (src-tauri/src/delivery/uploads.rs); this is the order and the counting.
import type { UploadOutcome } from "./bindings/UploadOutcome";

/** Files in flight at once: the round trips overlap, the server is not crowded. */
export const AT_ONCE = 4;

/** Sends each file with `upload`, at most `atOnce` at a time, calling `shown` with
 * each outcome as it comes; resolves when the last one has. */
export async function uploadAll<F>(
  files: F[],
  upload: (file: F) => Promise<UploadOutcome>,
  shown: (file: F, outcome: UploadOutcome) => void,
  atOnce = AT_ONCE,
): Promise<void> {
  let next = 0;
  async function worker() {
    while (next < files.length) {
      const file = files[next++];
      let outcome: UploadOutcome;
      try {
        outcome = await upload(file);
      } catch (e) {
        outcome = { kind: "unreachable", message: String((e as { message?: string })?.message ?? e) };
      }
      shown(file, outcome);
    }
  }
  await Promise.all(Array.from({ length: Math.min(atOnce, files.length) }, worker));
}

/** The outcomes so far, counted, in a sentence. */
export function uploadSummary(outcomes: (UploadOutcome | null)[]): string {
  const count = (kind: UploadOutcome["kind"]) => outcomes.filter((o) => o?.kind === kind).length;
  const waiting = outcomes.filter((o) => o === null).length;
  const parts = [`${outcomes.length} ${outcomes.length === 1 ? "file" : "files"}: ${count("scored")} scored`, `${count("refused")} refused`];
  if (count("stored")) parts.push(`${count("stored")} stored without their result read`);
  if (count("unreachable")) parts.push(`${count("unreachable")} not sent (retry them)`);
  if (waiting) parts.push(`${waiting} to go`);
  return parts.join(", ");
}

/** One outcome's score, for the table. */
export function scoreOf(outcome: UploadOutcome): string {
  if (outcome.kind !== "scored") return "";
  return outcome.totalScore === null ? "–" : `${outcome.totalScore} / ${outcome.maxScore ?? "?"}`;
}

/**
 * A refusal's message as its head and its problems, one each: the server names
 * every problem of a file at once, as "3 problems: A; B; C" (docs/upload-format.md,
 * "Refusals"), each starting with its field. One problem: the message, no list.
 */
export function problemsOf(message: string): { head: string; items: string[] } {
  const many = /^(\d+ problems): (.*)$/s.exec(message);
  if (!many) return { head: message, items: [] };
  return { head: `${many[1]}:`, items: many[2].split(/; (?=QuestionAndChoices\[|and \d+ more$)/) };
}
