// What the lead marker's desk makes of each marker's figures (desks/markers):
// whether his marks stand out from everyone else's, his pace and drift in words,
// and the two plots' geometry: each marker's mean and spread against the
// question's, and his marks twenty scripts at a time against the question's mean.
import type { DriftPoint } from "./bindings/DriftPoint";
import type { MarkerLine } from "./bindings/MarkerLine";

/** Beyond this many standard errors, a marker's mean is unlikely to be chance. */
export const STANDS_OUT_Z = 2;

export type Standing = "harsher" | "more lenient" | "in line" | "too few scripts";

/** Where a marker's mean stands against the others': by Welch's z the server computed. */
export function standing(line: MarkerLine): Standing {
  const z = line.meanDifferenceZ;
  if (z === null || z === undefined) return "too few scripts";
  if (z <= -STANDS_OUT_Z) return "harsher";
  if (z >= STANDS_OUT_Z) return "more lenient";
  return "in line";
}

/** A number to `places`, or a dash where none could be computed. */
export function shown(value: number | null | undefined, places = 2): string {
  return value === null || value === undefined || Number.isNaN(value) ? "–" : value.toFixed(places);
}

/** A signed number: "+1.75", "−0.50" (a real minus sign), or a dash. */
export function signed(value: number | null | undefined, places = 2): string {
  if (value === null || value === undefined || Number.isNaN(value)) return "–";
  const text = Math.abs(value).toFixed(places);
  if (Number(text) === 0) return text;
  return `${value < 0 ? "−" : "+"}${text}`;
}

/** The median time a script, as "2 min 5 s" or "40 s"; a dash for none. */
export function pace(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return "–";
  const whole = Math.round(seconds);
  if (whole < 60) return `${whole} s`;
  const rest = whole % 60;
  return `${Math.floor(whole / 60)} min${rest ? ` ${rest} s` : ""}`;
}

/** A share as a percentage, "50 %", or a dash. */
export function percent(share: number | null | undefined): string {
  return share === null || share === undefined ? "–" : `${Math.round(share * 100)} %`;
}

export interface Box {
  width: number;
  height: number;
}

/** The marks axis of the means plot: from 0 to the highest mean plus its spread, at least 1. */
export function marksRange(lines: MarkerLine[]): number {
  const tops = lines.map((line) => (line.mean ?? 0) + (line.spread ?? 0));
  return Math.max(1, Math.ceil(Math.max(0, ...tops)));
}

/** One marker's row of the means plot: his mean as a dot, one spread either side as a bar. */
export function meanBar(line: MarkerLine, top: number, box: Box) {
  const x = (marks: number) => (Math.min(top, Math.max(0, marks)) / top) * box.width;
  const mean = line.mean ?? 0;
  const spread = line.spread ?? 0;
  return { from: x(mean - spread), at: x(mean), to: x(mean + spread) };
}

export interface DriftLine {
  marker: string;
  /** SVG points, "x,y x,y". */
  points: string;
  last: { x: number; y: number };
}

/** The largest distance from the question's mean any window has, at least half a mark. */
export function driftRange(drift: DriftPoint[]): number {
  return Math.max(0.5, ...drift.map((point) => Math.abs(point.meanDifference)));
}

/**
 * Each marker's windows as a line: x his scripts marked so far (window by
 * window), y the window's mean less the question's (up is more lenient), the
 * question's mean at the middle.
 */
export function driftLines(drift: DriftPoint[], box: Box): DriftLine[] {
  const windows = Math.max(1, ...drift.map((point) => point.window));
  const range = driftRange(drift);
  const markers = [...new Set(drift.map((point) => point.marker))].sort();
  return markers.map((marker) => {
    const his = drift.filter((point) => point.marker === marker).sort((a, b) => a.window - b.window);
    const xy = his.map((point) => ({
      // One window alone sits at the left; otherwise the first at 0 and the last window of anyone at the right.
      x: windows === 1 ? 0 : ((point.window - 1) / (windows - 1)) * box.width,
      y: box.height / 2 - (point.meanDifference / range) * (box.height / 2),
    }));
    return {
      marker,
      points: xy.map(({ x, y }) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" "),
      last: xy[xy.length - 1],
    };
  });
}
