// The two figures issue 5 sets targets for, measured where the scorer sees them:
// "next task" to the answer on screen, and app start to the first queue on screen.
// They are kept on `window.scoredeskTimings` for the window benchmark to read
// (tests/tests/desktop/timings.rs); nothing in the app depends on them.

export interface Timings {
  /** Milliseconds from the process start to the first queue painted. */
  startToQueueMs: number | null;
  /** Milliseconds from "next task" to its answer painted, one entry per task taken. */
  nextToAnswerMs: { key: string; ms: number; takeMs: number | null; prepared: boolean; phases: Record<string, number> }[];
}

const timings: Timings = { startToQueueMs: null, nextToAnswerMs: [] };
(globalThis as unknown as { scoredeskTimings: Timings }).scoredeskTimings = timings;

let nextPressedAt: number | null = null;
let takenAt: number | null = null;
/** Milliseconds from "next" to each named step of showing the task (where the time goes). */
let phases: Record<string, number> = {};

/** Resolves once the frame after the current changes has been painted. */
export function painted(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
}

export function nextPressed(now: number = performance.now()) {
  nextPressedAt = now;
  takenAt = null;
  phases = {};
}

/** The Rust side has answered `open_task`: the rest is the web view's rendering. */
export function taskTaken(now: number = performance.now()) {
  takenAt = now;
}

/** Marks a step of showing the task taken by the last "next". */
export function phase(name: string, now: number = performance.now()) {
  if (nextPressedAt !== null && !(name in phases)) phases[name] = now - nextPressedAt;
}

/** Called when a task's answer is painted; pairs with the last `nextPressed`. */
export function answerShown(key: string, prepared: boolean, now: number = performance.now()) {
  if (nextPressedAt === null) return;
  const takeMs = takenAt === null ? null : takenAt - nextPressedAt;
  timings.nextToAnswerMs.push({ key, ms: now - nextPressedAt, takeMs, prepared, phases });
  nextPressedAt = null;
}

export function queueShown(msSinceStart: number) {
  if (timings.startToQueueMs === null) timings.startToQueueMs = msSinceStart;
}

export function current(): Timings {
  return timings;
}
