// The annotations on the answer in front of the marker, and his annotating (E):
// the tool (T tick, X cross, N note, H highlighter, P pen), a cursor the arrows
// move (on a scan, a point of it; on typed text, a caret that moves by words,
// Shift extending the selection), Enter to place, [ ] to choose one of the
// marks and Delete to remove it. The pointer places and draws as well (the
// layers call `placeAt` and `drawn`). Each mark is sent to the server at once;
// what it keeps is what is shown.

import { annotationsOf, errorMessage, placeAnnotation, removeAnnotation, type Annotation, type NewAnnotation } from "../../lib/api";
import { TOOL_KEYS, TOOL_NAMES, codePoints, isStroke, moved, thinned, wordAt, wordEnd, wordStep, type Point, type Size, type Tool } from "../../lib/annotations";

/** The answer block the marks are placed on, and what it is. */
export interface AnnotatedBlock {
  questionId: string;
  resultId: number;
  occurrence: number;
  blockNumber: number;
  /** A scan's own size in pixels; none for typed text. */
  scan: Size | null;
  /** Typed text; none for a scan. */
  text: string | null;
}

/** Where a note being written will go. */
type NotePlace = { points: Point[] } | { range: [number, number] };

export class AnnotationSession {
  annotations = $state<Annotation[]>([]);
  annotating = $state(false);
  tool = $state<Tool>("tick");
  /** On a scan: the keyboard's point, in the scan's pixels. */
  cursor = $state<Point>([0, 0]);
  /** On typed text: the caret (a code point) and where a Shift selection began. */
  caret = $state(0);
  anchor = $state<number | null>(null);
  /** A stroke being drawn by keyboard. */
  stroke = $state<Point[] | null>(null);
  /** A note being written, and where it goes. */
  noting = $state<NotePlace | null>(null);
  /** The mark chosen with [ ] (its index), to remove. */
  chosen = $state<number | null>(null);
  message = $state<string | null>(null);
  busy = $state(false);

  constructor(readonly block: AnnotatedBlock) {
    if (block.scan) this.cursor = [Math.round(block.scan.width / 2), Math.round(block.scan.height / 4)];
  }

  /** Reads the marks already there (a server without annotations has none). */
  async load() {
    const { questionId, resultId, occurrence, blockNumber } = this.block;
    try {
      this.annotations = await annotationsOf(questionId, resultId, occurrence, blockNumber);
    } catch {
      this.annotations = [];
    }
  }

  toggle() {
    this.annotating = !this.annotating;
    this.stroke = null;
    this.noting = null;
    this.message = this.annotating ? `Annotating: ${TOOL_NAMES[this.tool]}. Enter places it, Esc stops.` : null;
  }

  /** The typed text's selection: from the anchor to the caret, or the word at the caret. */
  get selection(): [number, number] | null {
    if (this.block.text === null) return null;
    if (this.anchor !== null && this.anchor !== this.caret) return [Math.min(this.anchor, this.caret), Math.max(this.anchor, this.caret)];
    return wordAt(codePoints(this.block.text), this.caret);
  }

  /** A key while annotating; false when it is not the annotations' (it goes on to the screen). */
  key(event: KeyboardEvent): boolean {
    if (!this.annotating || event.ctrlKey || event.altKey || event.metaKey) return false;
    const key = event.key;
    if (key === "Escape") {
      if (this.noting) this.noting = null;
      else if (this.stroke) this.stroke = null;
      else this.toggle();
      return true;
    }
    if (this.noting) return false;
    const tool = TOOL_KEYS[key.toLowerCase()];
    if (tool && !event.shiftKey) return (this.choose(tool), true);
    if (key === "[" || key === "]") return (this.step(key === "]" ? 1 : -1), true);
    if (key === "Delete" || key === "Backspace") return (this.removeChosen(), true);
    if (key === "Enter" || key === " ") return (this.place(), true);
    return this.block.scan ? this.scanArrow(event) : this.textArrow(event);
  }

  private choose(tool: Tool) {
    if (tool === "pen" && !this.block.scan) {
      this.message = "The pen draws on scans: on typed text, highlight or mark a range.";
      return;
    }
    this.tool = tool;
    this.stroke = null;
    this.message = `Annotating: ${TOOL_NAMES[tool]}.`;
  }

