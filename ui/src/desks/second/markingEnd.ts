// What the second-marking desk says once a marking is done with.
import type { MarkingView } from "../../lib/api";
import type { MarkingEnd } from "./markingSheet.svelte";

export type { MarkingEnd };

export function endSaid(end: MarkingEnd, view: MarkingView | null): string {
  const round = view?.round === 3 ? "resolution" : "second marking";
  if (end.kind === "given-back") return `The ${round} was given back: it is offered again.`;
  if (end.kind === "closed") return `Your ${round} is kept, not submitted: Enter on it goes on.`;
  const { outcome } = end;
  if (outcome.outcome === "resolution") return "Submitted. The two markings are further apart than the plan allows: a lead marker resolves the script.";
  if (outcome.outcome === "final") {
    const score = outcome.score === null ? "" : ` (${outcome.score})`;
    return view?.round === 3 ? `Submitted: your resolution is the final mark${score}.` : `Submitted. The markings agree: the script has its final mark${score}.`;
  }
  return `Your ${round} is kept.`;
}
