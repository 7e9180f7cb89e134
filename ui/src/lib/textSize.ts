// The app's text size: Ctrl+plus and Ctrl+minus step through the sizes, Ctrl+0
// goes back to 100 %, and the choice is remembered. It is the web view's own zoom
// (Tauri's setZoom), so everything grows together and the scan viewer's geometry,
// measured in CSS pixels, stays right.
import { getCurrentWebview } from "@tauri-apps/api/webview";
import { keyboard } from "./keyboard";

export const SIZES = [0.8, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2];
const STORAGE_KEY = "scoredesk.textSize";

/** What a key press asks of the text size: larger (1), smaller (-1), reset (0), or nothing. */
export function sizeKey(event: Pick<KeyboardEvent, "key" | "ctrlKey" | "metaKey" | "altKey">): 1 | -1 | 0 | null {
  if (!(event.ctrlKey || event.metaKey) || event.altKey) return null;
  if (event.key === "+" || event.key === "=") return 1;
  if (event.key === "-" || event.key === "_") return -1;
  if (event.key === "0") return 0;
  return null;
}

/** The size after `step` from `current` (the nearest listed size when it is not one). */
export function steppedSize(current: number, step: 1 | -1 | 0): number {
  if (step === 0) return 1;
  const at = SIZES.reduce((best, size, index) => (Math.abs(size - current) < Math.abs(SIZES[best] - current) ? index : best), 0);
  return SIZES[Math.min(SIZES.length - 1, Math.max(0, at + step))];
}

/** The remembered size, or 100 %. */
export function rememberedSize(storage: Pick<Storage, "getItem">): number {
  const kept = Number(storage.getItem(STORAGE_KEY));
  return SIZES.includes(kept) ? kept : 1;
}

/** Applies the remembered size and takes the keys that change it, before anything else does. */
export function installTextSize(storage: Storage = localStorage) {
  let size = rememberedSize(storage);
  const apply = () => {
    document.documentElement.dataset.textSize = String(size);
    getCurrentWebview().setZoom(size).catch(() => {});
  };
  if (size !== 1) apply();
  // A layer of the app's keyboard offered every key, in a dialog or a field too.
  keyboard.install();
  keyboard.add(
    () => document.documentElement,
    ({ event }) => {
      const step = sizeKey(event);
      if (step === null) return false;
      size = steppedSize(size, step);
      storage.setItem(STORAGE_KEY, String(size));
      apply();
      return true;
    },
    { everywhere: true },
  );
}
