// Where a scanned page sits in the viewer's stage: fitted to the stage's width (a
// page is read top to bottom) or to the whole page, zoomed about the point the
// scorer looks at, panned by steps that move a useful distance, and kept from
// drifting out of sight. Pure geometry in stage pixels; ImageViewer.svelte draws it.

export type Fit = "width" | "page";

export interface Size {
  width: number;
  height: number;
}

export interface View {
  fit: Fit;
  /** On top of the fit: 1 is fitted. */
  zoom: number;
  /** Quarter turns clockwise: 0, 90, 180 or 270 degrees. */
  rotation: number;
  /** The top-left corner of the (rotated) page in the stage. */
  x: number;
  y: number;
}

export const MIN_ZOOM = 0.25;
export const MAX_ZOOM = 8;
/** A vertical step shows the next screenful, keeping a line of context. */
export const VERTICAL_STEP = 0.8;
export const HORIZONTAL_STEP = 0.5;

/** The page's size once rotated (in its own pixels). */
export function rotated(image: Size, rotation: number): Size {
  return rotation % 180 === 0 ? image : { width: image.height, height: image.width };
}

/** Stage pixels per page pixel. */
export function scaleOf(view: View, stage: Size, image: Size): number {
  const page = rotated(image, view.rotation);
  if (!page.width || !page.height || !stage.width || !stage.height) return 1;
  const widthFit = stage.width / page.width;
  const fitted = view.fit === "width" ? widthFit : Math.min(widthFit, stage.height / page.height);
  return fitted * view.zoom;
}

/** The page's size on screen. */
export function shownSize(view: View, stage: Size, image: Size): Size {
  const page = rotated(image, view.rotation);
  const scale = scaleOf(view, stage, image);
  return { width: page.width * scale, height: page.height * scale };
}

/**
 * Keeps the page in sight: narrower than the stage, it is centred; wider, no gap
 * shows at either side. The same for the height, except that a page shorter than
 * the stage sits at its top when fitted to the width.
 */
export function clamp(view: View, stage: Size, image: Size): View {
  const shown = shownSize(view, stage, image);
  const place = (position: number, length: number, room: number, start: boolean) => {
    if (length <= room) return start ? 0 : (room - length) / 2;
    return Math.min(0, Math.max(room - length, position));
  };
  return {
    ...view,
    x: place(view.x, shown.width, stage.width, false),
    y: place(view.y, shown.height, stage.height, view.fit === "width"),
  };
}

/** A page as it opens or is fitted again: fitted, at the top of the page. */
export function fitted(fit: Fit, rotation: number, stage: Size, image: Size): View {
  return clamp({ fit, zoom: 1, rotation, x: 0, y: 0 }, stage, image);
}

/**
 * Zoomed by `factor` about `anchor` (a stage point): the page point under it stays
 * there. The keys anchor at the top middle of the stage, so the line the scorer
 * reads at the top stays put and the top of the page stays in sight.
 */
export function zoomAbout(view: View, factor: number, anchor: { x: number; y: number }, stage: Size, image: Size): View {
  const zoom = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, view.zoom * factor));
  const ratio = zoom / view.zoom;
  return clamp(
    {
      ...view,
      zoom,
      x: anchor.x - (anchor.x - view.x) * ratio,
      y: anchor.y - (anchor.y - view.y) * ratio,
    },
    stage,
    image,
  );
}

/** The keys' anchor: the middle of the stage's top edge. */
export function keyAnchor(stage: Size) {
  return { x: stage.width / 2, y: 0 };
}

/** Moved by whole steps (positive `down` shows what is below, `right` what is right). */
export function panBySteps(view: View, right: number, down: number, stage: Size, image: Size): View {
  return clamp(
    { ...view, x: view.x - right * stage.width * HORIZONTAL_STEP, y: view.y - down * stage.height * VERTICAL_STEP },
    stage,
    image,
  );
}

/** Moved by a drag of (dx, dy) stage pixels. */
export function dragBy(view: View, dx: number, dy: number, stage: Size, image: Size): View {
  return clamp({ ...view, x: view.x + dx, y: view.y + dy }, stage, image);
}

/** A quarter turn (1 clockwise, -1 anticlockwise), fitted again at the top. */
export function turned(view: View, quarterTurns: 1 | -1, stage: Size, image: Size): View {
  return fitted(view.fit, (view.rotation + 90 * quarterTurns + 360) % 360, stage, image);
}
