// Annotations on the script (docs/desktop.md, "Annotations"): the tools, where a
// mark goes on a scan (the scan's own pixels, whatever the view's zoom and
// rotation) and on a typed answer (a range of its characters, counted as the
// server counts them: code points, not UTF-16 units), and how marked text is cut
// into pieces to show.

import type { Annotation } from "./api";

export type Tool = "tick" | "cross" | "note" | "highlighter" | "pen";

/** The key of each tool while annotating. */
export const TOOL_KEYS: Record<string, Tool> = { t: "tick", x: "cross", n: "note", h: "highlighter", p: "pen" };

export const TOOL_NAMES: Record<Tool, string> = { tick: "Tick", cross: "Cross", note: "Note", highlighter: "Highlighter", pen: "Pen" };

/** Tools drawn as a line of points; the rest are placed at one point. */
export const isStroke = (tool: Tool) => tool === "pen" || tool === "highlighter";

export type Point = [number, number];
export type Size = { width: number; height: number };

/** How far one arrow key moves the cursor on a scan: 2 % of its longer side. */
export const cursorStep = (scan: Size) => Math.max(1, Math.round(Math.max(scan.width, scan.height) / 50));

/** The cursor moved by `dx`, `dy` steps, kept on the scan. */
export function moved([x, y]: Point, dx: number, dy: number, scan: Size): Point {
  const step = cursorStep(scan);
  const clampTo = (value: number, size: number) => Math.min(size - 1, Math.max(0, Math.round(value)));
  return [clampTo(x + dx * step, scan.width), clampTo(y + dy * step, scan.height)];
}

/**
 * The scan's pixel under a pointer: `u`, `v` are where it is across and down the
 * rotated image's box on screen (0 to 1), `rotation` the view's clockwise turn in
 * degrees (a multiple of 90).
 */
export function scanPoint(u: number, v: number, rotation: number, scan: Size): Point {
  const turn = ((Math.round(rotation / 90) % 4) + 4) % 4;
  const [x, y] = [
    [u, v],
    [v, 1 - u],
    [1 - u, 1 - v],
    [1 - v, u],
  ][turn];
  const clampTo = (value: number, size: number) => Math.min(size - 1, Math.max(0, Math.floor(value * size)));
  return [clampTo(x, scan.width), clampTo(y, scan.height)];
}

/** A stroke with the points closer than `apart` pixels to the last one kept left out. */
export function thinned(points: Point[], apart: number): Point[] {
  const kept: Point[] = [];
  for (const point of points) {
    const last = kept[kept.length - 1];
    if (!last || Math.hypot(point[0] - last[0], point[1] - last[1]) >= apart) kept.push(point);
  }
  const end = points[points.length - 1];
  if (end && kept[kept.length - 1] !== end) kept.push(end);
  return kept;
}

/** The text as the server counts it: one entry per code point. */
export const codePoints = (text: string) => Array.from(text);

/** The code point at which a UTF-16 offset (as the DOM's selections count) falls. */
export const codePointAt = (text: string, utf16: number) => Array.from(text.slice(0, utf16)).length;

const isWordChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}'’-]/u.test(c);

/** The start of the next word after `from` (1) or of this or the previous one (-1). */
export function wordStep(points: string[], from: number, direction: 1 | -1): number {
  let at = from;
  if (direction === 1) {
    while (at < points.length && isWordChar(points[at])) at++;
    while (at < points.length && !isWordChar(points[at])) at++;
    return at;
  }
  at = Math.max(0, at - 1);
  while (at > 0 && !isWordChar(points[at])) at--;
  while (at > 0 && isWordChar(points[at - 1])) at--;
  return at;
}

/** The end of this word, or of the next one when `from` is between words. */
export function wordEnd(points: string[], from: number): number {
  let at = from;
  while (at < points.length && !isWordChar(points[at])) at++;
  while (at < points.length && isWordChar(points[at])) at++;
  return at;
}

/** The word at `at` (or the next one), as a range; none in text with no words after it. */
export function wordAt(points: string[], at: number): [number, number] | null {
  let start = at;
  while (start < points.length && !isWordChar(points[start])) start++;
  if (start >= points.length) return null;
  while (start > 0 && isWordChar(points[start - 1])) start--;
  let end = start;
  while (end < points.length && isWordChar(points[end])) end++;
  return [start, end];
}

/** A piece of the typed answer: its text, whether a highlight covers it, and the marks that end with it. */
export interface Piece {
  start: number;
  end: number;
  text: string;
  highlighted: boolean;
  /** Inside the keyboard's selection while annotating. */
  selected: boolean;
  /** Ticks, crosses and notes whose range ends here, in the order placed. */
  marks: Annotation[];
}

/**
 * The typed answer cut at every edge of a range (and of the keyboard's
 * selection, and at its caret), so that each piece is shown one way.
 */
export function pieces(text: string, annotations: Annotation[], selection: [number, number] | null = null, caret: number | null = null): Piece[] {
  const points = codePoints(text);
  const ranged = annotations.filter((a) => a.textStart != null && a.textEnd != null);
  const edges = new Set([0, points.length]);
  const within = (at: number) => Math.min(points.length, Math.max(0, at));
  for (const a of ranged) {
    edges.add(within(a.textStart!));
    edges.add(within(a.textEnd!));
  }
  if (selection) selection.forEach((at) => edges.add(within(at)));
  if (caret !== null) edges.add(within(caret));
  const cuts = [...edges].sort((a, b) => a - b);
  const result: Piece[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const [start, end] = [cuts[i], cuts[i + 1]];
    result.push({
      start,
      end,
      text: points.slice(start, end).join(""),
      highlighted: ranged.some((a) => a.kind === "highlighter" && a.textStart! <= start && a.textEnd! >= end),
      selected: selection !== null && selection[0] <= start && selection[1] >= end,
      marks: ranged.filter((a) => a.kind !== "highlighter" && within(a.textEnd!) === end),
    });
  }
  return result;
}

/** What the list beside the answer says of one annotation. */
export function described(annotation: Annotation, text: string | null): string {
  const kind = TOOL_NAMES[annotation.kind as Tool] ?? annotation.kind;
  let where = "";
  if (text !== null && annotation.textStart != null && annotation.textEnd != null) {
    const words = codePoints(text).slice(annotation.textStart, annotation.textEnd).join("");
    where = ` on “${words.length > 40 ? `${words.slice(0, 39)}…` : words}”`;
  }
  return `${kind}${where}${annotation.text ? `: ${annotation.text}` : ""}`;
}
