// How an import's report is told (desks/content/ContentDesk.svelte): one sentence
// that says what happened, or what would.
import type { PackageReport } from "./bindings/PackageReport";
import type { ReportQuestion } from "./bindings/ReportQuestion";

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** "QTI 2.x" for a QTI version, "Moodle XML" as it is. */
function formatOf(version: string): string {
  return /^[0-9]/.test(version) ? `QTI ${version}` : version;
}

/** "Importing will create “Biology” with 6 questions; 2 items are skipped." */
export function describeImport(report: PackageReport): string {
  const created = report.questions.filter((q) => q.outcome === "created").length;
  const revised = report.questions.filter((q) => q.outcome === "revised").length;
  const questions = count(report.questions.length, "question", "questions");
  const skipped = report.skipped.length ? `; ${count(report.skipped.length, "item is", "items are")} not imported` : "";
  const name = `“${report.assessmentName}”`;
  const changes = [created && count(created, "new question", "new questions"), revised && count(revised, "new revision", "new revisions")].filter(Boolean).join(" and ");
  if (report.assessment === "unchanged") {
    return `${name} is already here as it is in this package: importing changes nothing${skipped}.`;
  }
  if (report.preview) {
    return report.assessment === "created"
      ? `Importing will create ${name} with ${questions} (${formatOf(report.qtiVersion)}, ${count(report.images, "image", "images")})${skipped}.`
      : `Importing will update ${name}: ${changes || "its order or name"}${skipped}.`;
  }
  return report.assessment === "created"
    ? `${name} was imported with ${questions}: it is assessment ${report.assessmentId}${skipped}.`
    : `${name} was updated: ${changes || "its order or name"}${skipped}.`;
}

/** A question's kind as the report's table says it: "number entry",
 * "matching (2 rows, 3 options)", "fill in the blanks (3 blanks)",
 * "multiple choice (4 choices)", "places on a picture (3 areas)". */
export function describeKind(question: ReportQuestion): string {
  const blanks = question.parts.length;
  if (question.questionType === "fill_in_blanks") {
    const picked = question.pickedBlanks ? `, ${question.pickedBlanks} with options` : "";
    return `fill in the blanks (${blanks} ${blanks === 1 ? "blank" : "blanks"}${picked})`;
  }
  if (question.questionType === "point") return `places on a picture (${question.choices} ${question.choices === 1 ? "area" : "areas"})`;
  if (question.numericKeys) return "number entry";
  const kind = question.questionType.replace("_", " ");
  if (question.parts.length) return `${kind} (${question.parts.length} ${question.parts.length === 1 ? "row" : "rows"}, ${question.choices} options)`;
  return question.choices ? `${kind} (${question.choices} choices)` : kind;
}

/** Its keys in words: a matching's pairs, each blank's answers, a text entry's
 * accepted answers. */
export function describeKeys(question: ReportQuestion): string {
  if (!question.keys.length) return "";
  if (question.questionType === "fill_in_blanks") return `accepts ${question.keys.join("; ")}`;
  if (question.questionType === "point") return `marked by ${question.keys.join("; ")}`;
  return `${question.parts.length ? "pairs" : "accepts"} ${question.keys.join("; ")}`;
}
