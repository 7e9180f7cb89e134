import { describe, expect, it } from "vitest";
import { clamp, dragBy, fitted, keyAnchor, panBySteps, shownSize, turned, zoomAbout } from "./viewerGeometry";

const stage = { width: 600, height: 700 };
const page = { width: 1200, height: 1600 }; // a portrait scan

describe("the scan viewer's geometry", () => {
  it("fits a page to the stage's width, at the top of the page", () => {
    const view = fitted("width", 0, stage, page);
    expect(shownSize(view, stage, page)).toEqual({ width: 600, height: 800 });
    expect([view.x, view.y]).toEqual([0, 0]);
  });

  it("fits the whole page, centred, when asked", () => {
    const view = fitted("page", 0, stage, page);
    const shown = shownSize(view, stage, page);
    expect(shown.height).toBe(700);
    expect(shown.width).toBe(525);
    expect(view.x).toBeCloseTo(37.5);
  });

  it("zooms with the keys about the top middle: the top of the page stays in sight", () => {
    const view = zoomAbout(fitted("width", 0, stage, page), 2, keyAnchor(stage), stage, page);
    expect(view.zoom).toBe(2);
    expect(view.y).toBe(0);
    // The middle of the page's width stays in the middle.
    expect(view.x).toBe(-300);
    expect(shownSize(view, stage, page).width).toBe(1200);
  });

  it("keeps the page point under the pointer when zooming there", () => {
    const start = { ...fitted("width", 0, stage, page), y: -50 };
    const view = zoomAbout(start, 1.5, { x: 150, y: 350 }, stage, page);
    // Page point under (150, 350): ((150 - 0) / 0.5, (350 + 50) / 0.5) = (300, 800).
    expect(150 - view.x).toBeCloseTo(300 * 0.75);
    expect(350 - view.y).toBeCloseTo(800 * 0.75);
  });

  it("pans by most of a screenful and never past the page's edges", () => {
    const start = fitted("width", 0, stage, page);
    const down = panBySteps(start, 0, 1, stage, page);
    expect(down.y).toBe(-100); // 0.8 × 700 = 560, but the page is only 100 px taller than the stage
    const zoomed = zoomAbout(start, 2, keyAnchor(stage), stage, page); // 1200 × 1600 shown
    const once = panBySteps(zoomed, 0, 1, stage, page);
    expect(once.y).toBe(-560);
    const right = panBySteps(zoomed, 1, 0, stage, page);
    expect(right.x).toBe(-600); // -300 - 300, at the right edge
    expect(panBySteps(right, 1, 0, stage, page).x).toBe(-600);
    expect(panBySteps(zoomed, 0, -1, stage, page).y).toBe(0);
  });

  it("centres a page narrower than the stage whatever the drag", () => {
    const small = zoomAbout(fitted("width", 0, stage, page), 0.5, keyAnchor(stage), stage, page);
    expect(dragBy(small, 200, 0, stage, page).x).toBe(150);
    expect(clamp({ ...small, x: -999 }, stage, page).x).toBe(150);
  });

  it("turns both ways and fits the turned page again", () => {
    const start = fitted("width", 0, stage, page);
    const once = turned(start, 1, stage, page);
    expect(once.rotation).toBe(90);
    expect(shownSize(once, stage, page)).toEqual({ width: 600, height: 450 });
    expect(turned(start, -1, stage, page).rotation).toBe(270);
    expect(turned(once, -1, stage, page).rotation).toBe(0);
  });
});
