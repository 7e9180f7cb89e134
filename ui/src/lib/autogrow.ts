// A comment field as tall as its text: a one-line field that a banked comment or a
// long remark fills hides what the scorer is about to submit. Used as a Svelte
// action with the field's value, so that a value set by the app (a comment
// inserted from the bank, a draft recovered) grows it as typing does.

/** Sets `field`'s height to fit its text (at least its `rows`). */
export function fitToText(field: HTMLTextAreaElement) {
  field.style.height = "auto";
  // The border is outside scrollHeight; box-sizing decides whether it counts.
  const border = field.offsetHeight - field.clientHeight;
  field.style.height = `${field.scrollHeight + border}px`;
}

/** `use:autogrow={value}`: fits on creation, on input, and whenever `value` changes. */
export function autogrow(field: HTMLTextAreaElement, _value?: string) {
  const fit = () => fitToText(field);
  // An empty field is its rows tall already: no layout forced while the scoring
  // view first paints (docs/benchmarks.md, "next task" to the answer on screen).
  if (field.value) fit();
  field.addEventListener("input", fit);
  return {
    // After the flush that set the new value: an action's update can run before
    // the template has written `value` to the field.
    update: () => queueMicrotask(fit),
    destroy: () => field.removeEventListener("input", fit),
  };
}
