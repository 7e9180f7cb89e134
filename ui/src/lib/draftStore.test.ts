import { describe, expect, it } from "vitest";
import { DurableDraftStore } from "./draftStore";

/** A stand-in for the Rust side's files: what the commands would leave on disk. */
function fakeDisk(delays: number[] = []) {
  const files = new Map<string, string>();
  const write = async (command: string, args: Record<string, unknown>) => {
    await new Promise((resolve) => setTimeout(resolve, delays.shift() ?? 0));
    if (command === "kept_drafts") return [...files].map(([key, text]) => ({ key, text }));
    if (command === "keep_draft") files.set(String(args.key), String(args.text));
    if (command === "forget_draft") files.delete(String(args.key));
    return null;
  };
  return { files, write };
}

describe("the durable draft store", () => {
  it("writes changes through in order, even when an earlier write is slower", async () => {
    const disk = fakeDisk([0, 30, 0]);
    const store = new DurableDraftStore(disk.write);
    await store.load(null);
    store.setItem("scoredesk.draft.1.2", "first");
    store.setItem("scoredesk.draft.1.2", "second");
    expect(store.getItem("scoredesk.draft.1.2")).toBe("second");
    await store.flushed();
    expect(disk.files.get("scoredesk.draft.1.2")).toBe("second");
    store.removeItem("scoredesk.draft.1.2");
    await store.flushed();
    expect(disk.files.size).toBe(0);
  });

  it("loading again (another server) shows only what that server's folder holds", async () => {
    const disk = fakeDisk();
    const store = new DurableDraftStore(disk.write);
    await store.load(null);
    store.setItem("scoredesk.draft.1.2", "built-in server");
    await store.flushed();
    disk.files.clear();
    disk.files.set("scoredesk.draft.3.4", "remote server");
    await store.load(null);
    expect(store.getItem("scoredesk.draft.1.2")).toBeNull();
    expect(store.getItem("scoredesk.draft.3.4")).toBe("remote server");
    expect(store.length).toBe(1);
  });

  it("loads what is on disk and moves drafts over from localStorage", async () => {
    const disk = fakeDisk();
    disk.files.set("scoredesk.draft.5.6", "on disk");
    const legacy = new Map<string, string>([
      ["scoredesk.draft.7.8", "in localStorage"],
      ["scoredesk.blind", "true"],
    ]);
    const storage = {
      getItem: (k: string) => legacy.get(k) ?? null,
      removeItem: (k: string) => void legacy.delete(k),
    } as unknown as Storage;
    Object.defineProperty(storage, "scoredesk.draft.7.8", { value: "", enumerable: true });
    Object.defineProperty(storage, "scoredesk.blind", { value: "", enumerable: true });
    const store = new DurableDraftStore(disk.write);
    await store.load(storage);
    expect(store.getItem("scoredesk.draft.5.6")).toBe("on disk");
    expect(disk.files.get("scoredesk.draft.7.8")).toBe("in localStorage");
    expect(legacy.has("scoredesk.draft.7.8")).toBe(false);
    expect(legacy.get("scoredesk.blind")).toBe("true");
    expect(store.length).toBe(2);
  });
});
