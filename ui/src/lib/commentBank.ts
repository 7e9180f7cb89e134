// The comment bank (our server's BankedComments feed): comments saved once per
// question, for a dimension or for the overall comments, shared by the area's
// scorers and inserted with Ctrl+K then a digit. These helpers are the bank's rules
// on the scorer's side; desks/scoring/CommentBank.svelte is the dialog.
import type { BankedComment } from "./bindings/BankedComment";
import type { Draft } from "./bindings/Draft";
import { withDimension } from "./scoring";

export type { BankedComment };

/** The comments of one target: a dimension by its order, or (null) the overall comments. */
export function bankFor(bank: BankedComment[], order: number | null): BankedComment[] {
  return bank.filter((comment) => (comment.dimensionOrder ?? null) === order);
}

/** `existing` with `text` added at its end: after a full stop a space, otherwise "; ". */
export function withInserted(existing: string | null, text: string): string {
  const before = (existing ?? "").trimEnd();
  if (!before) return text;
  return `${before}${/[.!?]$/.test(before) ? " " : "; "}${text}`;
}

/**
 * Which comment the bank serves, from the element that had focus: a dimension's
 * comment field, the overall comments, or else the selected dimension.
 */
export function bankTarget(focusedId: string, selectedOrder: number | undefined): number | null | undefined {
  if (focusedId === "overall-comments") return null;
  const match = /^comment-(\d+)$/.exec(focusedId);
  if (match) return Number(match[1]);
  return selectedOrder;
}

/** The number key (1 to 9) of the nth comment listed, if it has one. */
export function entryForKey(key: string, entries: BankedComment[]): BankedComment | undefined {
  if (!/^[1-9]$/.test(key)) return undefined;
  return entries[Number(key) - 1];
}

/** The text of a draft's comment field: a dimension's (by order) or the overall one (null). */
export function commentOf(draft: Draft, order: number | null): string {
  if (order === null) return draft.comments ?? "";
  return draft.dimensions.find((d) => d.order === order)?.comment ?? "";
}

/** The draft with `text` inserted at the end of that comment field. */
export function withBankedComment(draft: Draft, order: number | null, text: string): Draft {
  const joined = withInserted(commentOf(draft, order), text);
  return order === null ? { ...draft, comments: joined } : withDimension(draft, order, { comment: joined });
}
