// The drafts, kept on disk by the Rust side (src-tauri/src/drafts.rs) rather than in
// localStorage, which WebKit writes lazily: a crash would lose the last changes. The
// store answers synchronously from memory and writes every change through, in
// order, so that an older version never lands after a newer one.
import { draftCommand, type DraftCommand, type KeptDraft } from "./api";
import type { DraftStore } from "./scoring";

export class DurableDraftStore implements DraftStore {
  private items = new Map<string, string>();
  private writes: Promise<unknown> = Promise.resolve();
  /** The last write that failed, in words; shown by the scoring view. */
  problem: string | null = null;

  constructor(private readonly write: (command: DraftCommand, args: Record<string, unknown>) => Promise<unknown> = draftCommand) {}

  /**
   * Reads the drafts kept for the server in use (again after the server changed);
   * drafts an older version left in localStorage move over.
   */
  async load(legacy: Storage | null = globalThis.localStorage ?? null): Promise<void> {
    await this.writes;
    const kept = (await this.write("kept_drafts", {})) as KeptDraft[];
    this.items.clear();
    for (const { key, text } of kept) this.items.set(key, text);
    if (!legacy) return;
    for (const key of Object.keys(legacy)) {
      if (!key.startsWith("scoredesk.draft.")) continue;
      const text = legacy.getItem(key);
      if (text !== null && !this.items.has(key)) this.setItem(key, text);
      legacy.removeItem(key);
    }
    await this.writes;
  }

  get length(): number {
    return this.items.size;
  }

  key(index: number): string | null {
    return [...this.items.keys()][index] ?? null;
  }

  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }

  setItem(key: string, value: string): void {
    this.items.set(key, value);
    this.enqueue("keep_draft", { key, text: value });
  }

  removeItem(key: string): void {
    this.items.delete(key);
    this.enqueue("forget_draft", { key });
  }

  /** Resolves once every change so far is on disk. */
  flushed(): Promise<unknown> {
    return this.writes;
  }

  private enqueue(command: DraftCommand, args: Record<string, unknown>) {
    this.writes = this.writes
      .then(() => this.write(command, args))
      .then(
        () => (this.problem = null),
        (error) => (this.problem = String((error as { message?: string }).message ?? error)),
      );
  }
}

/** The app's one store of drafts. */
export const drafts = new DurableDraftStore();