  private scanArrow(event: KeyboardEvent): boolean {
    const moves: Record<string, Point> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const move = moves[event.key];
    // Shift+arrows still pan the scan.
    if (!move || event.shiftKey || !this.block.scan) return false;
    this.cursor = moved(this.cursor, move[0], move[1], this.block.scan);
    if (this.stroke) this.stroke = [...this.stroke, this.cursor];
    return true;
  }

  private textArrow(event: KeyboardEvent): boolean {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return false;
    const points = codePoints(this.block.text ?? "");
    const right = event.key === "ArrowRight";
    if (event.shiftKey && this.anchor === null) this.anchor = this.caret;
    if (!event.shiftKey) this.anchor = null;
    // Selecting rightwards ends on a word's last letter, not on the next word.
    this.caret = event.shiftKey && right ? wordEnd(points, this.caret) : wordStep(points, this.caret, right ? 1 : -1);
    return true;
  }

  /** Enter: the tool at the cursor (a stroke starts, or ends, there). */
  private place() {
    if (this.block.scan) {
      if (isStroke(this.tool)) {
        if (!this.stroke) {
          this.stroke = [this.cursor];
          this.message = "Drawing: move with the arrows, Enter ends the stroke.";
        } else {
          const stroke = this.stroke;
          this.stroke = null;
          if (stroke.length < 2) this.message = "A stroke needs the cursor moved: not placed.";
          else void this.send({ points: stroke });
        }
        return;
      }
      this.placeAt(this.cursor);
      return;
    }
    const range = this.selection;
    if (!range) {
      this.message = "No words at the caret: move it with ← →.";
      return;
    }
    if (this.tool === "note") this.noting = { range };
    else void this.send({ range });
  }

  /** The pointer placed the tool at a point of the scan. */
  placeAt(point: Point) {
    this.cursor = point;
    if (isStroke(this.tool)) return;
    if (this.tool === "note") this.noting = { points: [point] };
    else void this.send({ points: [point] });
  }

  /** The pointer drew a stroke on the scan. */
  drawn(points: Point[]) {
    const scan = this.block.scan;
    if (!scan || !isStroke(this.tool)) return;
    const kept = thinned(points, Math.max(1, Math.max(scan.width, scan.height) / 400));
    if (kept.length >= 2) void this.send({ points: kept });
  }

  /** The pointer chose words of the typed text. */
  selectRange(start: number, end: number) {
    if (start === end) return;
    this.anchor = Math.min(start, end);
    this.caret = Math.max(start, end);
  }

  /** The note written: placed where it was begun. */
  async note(text: string) {
    const place = this.noting;
    if (!place || !text.trim()) return;
    this.noting = null;
    await this.send(place, text);
  }

  private async send(place: NotePlace, text: string | null = null) {
    const { questionId, resultId, occurrence, blockNumber } = this.block;
    const annotation: NewAnnotation = {
      questionId,
      resultId,
      occurrence,
      blockNumber,
      kind: this.tool,
      points: "points" in place ? place.points : [],
      textStart: "range" in place ? place.range[0] : null,
      textEnd: "range" in place ? place.range[1] : null,
      text,
    };
    this.busy = true;
    try {
      const kept = await placeAnnotation(annotation);
      this.annotations = [...this.annotations, kept];
      this.anchor = null;
      this.message = `${TOOL_NAMES[this.tool]} placed.`;
    } catch (error) {
      this.message = `Not placed: ${errorMessage(error)}`;
    } finally {
      this.busy = false;
    }
  }

  private step(by: 1 | -1) {
    const count = this.annotations.length;
    if (count === 0) return;
    this.chosen = this.chosen === null ? (by === 1 ? 0 : count - 1) : (this.chosen + by + count) % count;
  }

  private async removeChosen() {
    const index = this.chosen ?? this.annotations.length - 1;
    const chosen = this.annotations[index];
    if (!chosen) return;
    this.busy = true;
    try {
      await removeAnnotation(chosen.id);
      this.annotations = this.annotations.filter((a) => a.id !== chosen.id);
      this.chosen = null;
      this.message = `${TOOL_NAMES[chosen.kind as Tool] ?? chosen.kind} removed.`;
    } catch (error) {
      this.message = `Not removed: ${errorMessage(error)}`;
    } finally {
      this.busy = false;
    }
  }
}
