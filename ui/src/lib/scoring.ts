// The scoring view's state, without the DOM: the draft a scorer edits, its limits,
// its sum, keeping it locally until it is saved, and merging it with a stored version
// after a conflict.
import type { Draft, DimensionDraft, ScoringView } from "./api";

/** The draft a freshly taken task starts from: what the server has. */
export function draftFrom(view: ScoringView): Draft | null {
  const rubric = view.rubric;
  if (!rubric) return null;
  return {
    questionId: view.questionId,
    resultId: view.resultId,
    rubricId: rubric.rubricId,
    modified: rubric.modified,
    score: rubric.score,
    comments: rubric.comments,
    dimensions: rubric.dimensions.map((d) => ({ order: d.order, score: d.score, comment: d.comment })),
  };
}

/** The overall score: the sum of the dimension scores given so far. */
export function total(dimensions: DimensionDraft[]): number {
  return dimensions.reduce((sum, d) => sum + (d.score ?? 0), 0);
}

/** Whether every dimension has a score. */
export function complete(dimensions: DimensionDraft[]): boolean {
  return dimensions.every((d) => d.score !== null);
}

/**
 * A score typed for a dimension whose maximum is `max`: a whole number from 0 to
 * `max`, or null for an empty field. Anything else is an error in words.
 */
export function parseScore(text: string, max: number): { score: number | null; error: string | null } {
  const trimmed = text.trim();
  if (trimmed === "") return { score: null, error: null };
  if (!/^\d+$/.test(trimmed)) return { score: null, error: `Type a whole number from 0 to ${max}.` };
  const score = Number(trimmed);
  if (score > max) return { score: null, error: `The most this dimension gives is ${max}.` };
  return { score, error: null };
}

/** A number key pressed on a dimension: its score if within the maximum, else null. */
export function scoreFromKey(key: string, max: number): number | null {
  if (!/^[0-9]$/.test(key)) return null;
  const score = Number(key);
  return score <= max ? score : null;
}

/** Sets one dimension's score or comment, returning a new draft. */
export function withDimension(draft: Draft, order: number, change: Partial<DimensionDraft>): Draft {
  const dimensions = draft.dimensions.map((d) => (d.order === order ? { ...d, ...change } : d));
  return { ...draft, dimensions, score: total(dimensions) };
}

// ----- Drafts kept locally until saved -----

export interface DraftStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export function draftKey(questionId: string, resultId: number): string {
  return `scoredesk.draft.${questionId}.${resultId}`;
}

/** What the list of unfinished drafts shows of a task. */
export interface DraftLabel {
  question: string | null;
  participant: string | null;
}

export function keepDraft(store: DraftStore, draft: Draft, label: DraftLabel | null = null): void {
  store.setItem(draftKey(draft.questionId, draft.resultId), JSON.stringify({ savedAt: Date.now(), draft, label }));
}

export interface KeptDraft {
  questionId: string;
  resultId: number;
  savedAt: number;
  label: DraftLabel | null;
  total: number;
}

/** Every draft kept on this computer, the latest first: work not yet on the server. */
export function keptDrafts(store: DraftStore & { length: number; key(index: number): string | null }): KeptDraft[] {
  const drafts: KeptDraft[] = [];
  for (let index = 0; index < store.length; index++) {
    const key = store.key(index);
    if (!key?.startsWith("scoredesk.draft.")) continue;
    try {
      const kept = JSON.parse(store.getItem(key) ?? "");
      const draft = kept.draft as Draft;
      drafts.push({
        questionId: draft.questionId,
        resultId: draft.resultId,
        savedAt: Number(kept.savedAt) || 0,
        label: kept.label ?? null,
        total: total(draft.dimensions),
      });
    } catch {
      // Not a draft this version wrote: left alone.
    }
  }
  return drafts.sort((a, b) => b.savedAt - a.savedAt);
}

