// @vitest-environment jsdom
// The comment bank's writing without a window (issue 33): Esc leaves the field
// and keeps the keyboard in the dialog; words changed are never thrown away by one
// Esc: the bank says so first, and a second Esc goes back to the list.
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render } from "@testing-library/svelte";
import { tick } from "svelte";

import CommentBank from "./CommentBank.svelte";

afterEach(cleanup);

function mount() {
  const props = {
    target: "Overall comments",
    entries: [],
    current: "Good",
    problem: null,
    busy: false,
    oninsert: vi.fn(),
    onadd: vi.fn(async () => {}),
    onedit: vi.fn(async () => {}),
    onforget: vi.fn(async () => {}),
    onclose: vi.fn(),
  };
  render(CommentBank, { props });
  return props;
}

const bank = () => document.getElementById("comment-bank")!;
const text = () => document.getElementById("bank-text") as HTMLTextAreaElement | null;

describe("CommentBank", () => {
  it("keeps changed words through one Esc outside the field and says so", async () => {
    const props = mount();
    await tick();
    await fireEvent.keyDown(bank(), { key: "a" });
    await tick();
    expect(text()?.value).toBe("Good");
    await fireEvent.input(text()!, { target: { value: "Good work" } });
    await fireEvent.keyDown(text()!, { key: "Escape" });
    expect(document.activeElement).toBe(bank());
    await fireEvent.keyDown(bank(), { key: "Escape" });
    await tick();
    expect(text()?.value).toBe("Good work");
    expect(document.getElementById("bank-unsaved")?.textContent).toContain("not kept yet");
    await fireEvent.keyDown(bank(), { key: "Escape" });
    await tick();
    expect(text()).toBeNull();
    expect(props.onclose).not.toHaveBeenCalled();
    expect(props.onadd).not.toHaveBeenCalled();
  });

  it("goes back to the list at once when nothing was changed", async () => {
    mount();
    await tick();
    await fireEvent.keyDown(bank(), { key: "a" });
    await tick();
    await fireEvent.keyDown(text()!, { key: "Escape" });
    await fireEvent.keyDown(bank(), { key: "Escape" });
    await tick();
    expect(text()).toBeNull();
    expect(document.getElementById("bank-unsaved")).toBeNull();
  });
});
