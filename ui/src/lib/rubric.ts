// The rubric editor's rules as the author types (desks/content/RubricEditor.svelte):
// what stops the rubric being saved, in words. The server checks the same rules
// (server/src/model/rubric.rs) and names the field if anything gets past these.
import type { DimensionForm } from "./bindings/DimensionForm";
import type { RubricForm } from "./bindings/RubricForm";

export const MOST_DIMENSIONS = 20;
export const DIMENSION_MAX = 100;

/** What the dimensions add up to. */
export function dimensionTotal(form: RubricForm): number {
  return form.dimensions.reduce((sum, d) => sum + (Number.isFinite(d.maxScore) ? d.maxScore : 0), 0);
}

/** One description per line. */
export function levelsText(levels: string[]): string {
  return levels.join("\n");
}

/** The lines of `text`; none when every line is blank. */
export function levelsFrom(text: string): string[] {
  const lines = text.split("\n").map((line) => line.trim());
  while (lines.length && !lines[lines.length - 1]) lines.pop();
  return lines.some(Boolean) ? lines : [];
}

/** What stops `form` being saved; empty when it may be. */
export function rubricProblems(form: RubricForm): string[] {
  const problems: string[] = [];
  if (!form.name.trim()) problems.push("The rubric needs a name.");
  if (!form.dimensions.length) problems.push("A rubric has at least one dimension.");
  if (form.dimensions.length > MOST_DIMENSIONS) problems.push(`At most ${MOST_DIMENSIONS} dimensions.`);
  form.dimensions.forEach((d: DimensionForm, index) => {
    const n = index + 1;
    if (!d.name.trim()) problems.push(`Dimension ${n} needs a name.`);
    if (!Number.isInteger(d.maxScore) || d.maxScore < 1 || d.maxScore > DIMENSION_MAX) {
      problems.push(`Dimension ${n} is worth ${Number.isFinite(d.maxScore) ? d.maxScore : "nothing"}: from 1 to ${DIMENSION_MAX}.`);
    } else if (d.levels.length && d.levels.length !== d.maxScore + 1) {
      problems.push(`Dimension ${n} describes ${d.levels.length} scores; from 0 to ${d.maxScore} is ${d.maxScore + 1} lines (or none).`);
    }
  });
  const total = dimensionTotal(form);
  if (form.dimensions.length && total !== form.questionMax) {
    problems.push(`The dimensions add up to ${total}; the question is worth ${form.questionMax}, and the rubric must be too.`);
  }
  return problems;
}