export function forgetDraft(store: DraftStore, questionId: string, resultId: number): void {
  store.removeItem(draftKey(questionId, resultId));
}

/**
 * The draft kept for a task, if there is one for the same rubric; a kept draft wins
 * over the server's version when the scorer reopens the task, so nothing typed is lost.
 */
export function recoverDraft(store: DraftStore, fresh: Draft): Draft {
  const text = store.getItem(draftKey(fresh.questionId, fresh.resultId));
  if (!text) return fresh;
  try {
    const kept = JSON.parse(text).draft as Draft;
    if (kept.rubricId !== fresh.rubricId || !Array.isArray(kept.dimensions)) return fresh;
    return kept;
  } catch {
    return fresh;
  }
}

// ----- Conflicts -----

export interface FieldDifference {
  field: string;
  label: string;
  mine: string;
  stored: string;
}

function shown(value: number | string | null): string {
  return value === null || value === "" ? "—" : String(value);
}

/** The fields where the scorer's version and the stored one differ. */
export function differences(mine: Draft, stored: Draft, names: Record<number, string | null> = {}): FieldDifference[] {
  const result: FieldDifference[] = [];
  for (const d of mine.dimensions) {
    const other = stored.dimensions.find((s) => s.order === d.order);
    if (!other) continue;
    // The rubric's own words for the dimension, as the scorer saw them.
    const name = names[d.order] ?? `Dimension ${d.order}`;
    if (d.score !== other.score)
      result.push({ field: `score:${d.order}`, label: `${name}: score`, mine: shown(d.score), stored: shown(other.score) });
    if ((d.comment ?? "") !== (other.comment ?? ""))
      result.push({ field: `comment:${d.order}`, label: `${name}: comment`, mine: shown(d.comment), stored: shown(other.comment) });
  }
  if (mine.score !== stored.score) result.push({ field: "score", label: "Overall score", mine: shown(mine.score), stored: shown(stored.score) });
  if ((mine.comments ?? "") !== (stored.comments ?? ""))
    result.push({ field: "comments", label: "Overall comments", mine: shown(mine.comments), stored: shown(stored.comments) });
  return result;
}

/** Whether the scorer typed anything (a score or a comment) that `opened` did not hold. */
export function hasTypedWork(draft: Draft | null, opened: Draft | null): boolean {
  if (!draft || !opened) return false;
  return differences({ ...draft, score: opened.score }, opened).length > 0;
}

/**
 * The version to save after a conflict: the stored revision (so that the save is
 * accepted), with the fields in `keepMine` taken from the scorer's version.
 */
export function merge(mine: Draft, stored: Draft, keepMine: Set<string>): Draft {
  const dimensions = stored.dimensions.map((s) => {
    const d = mine.dimensions.find((m) => m.order === s.order);
    if (!d) return s;
    return {
      order: s.order,
      score: keepMine.has(`score:${s.order}`) ? d.score : s.score,
      comment: keepMine.has(`comment:${s.order}`) ? d.comment : s.comment,
    };
  });
  // The overall score is the dimensions' sum; without dimensions, it is a field.
  const score = dimensions.length > 0 ? total(dimensions) : keepMine.has("score") ? mine.score : stored.score;
  return {
    ...stored,
    dimensions,
    score,
    comments: keepMine.has("comments") ? mine.comments : stored.comments,
  };
}

/** Every differing field, to keep the scorer's whole version. */
export function allFields(mine: Draft, stored: Draft): Set<string> {
  return new Set(differences(mine, stored).map((d) => d.field));
}

/**
 * The fields ticked when the conflict view opens: those where the scorer wrote
 * something. Where the scorer left a field empty and the stored version has text,
 * the stored text is kept unless the scorer ticks it.
 */
export function defaultKeep(mine: Draft, stored: Draft): Set<string> {
  return new Set(differences(mine, stored).filter((d) => d.mine !== "—").map((d) => d.field));
}
