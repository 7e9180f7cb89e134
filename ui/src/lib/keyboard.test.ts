// @vitest-environment jsdom
// The keyboard layer's rules (lib/keyboard.ts), on real DOM elements and real key
// events dispatched to them: who is offered a key, in what order, and what a text
// field, a button, a select and a dialog keep for themselves.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Keyboard, type KeyPress } from "./keyboard";

let keyboard: Keyboard;
let removers: (() => void)[] = [];

function element(html: string): HTMLElement {
  const holder = document.createElement("div");
  holder.innerHTML = html.trim();
  return holder.firstElementChild as HTMLElement;
}

/** A layer over `root` that records what it is offered and takes the keys in `takes`. */
function layer(name: string, root: Element, seen: string[], takes: string[] = [], modal = false) {
  removers.push(keyboard.add(() => root, (press: KeyPress) => (seen.push(`${name}:${press.key}${press.typing ? " typing" : ""}`), takes.includes(press.key)), { modal }));
}

function press(target: Element, key: string, init: KeyboardEventInit = {}): KeyboardEvent {
  const event = new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true, ...init });
  target.dispatchEvent(event);
  return event;
}

beforeEach(() => {
  keyboard = new Keyboard();
  document.body.innerHTML = "";
  document.body.append(
    element(`<main id="app" tabindex="-1">
      <section id="desk" tabindex="-1">
        <input id="name" type="text">
        <select id="group"><option>1</option><option>2</option></select>
        <button id="make" type="button">Make</button>
        <section id="panel" tabindex="-1"><input id="path" type="text"></section>
      </section>
      <section id="other" tabindex="-1"></section>
    </main>`),
  );
  const listener = (event: KeyboardEvent) => keyboard.dispatch(event);
  window.addEventListener("keydown", listener, { capture: true });
  removers = [() => window.removeEventListener("keydown", listener, { capture: true })];
});

afterEach(() => removers.forEach((remove) => remove()));

const byId = (id: string) => document.getElementById(id)!;

describe("the keyboard layer", () => {
  it("offers a key innermost first, and stops at the layer that takes it", () => {
    const seen: string[] = [];
    // Registered outermost last, as Svelte mounts children before their parents.
    layer("panel", byId("panel"), seen, ["t"]);
    layer("desk", byId("desk"), seen, ["p"]);
    layer("app", byId("app"), seen, ["q"]);
    const event = press(document.body, "P", { shiftKey: true });
    expect(seen).toEqual(["panel:p", "desk:p"]);
    expect(event.defaultPrevented).toBe(true);
    seen.length = 0;
    press(document.body, "Q");
    expect(seen).toEqual(["panel:q", "desk:q", "app:q"]);
  });

  it("gives a text field its plain keys, and offers it chords only", () => {
    const seen: string[] = [];
    layer("desk", byId("desk"), seen, ["s"]);
    const typed = press(byId("name"), "d");
    expect(seen).toEqual([]);
    expect(typed.defaultPrevented).toBe(false);
    const saved = press(byId("name"), "s", { ctrlKey: true });
    expect(seen).toEqual(["desk:s typing"]);
    expect(saved.defaultPrevented).toBe(true);
  });

  it("takes a field's Escape to leave the field only; the next Escape reaches the layers", () => {
    const seen: string[] = [];
    layer("desk", byId("desk"), seen, ["Escape"]);
    const name = byId("name") as HTMLInputElement;
    name.focus();
    name.value = "Biology";
    press(name, "Escape");
    expect(document.activeElement).toBe(document.body);
    expect(name.value).toBe("Biology");
    expect(seen).toEqual([]);
    press(document.body, "Escape");
    expect(seen).toEqual(["desk:Escape"]);
  });

  it("keeps the keyboard in an open dialog, which hides every layer outside it", () => {
    const seen: string[] = [];
    layer("desk", byId("desk"), seen, ["d", "Escape"]);
    const dialog = element(`<div id="dialog" role="dialog" tabindex="-1"><input id="new-name" type="text"><button id="ok">OK</button></div>`);
    document.body.append(dialog);
    layer("dialog", dialog, seen, [], true);
    const field = byId("new-name");
    field.focus();
    press(field, "Escape");
    // Out of the field, the dialog (not the page) has the keyboard.
    expect(document.activeElement).toBe(dialog);
    press(dialog, "d");
    press(dialog, "Escape");
    expect(seen).toEqual(["dialog:d", "dialog:Escape"]);
    dialog.remove();
    press(document.body, "d");
    expect(seen.at(-1)).toBe("desk:d");
  });

  it("leaves Enter on a button and the arrows on a select to the control", () => {
    const seen: string[] = [];
    layer("desk", byId("desk"), seen, ["Enter", "ArrowDown", "g"]);
    expect(press(byId("make"), "Enter").defaultPrevented).toBe(false);
    expect(press(byId("group"), "ArrowDown").defaultPrevented).toBe(false);
    expect(seen).toEqual([]);
    // A letter on a select is the app's (N takes a task whatever has focus).
    expect(press(byId("group"), "g").defaultPrevented).toBe(true);
    expect(seen).toEqual(["desk:g"]);
  });

  it("gives the keyboard back to the page on an Escape nothing took", () => {
    const seen: string[] = [];
    layer("desk", byId("desk"), seen);
    byId("make").focus();
    press(byId("make"), "Escape");
    expect(seen).toEqual(["desk:Escape"]);
    expect(document.activeElement).toBe(document.body);
  });

  it("between unrelated layers, offers the one holding the focus first", () => {
    const seen: string[] = [];
    layer("desk", byId("desk"), seen);
    layer("other", byId("other"), seen);
    press(byId("make"), "j");
    expect(seen).toEqual(["desk:j", "other:j"]);
  });

  it("forgets a removed layer and one whose element left the page", () => {
    const seen: string[] = [];
    const remove = keyboard.add(() => byId("desk"), (p) => void seen.push(`desk:${p.key}`));
    layer("panel", byId("panel"), seen);
    byId("panel").remove();
    press(document.body, "x");
    remove();
    press(document.body, "y");
    expect(seen).toEqual(["desk:x"]);
  });
});
