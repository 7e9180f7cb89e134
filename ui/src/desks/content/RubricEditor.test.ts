// @vitest-environment jsdom
// The rubric editor without a window (issue 33): Esc leaves the field first, and
// one Esc never throws away what was typed: an editor with changes closes only
// when Esc is pressed again after it says so; an unchanged one closes at once.
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/svelte";
import { tick } from "svelte";

vi.mock("@tauri-apps/api/core", () => ({ invoke: vi.fn(), Channel: class {} }));

import RubricEditor from "./RubricEditor.svelte";
import type { RubricForm } from "../../lib/api";

const form: RubricForm = {
  questionId: "11",
  questionMax: 4,
  rubricId: 3,
  name: "Osmosis",
  instructions: "",
  dimensions: [{ name: "Explanation", instructions: "", maxScore: 4, levels: [] }],
};

afterEach(cleanup);

describe("RubricEditor", () => {
  it("closes an unchanged editor on Esc outside a field", async () => {
    const onclose = vi.fn();
    render(RubricEditor, { form, onclose });
    const name = document.getElementById("rubric-name") as HTMLInputElement;
    await fireEvent.keyDown(name, { key: "Escape" });
    expect(onclose).not.toHaveBeenCalled();
    await fireEvent.keyDown(document.getElementById("rubric-editor")!, { key: "Escape" });
    expect(onclose).toHaveBeenCalledWith(null);
  });

  it("keeps changes through one Esc, says so, and closes only on the second", async () => {
    const onclose = vi.fn();
    render(RubricEditor, { form, onclose });
    const name = document.getElementById("rubric-name") as HTMLInputElement;
    await fireEvent.input(name, { target: { value: "Osmosis, clearer" } });
    await fireEvent.keyDown(name, { key: "Escape" });
    const editor = document.getElementById("rubric-editor")!;
    await fireEvent.keyDown(editor, { key: "Escape" });
    await tick();
    expect(onclose).not.toHaveBeenCalled();
    expect(screen.getByRole("alert").textContent).toContain("changes not saved");
    expect((document.getElementById("rubric-name") as HTMLInputElement).value).toBe("Osmosis, clearer");
    await fireEvent.keyDown(editor, { key: "Escape" });
    expect(onclose).toHaveBeenCalledWith(null);
  });
});
