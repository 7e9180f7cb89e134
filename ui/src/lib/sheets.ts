// Scanned answer sheets on the coordinator's screen (desks/sheets/SheetScans.svelte):
// what a key does to a decision on an unsure question, and the sentences that sum
// up a reading and an upload. The reading itself is the Rust side's
// (src-tauri/src/delivery/sheets.rs).
import type { SheetDoubt } from "./bindings/SheetDoubt";
import type { SheetScanReport } from "./bindings/SheetScanReport";
import type { SheetUpload } from "./bindings/SheetUpload";

/** The choice a letter key names on this question, if it has it. */
export function choiceOfKey(doubt: SheetDoubt, key: string): number | null {
  const bubble = doubt.bubbles.find((b) => b.label.toLowerCase() === key.toLowerCase());
  return bubble ? bubble.choice : null;
}

/** The choices after a choice's letter is pressed: a one-choice question takes
 * that choice alone (pressed again, none); a several-choice one toggles it. */
export function toggleChoice(doubt: SheetDoubt, chosen: number[], choice: number): number[] {
  if (chosen.includes(choice)) return chosen.filter((c) => c !== choice);
  if (doubt.single) return [choice];
  return [...chosen, choice].sort((a, b) => a - b);
}

const label = (doubt: SheetDoubt, choice: number) => doubt.bubbles.find((b) => b.choice === choice)?.label ?? String(choice);

/** Whether the doubt is a short answer's box to type, not a mark to decide. */
export const isWritten = (doubt: SheetDoubt) => doubt.reason === "written";

/** Why the reader left the question to a person. */
export function describeDoubt(doubt: SheetDoubt): string {
  if (isWritten(doubt)) return "A short answer: type what is written in the box (nothing, if you see nothing).";
  if (doubt.essay) {
    const ink = doubt.bubbles[0]?.darkness ?? 0;
    return `A little ink in the essay's frame (${(ink * 100).toFixed(2)} % of it): a short answer for a scorer (A), or blank (Backspace)?`;
  }
  if (doubt.picture) {
    const crosses = doubt.bubbles.map((b) => b.label);
    const lettered = crosses.length === 1 ? `the cross ${crosses[0]}` : `the crosses ${crosses.join(", ")}`;
    const pick = doubt.single ? "pick the one place that counts" : "pick the places that count";
    if (doubt.reason === "severalMarks") return `More crosses on the picture than it takes: of ${lettered}, ${pick}.`;
    return crosses.length
      ? `Ink on the picture that is no cross, besides ${lettered}: ${pick}.`
      : "Ink on the picture that is no cross: look, and confirm that no place is marked.";
  }
  const of = (verdict: string) =>
    doubt.bubbles.filter((b) => b.verdict === verdict).map((b) => `${b.label} (${Math.round(b.darkness * 100)} % dark)`);
  if (doubt.reason === "severalMarks") return `One choice allowed, and ${of("marked").join(" and ")} are marked.`;
  const unsure = doubt.bubbles.filter((b) => b.verdict === "unsure");
  // A faint fill (or a reader that named nothing) is asked as before; a tick,
  // a cross or other strokes the reader could not be sure of are named.
  if (unsure.every((b) => !b.kind || b.kind === "a faint fill")) {
    const faint = of("unsure");
    return `${faint.length === 1 ? "A faint mark" : "Faint marks"} on ${faint.join(", ")}: marked, or rubbed out?`;
  }
  const named = unsure.map((b) => `${b.kind} on ${b.label} (${Math.round(b.darkness * 100)} % dark)`).join(", ");
  return `Not sure of ${named}: a mark, or not?`;
}

/** The decision, in words. */
export function describeChoices(doubt: SheetDoubt, chosen: number[]): string {
  return chosen.length ? chosen.map((c) => label(doubt, c)).join(", ") : "no choice";
}

/** A typed short answer, in words. */
export const describeTyped = (typed: string) => (typed.trim() ? `“${typed.trim()}”` : "nothing written");

/** Every doubt decided, in a sentence: the marks decided and the short answers typed. */
export function decidedSummary(doubts: SheetDoubt[]): string {
  if (!doubts.length) return "Nothing unsure: every mark was read clearly.";
  const typed = doubts.filter(isWritten).length;
  const marks = doubts.length - typed;
  const said = [];
  if (marks) said.push(`${marks} unsure ${marks === 1 ? "mark" : "marks"} decided`);
  if (typed) said.push(`${typed} short ${typed === 1 ? "answer" : "answers"} typed`);
  return `All ${said.join(" and ")}.`;
}

/** A reading, in a sentence. */
export function scanSummary(report: SheetScanReport): string {
  const attempts = report.attempts.length;
  const unsure = report.attempts.filter((a) => a.doubts.some((d) => !isWritten(d))).length;
  const toType = report.attempts.reduce((n, a) => n + a.doubts.filter(isWritten).length, 0);
  const blocked = report.attempts.filter((a) => a.problem).length;
  const parts = [`${report.pages} ${report.pages === 1 ? "page" : "pages"} read: ${attempts} ${attempts === 1 ? "attempt" : "attempts"}`];
  if (unsure) parts.push(`${unsure} with unsure marks to decide`);
  if (toType) parts.push(`${toType} short ${toType === 1 ? "answer" : "answers"} to type`);
  if (blocked) parts.push(`${blocked} incomplete`);
  if (report.refused.length) parts.push(`${report.refused.length} ${report.refused.length === 1 ? "scan" : "scans"} refused`);
  return parts.join(", ");
}

/** An upload of the readings, in a sentence. */
export function sheetUploadSummary(uploads: SheetUpload[]): string {
  const count = (kind: string) => uploads.filter((u) => u.outcome.kind === kind).length;
  const parts = [`${count("scored") + count("stored")} of ${uploads.length} uploaded`];
  if (count("refused")) parts.push(`${count("refused")} refused`);
  if (count("unreachable")) parts.push(`${count("unreachable")} not sent (upload again)`);
  return parts.join(", ");
}
