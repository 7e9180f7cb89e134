// @vitest-environment jsdom
// The rename-or-delete dialog without a window (issue 33): keys never reach the
// desk behind it, Esc leaves the field before it closes the dialog and never
// renames, and the server's refusal stays in the dialog next to its question.
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/svelte";
import { tick } from "svelte";

const invoke = vi.fn();
vi.mock("@tauri-apps/api/core", () => ({ invoke: (...args: unknown[]) => invoke(...args), Channel: class {} }));

import RenameOrDelete from "./RenameOrDelete.svelte";
import { keyboard } from "../../lib/keyboard";

afterEach(() => {
  cleanup();
  invoke.mockReset();
});

function mount(mode: "rename" | "delete") {
  const ondone = vi.fn();
  const onclose = vi.fn();
  render(RenameOrDelete, { made: "snapshot", id: "7", name: "Typo", mode, ondone, onclose });
  return { ondone, onclose };
}

describe("RenameOrDelete", () => {
  it("renames with the typed name, trimmed, through the app's command", async () => {
    invoke.mockResolvedValue(undefined);
    const { ondone } = mount("rename");
    const field = screen.getByLabelText("New name") as HTMLInputElement;
    expect(document.activeElement).toBe(field);
    await fireEvent.input(field, { target: { value: "  June sitting  " } });
    await fireEvent.submit(field.form!);
    await vi.waitFor(() => expect(ondone).toHaveBeenCalledWith("June sitting"));
    expect(invoke).toHaveBeenCalledWith("rename_made", { made: "snapshot", id: "7", name: "  June sitting  " });
  });

  it("keeps every key from the desk behind it", async () => {
    // The desk behind is a layer of the app's keyboard over the page, as a desk is.
    const behind = vi.fn(() => true);
    const remove = keyboard.add(() => document.body, behind);
    mount("delete");
    await fireEvent.keyDown(screen.getByRole("button", { name: /Delete/ }), { key: "q" });
    await fireEvent.keyDown(screen.getByRole("dialog"), { key: "Escape" });
    remove();
    expect(behind).not.toHaveBeenCalled();
  });

  it("leaves the field on the first Esc and closes on the second, renaming nothing", async () => {
    const { onclose, ondone } = mount("rename");
    const field = screen.getByLabelText("New name");
    await fireEvent.keyDown(field, { key: "Escape" });
    expect(onclose).not.toHaveBeenCalled();
    expect(document.activeElement).not.toBe(field);
    await fireEvent.keyDown(screen.getByRole("dialog"), { key: "Escape" });
    expect(onclose).toHaveBeenCalledTimes(1);
    expect(ondone).not.toHaveBeenCalled();
    expect(invoke).not.toHaveBeenCalled();
  });

  it("shows the server's refusal in the dialog and stays open", async () => {
    invoke.mockRejectedValue({ kind: "server", message: "AssessmentSnapshot 7 is in use (1 print batch), so it cannot be deleted; it can be renamed" });
    const { ondone, onclose } = mount("delete");
    await fireEvent.click(screen.getByRole("button", { name: /Delete/ }));
    await tick();
    const refusal = await screen.findByRole("alert");
    expect(refusal.textContent).toContain("is in use (1 print batch)");
    expect(ondone).not.toHaveBeenCalled();
    expect(onclose).not.toHaveBeenCalled();
  });
});
