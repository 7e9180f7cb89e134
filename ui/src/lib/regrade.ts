// A regrade's map as the author edits it (desks/content/RegradePanel.svelte):
// what stops it being sent, in words, and what it would do. The server checks
// the same rules (server/src/model/regrade.rs) and names the field if anything
// gets past these.
import type { RegradeDimension } from "./bindings/RegradeDimension";
import type { RegradePlan } from "./bindings/RegradePlan";

/** What stops the regrade being sent; empty when it may be. */
export function regradeProblems(dimensions: RegradeDimension[], reason: string): string[] {
  const problems: string[] = [];
  if (dimensions.length && dimensions.some((d) => d.scores.length !== d.oldMax + 1)) problems.push("Each old score needs its new score.");
  for (const d of dimensions) {
    d.scores.forEach((score, old) => {
      if (!Number.isInteger(score) || score < 0 || score > d.newMax) {
        problems.push(`${d.name}: old ${old} must become a score from 0 to ${d.newMax}.`);
      } else if (old > 0 && score < d.scores[old - 1]) {
        problems.push(`${d.name}: old ${old} earns less than old ${old - 1}; a higher level never earns less.`);
      }
    });
  }
  if (!reason.trim()) problems.push("Say why the scheme changed (the reason is kept with the regrade).");
  return problems;
}

/** The scores a map changes, as `3→2`; empty when it keeps them all. */
export function changes(d: RegradeDimension): string[] {
  return d.scores.flatMap((score, old) => (score === old ? [] : [`${old}→${score}`]));
}

/** What the regrade would move, in a sentence. */
export function planSummary(plan: RegradePlan): string {
  const parts = [`${plan.scripts} ${plan.scripts === 1 ? "script was" : "scripts were"} marked with rubric ${plan.fromRubricId}`];
  const of: string[] = [`${plan.scored} scored`];
  if (plan.markings) of.push(`${plan.markings} ${plan.markings === 1 ? "marking" : "markings"} of double marking`);
  if (plan.seeds) of.push(`${plan.seeds} check ${plan.seeds === 1 ? "script" : "scripts"}`);
  return `${parts[0]} (${of.join(", ")}). Regrade them onto rubric ${plan.toRubricId}?`;
}
