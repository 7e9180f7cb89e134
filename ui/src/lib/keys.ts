// Which keys the app may take for itself. A key that edits text (Backspace,
// Ctrl+Backspace, letters) belongs to the text field that has focus; every other
// focused control (a select, a checkbox, a button) leaves the app's letter keys to
// the app, so `N` takes a task whatever has focus.

/** Input types whose keys edit text. */
const TEXT_INPUTS = new Set(["text", "search", "url", "email", "password", "number", "tel", ""]);

/** Whether `target` is a field the scorer types text into. */
export function isTextEntry(target: EventTarget | null): boolean {
  if (typeof HTMLElement === "undefined" || !(target instanceof HTMLElement)) return false;
  if (target instanceof HTMLTextAreaElement) return true;
  if (target instanceof HTMLInputElement) return TEXT_INPUTS.has(target.type);
  return target.isContentEditable;
}

/** Whether Enter or Space on `target` has an action of its own (a button, a row, a checkbox). */
export function activatesItself(target: EventTarget | null): boolean {
  if (typeof HTMLElement === "undefined" || !(target instanceof HTMLElement)) return false;
  return target instanceof HTMLButtonElement || target instanceof HTMLAnchorElement || (target instanceof HTMLInputElement && (target.type === "checkbox" || target.type === "radio"));
}

/** Gives the keyboard back to the page: the focused control loses focus. */
export function blurFocused(): boolean {
  const focused = document.activeElement;
  if (focused instanceof HTMLElement && focused !== document.body) {
    focused.blur();
    return true;
  }
  return false;
}
