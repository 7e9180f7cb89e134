// @vitest-environment jsdom
// The desks' message line without a window (issue 33, defect 8): a live region
// that is in the page before it speaks, empty and taking no room when silent, and
// brought into sight when it says something.
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, render } from "@testing-library/svelte";

import Notice from "./Notice.svelte";

afterEach(cleanup);

describe("Notice", () => {
  it("is a live region before it speaks, then says the message in sight", async () => {
    const scrolled = vi.fn();
    Element.prototype.scrollIntoView = scrolled;
    const { container, rerender } = render(Notice, { id: "delivery-message", message: null });
    const line = container.querySelector("#delivery-message")!;
    expect(line.getAttribute("role")).toBe("status");
    expect(line.getAttribute("aria-live")).toBe("polite");
    expect(line.textContent).toBe("");
    expect(line.getAttribute("data-shown")).toBe("false");
    expect(scrolled).not.toHaveBeenCalled();
    await rerender({ id: "delivery-message", message: "Snapshot 3 taken." });
    expect(container.querySelector("#delivery-message")).toBe(line);
    expect(line.textContent).toBe("Snapshot 3 taken.");
    expect(line.getAttribute("data-shown")).toBe("true");
    expect(scrolled).toHaveBeenCalledWith({ block: "nearest" });
  });

  it("speaks up at once for a refusal", () => {
    const { container } = render(Notice, { id: "delivery-error", message: "Refused.", tone: "alert" });
    const line = container.querySelector("#delivery-error")!;
    expect(line.getAttribute("role")).toBe("alert");
    expect(line.getAttribute("aria-live")).toBe("assertive");
  });
});
