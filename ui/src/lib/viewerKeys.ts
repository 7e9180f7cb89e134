// The scoring screen's keys for a scanned answer (desks/shared/ImageViewer.svelte):
// Shift+arrows pan by most of a screenful, + and - zoom, F fits, O and Shift+O rotate.
// Plain arrows are not the viewer's: they move through the rubric's dimensions.

export type ViewerCommand = { pan: [right: number, down: number] } | { zoom: number } | { fit: true } | { rotate: 1 | -1 };

const PANS: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/** What `key` (with Shift held or not) asks of the viewer, if anything. */
export function viewerCommand(key: string, shift: boolean): ViewerCommand | null {
  if (key in PANS) return shift ? { pan: PANS[key] } : null;
  switch (key) {
    case "+":
    case "=":
      return { zoom: 1.25 };
    case "-":
      return { zoom: 0.8 };
    case "f":
      return { fit: true };
    case "o":
      return { rotate: 1 };
    case "O":
      return { rotate: -1 };
    default:
      return null;
  }
}
