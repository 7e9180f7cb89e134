import { describe, expect, it } from "vitest";
import { rememberedSize, sizeKey, steppedSize } from "./textSize";

const key = (key: string, ctrlKey = true) => ({ key, ctrlKey, metaKey: false, altKey: false });

describe("the text size", () => {
  it("takes Ctrl+plus, Ctrl+minus and Ctrl+0 only", () => {
    expect(sizeKey(key("="))).toBe(1);
    expect(sizeKey(key("+"))).toBe(1);
    expect(sizeKey(key("-"))).toBe(-1);
    expect(sizeKey(key("0"))).toBe(0);
    expect(sizeKey(key("+", false))).toBeNull();
    expect(sizeKey(key("s"))).toBeNull();
  });

  it("steps through the sizes and stops at either end", () => {
    expect(steppedSize(1, 1)).toBe(1.1);
    expect(steppedSize(1.1, 1)).toBe(1.25);
    expect(steppedSize(2, 1)).toBe(2);
    expect(steppedSize(0.8, -1)).toBe(0.8);
    expect(steppedSize(1.5, 0)).toBe(1);
    expect(steppedSize(1.3, -1)).toBe(1.1);
  });

  it("remembers only a size it offers", () => {
    expect(rememberedSize({ getItem: () => "1.25" })).toBe(1.25);
    expect(rememberedSize({ getItem: () => "7" })).toBe(1);
    expect(rememberedSize({ getItem: () => null })).toBe(1);
  });
});
