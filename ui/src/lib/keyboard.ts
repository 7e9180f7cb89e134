// One keyboard layer for the whole app (issue 33). Every desk, panel and dialog
// registers its keys here with the element it owns (`useKeys`); one window listener
// routes each key press, so the rules below hold everywhere instead of being
// re-stated, slightly differently, by each component:
//
// - In a text field a plain key is the field's: no layer sees it. Only chords
//   (Ctrl, Alt or Meta held) reach the layers, which decide (Ctrl+S saves, Ctrl+Z in
//   a field stays the field's undo).
// - Escape in a text field leaves the field and nothing more (what was typed stays);
//   inside a dialog the keyboard stays the dialog's. Only a second Escape closes.
// - Enter or Space on a button, link or checkbox does what the control shows; the
//   arrows on a select choose its option.
// - Any other key is offered to the layers innermost first: the layer whose element
//   is inside another's goes first (a batch inside the delivery desk, the desk inside
//   the app); between unrelated ones, the one holding the focus, then the newest. The
//   first that takes it ends the routing. An open dialog (`modal`) hides every layer
//   outside it.
// - Escape that nothing took gives the keyboard back to the page.
import { onMount } from "svelte";
import { activatesItself, isTextEntry } from "./keys";

export interface KeyPress {
  readonly event: KeyboardEvent;
  /** The key, lower-cased when it is one letter ("n" for N and n; "Escape", "F2"). */
  readonly key: string;
  /** Whether the focus is in a text field (then only chords are offered). */
  readonly typing: boolean;
  /** Whether Ctrl, Alt or Meta is held. */
  readonly chord: boolean;
  readonly target: EventTarget | null;
}

/** A layer's keys: true when it took the key (then nothing else sees it, and its default is prevented). */
export type KeyHandler = (press: KeyPress) => boolean | void;

export interface LayerOptions {
  /** A dialog: while it is open no layer outside it sees a key, and Escape in its fields keeps the focus in it. */
  modal?: boolean;
  /** Offered every key, after the others, dialog or not (the text size's chords). */
  everywhere?: boolean;
}

interface Layer {
  root: () => Element | null | undefined;
  handle: KeyHandler;
  modal: boolean;
  everywhere: boolean;
  /** Registration order: between unrelated layers, the newer goes first. */
  serial: number;
}

/** Keys that move within a select's options (its own, never the app's). */
const SELECT_KEYS = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown"]);

export class Keyboard {
  private layers: Layer[] = [];
  private serial = 0;
  private installedOn: Window | null = null;

  /** Adds a layer over `root`; returns what removes it. */
  add(root: () => Element | null | undefined, handle: KeyHandler, options: LayerOptions = {}): () => void {
    const layer: Layer = { root, handle, modal: Boolean(options.modal), everywhere: Boolean(options.everywhere), serial: ++this.serial };
    this.layers.push(layer);
    return () => (this.layers = this.layers.filter((l) => l !== layer));
  }

  /** Listens on `target` (once): the capture phase, so no element's own handler runs first. */
  install(target: Window = window) {
    if (this.installedOn === target) return;
    this.installedOn = target;
    target.addEventListener("keydown", (event) => this.dispatch(event), { capture: true });
  }

  /** The open dialog innermost of all, if any. */
  private dialog(): Element | null {
    const open = this.live().filter((l) => l.modal);
    return this.ordered(open, null)[0]?.root() ?? null;
  }

  private live(): Layer[] {
    return this.layers.filter((l) => !l.everywhere && l.root()?.isConnected);
  }

  /** `layers` innermost first; between unrelated ones, the one holding `focus`, then the newest. */
  private ordered(layers: Layer[], focus: Node | null): Layer[] {
    const roots = new Map(layers.map((l) => [l, l.root()!]));
    const depth = (l: Layer) => layers.filter((o) => o !== l && roots.get(o)!.contains(roots.get(l)!) && roots.get(o) !== roots.get(l)).length;
    const holds = (l: Layer) => (focus && roots.get(l)!.contains(focus) ? 1 : 0);
    return [...layers].sort((a, b) => depth(b) - depth(a) || holds(b) - holds(a) || b.serial - a.serial);
  }

  /** The layers a key is offered to, in order, with the open dialog's root (if any). */
  route(focus: Node | null): { layers: Layer[]; dialog: Element | null } {
    const dialog = this.dialog();
    const inside = this.live().filter((l) => !dialog || dialog.contains(l.root()!));
    const everywhere = this.layers.filter((l) => l.everywhere);
    return { layers: [...this.ordered(inside, focus), ...everywhere], dialog };
  }

  dispatch(event: KeyboardEvent) {
    if (event.defaultPrevented || event.isComposing) return;
    const target = event.target;
    const typing = isTextEntry(target);
    const chord = event.ctrlKey || event.altKey || event.metaKey;
    const { layers, dialog } = this.route(target instanceof Node ? target : null);
    if (!chord && typing) {
      if (event.key === "Escape") {
        event.preventDefault();
        leave(target as HTMLElement, dialog);
      }
      return;
    }
    if (!chord && (event.key === "Enter" || event.key === " ") && activatesItself(target)) return;
    if (!chord && target instanceof HTMLSelectElement && SELECT_KEYS.has(event.key)) return;
    const press: KeyPress = { event, key: event.key.length === 1 ? event.key.toLowerCase() : event.key, typing, chord, target };
    for (const layer of layers) {
      if (layer.handle(press)) {
        event.preventDefault();
        event.stopPropagation();
        return;
      }
    }
    if (event.key === "Escape" && !chord) {
      const focused = document.activeElement;
      if (focused instanceof HTMLElement && focused !== document.body && focused !== dialog) leave(focused, dialog);
    }
  }
}

/** Leaves `element`: the page has the keyboard again, or the open dialog keeps it. */
function leave(element: HTMLElement, dialog: Element | null) {
  element.blur();
  if (dialog instanceof HTMLElement) dialog.focus();
}

/** The app's keyboard. */
export const keyboard = new Keyboard();

/**
 * Registers a component's keys while it is mounted, over the element `root` returns
 * (bound with `bind:this`). Call it while the component is created.
 */
export function useKeys(root: () => Element | null | undefined, handle: KeyHandler, options: LayerOptions = {}) {
  onMount(() => {
    keyboard.install();
    return keyboard.add(root, handle, options);
  });
}
