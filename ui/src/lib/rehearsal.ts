// Made-up tasks for the scoring view's rehearsal: the app renders the view,
// nearly transparent, right after the first queue is on screen, so that WebKit's
// first style, layout and paint of it (about 300 ms without a GPU) is not paid by
// the scorer's first "next" (docs/benchmarks.md). Nothing of it is sent anywhere.
import type { ScoringView } from "./api";

const dimension = (order: number, name: string, maxScore: number) => ({
  order,
  name,
  instructions: "How well the answer does this, from nothing to fully.",
  maxScore,
  score: null,
  comment: null,
  levels: [
    { score: 0, description: "Nothing of it." },
    { score: 1, description: "Some of it, with gaps." },
  ],
});

const scanned: ScoringView = {
  questionId: "0",
  resultId: 0,
  status: 1,
  participant: "Rehearsal",
  groupName: "Rehearsal",
  finishedAt: null,
  question: "Rehearsal – 0–3 ⟳ ＋ − ⌫",
  maxScore: 10,
  markupHtml: "<p>Write a short answer. Give reasons.</p><p>Type your answer in the box.</p>",
  // A scan, as most first tasks are: a 1 × 1 grey pixel stands in for the page.
  answer: {
    kind: "image",
    dataUrl: "data:image/gif;base64,R0lGODlhAQABAIAAAMzMzAAAACwAAAAAAQABAAACAkQBADs=",
    width: 1,
    height: 1,
    fullWidth: 1,
    fullHeight: 1,
    occurrence: 1,
    blockNumber: 1,
    prepared: false,
  },
  rubric: {
    rubricId: 0,
    name: "Rehearsal rubric",
    instructions: "Score each dimension independently. Use the full range.",
    maxScore: 10,
    dimensions: [dimension(1, "Content", 3), dimension(2, "Organisation", 3), dimension(3, "Language", 2), dimension(4, "Accuracy", 2)],
    score: null,
    comments: null,
    modified: null,
  },
};

/** The same task with a typed answer: a text answer lays out differently from a scan. */
const typed: ScoringView = {
  ...scanned,
  resultId: 1,
  answer: {
    kind: "text",
    text: "Dear council,\n\nOur park needs more benches and better lighting, because older residents cannot rest on the way to the shops and the paths are dark by five o'clock in winter. I believe the cost would be repaid by more people walking instead of driving.\n\nYours faithfully,\nA resident",
    occurrence: 1,
    blockNumber: 1,
  },
};

/** Rehearsed one after the other: a scan, then a typed answer. */
export const rehearsalViews: ScoringView[] = [scanned, typed];
