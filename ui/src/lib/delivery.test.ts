import { describe, expect, it } from "vitest";
import { describeSnapshotDate, snapshotName } from "./delivery";

describe("the delivery desk's words", () => {
  it("names a new snapshot after its assessment and the day", () => {
    expect(snapshotName("Biology", new Date("2026-11-24T10:00:00Z"))).toBe("Biology – 2026-11-24");
  });
  it("shows the server's times to the minute, in UTC", () => {
    expect(describeSnapshotDate("2026-11-24T09:30:12.345")).toBe("2026-11-24 09:30 UTC");
    expect(describeSnapshotDate("garbled")).toBe("garbled");
  });
});
