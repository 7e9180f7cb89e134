// The delivery desk's state without a window (issue 33): the desk comes back where
// the coordinator left it, a snapshot's batches answer for that snapshot only, a
// new batch is highlighted for Enter, moving on clears what the last action said,
// and a deleted snapshot leaves the highlight on one that is there.
import { describe, expect, it, vi } from "vitest";
import { DeliveryShelf, type DeliveryCommands } from "./deliveryShelf.svelte";
import type { PrintBatch, Snapshot } from "../../lib/api";

const snapshot = (id: string, name = `Snapshot ${id}`): Snapshot => ({ id, assessmentId: id.slice(0, 1), name, created: "2026-11-27T09:00:00Z", expires: null });
const batch = (id: string, snapshotId: string): PrintBatch => ({ id, name: `Hall ${id}`, snapshotId, groupId: "1", groupName: "Year 10", created: "2026-11-27T09:00:00Z", lastUploaded: null });

function commands() {
  return {
    assessments: vi.fn(async () => [
      { id: "1", name: "Biology" },
      { id: "2", name: "Chemistry" },
    ]),
    snapshots: vi.fn(async (assessmentId: string) => (assessmentId === "2" ? [snapshot("21"), snapshot("22"), snapshot("23")] : [snapshot("11")])),
    takeSnapshot: vi.fn(async (_a: string, name: string) => snapshot("30", name)),
    batches: vi.fn(async (snapshotId: string) => [batch(`${snapshotId}0`, snapshotId), batch(`${snapshotId}1`, snapshotId)]),
    makeBatch: vi.fn(async (snapshotId: string, _group: string, name: string) => ({ ...batch("99", snapshotId), name })),
    print: vi.fn(async () => "window"),
  } satisfies DeliveryCommands;
}

describe("DeliveryShelf", () => {
  it("comes back to the assessment, snapshot and batch the coordinator left", async () => {
    const shelf = new DeliveryShelf({ assessmentId: "2", snapshotId: "22", batchId: "221" }, commands());
    await shelf.load();
    expect(shelf.assessment?.name).toBe("Chemistry");
    expect(shelf.snapshot?.id).toBe("22");
    await shelf.loadBatches();
    expect(shelf.openBatch?.id).toBe("221");
    expect(shelf.place).toEqual({ assessmentId: "2", snapshotId: "22", batchId: "221" });
    // Taken up once: back in the list, the next visit of the snapshot opens nothing.
    shelf.close();
    await shelf.loadBatches();
    expect(shelf.openBatch).toBeNull();
  });

  it("offers a snapshot name from the assessment and the day, and highlights the snapshot taken", async () => {
    const given = commands();
    const shelf = new DeliveryShelf(undefined, given);
    await shelf.load();
    await shelf.choose(0, new Date("2026-11-27T10:00:00Z"));
    expect(shelf.name).toContain("Biology");
    expect(await shelf.takeSnapshot("2026-12-31")).toBe(true);
    expect(given.takeSnapshot).toHaveBeenCalledWith("1", shelf.name, "2026-12-31");
    expect(shelf.snapshot?.id).toBe("30");
    expect(shelf.message).toContain("taken");
  });

  it("lists the batches of the snapshot highlighted, not of one left meanwhile", async () => {
    const given = commands();
    let answer: (batches: PrintBatch[]) => void = () => {};
    const shelf = new DeliveryShelf({ assessmentId: "2", snapshotId: null, batchId: null }, given);
    await shelf.load();
    given.batches.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    const late = shelf.loadBatches();
    shelf.moveSnapshot(1);
    await shelf.loadBatches();
    answer([batch("210", "21")]);
    await late;
    expect(shelf.batches?.map((b) => b.snapshotId)).toEqual(["22", "22"]);
  });

  it("highlights a new batch for Enter, and moving on clears what was said", async () => {
    const shelf = new DeliveryShelf(undefined, commands());
    await shelf.load();
    await shelf.loadBatches();
    shelf.moveBatch(1);
    expect(await shelf.makeBatch("1", "Hall B")).toBe(true);
    expect(shelf.highlightedBatch).toBe(0);
    expect(shelf.batchMessage).toContain("Enter opens it");
    expect(shelf.open()).toBe(true);
    expect(shelf.openBatch?.name).toBe("Hall B");
    expect(shelf.batchMessage).toBeNull();
  });

  it("keeps the highlight on a snapshot that is there after one is deleted", async () => {
    const shelf = new DeliveryShelf({ assessmentId: "2", snapshotId: "23", batchId: null }, commands());
    await shelf.load();
    expect(shelf.highlighted).toBe(2);
    shelf.retired(snapshot("23"), null);
    expect(shelf.highlighted).toBe(1);
    expect(shelf.message).toBe("Snapshot 23 “Snapshot 23” deleted.");
    shelf.retired(snapshot("22"), "June sitting");
    expect(shelf.snapshot?.name).toBe("June sitting");
  });
});
