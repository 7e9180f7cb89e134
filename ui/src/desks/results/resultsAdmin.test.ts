// The results desk's state without a window (issue 33): only the status changes
// the spec permits from where a result is are sent, a refusal stays until the next
// action replaces it, extra time is refused by name when it cannot apply, and a
// purge goes ahead only from its plan and is followed until its entry is done.
import { describe, expect, it, vi } from "vitest";
import { ResultsAdmin, type ResultsCommands } from "./resultsAdmin.svelte";
import type { AdminResult, AuditEntry } from "../../lib/api";

const result = (id: string, status: number | null, changes: AdminResult["changes"]): AdminResult => ({ id, participant: `p-${id}`, group: "A", status, extraTime: null, totalScore: 3, maxScore: 4, band: "Pass", finished: null, toScore: 0, changes });
const entry = (inQueue: boolean, affected: number): AuditEntry => ({ id: "40", requestType: "PurgeResult", requestData: "7", requested: "2026-11-27T09:00:00Z", inQueue, processed: inQueue ? null : "2026-11-27T09:00:01Z", successful: inQueue ? null : true, affected });

function commands(listed: AdminResult[]) {
  const given = {
    results: vi.fn(async () => listed),
    auditLog: vi.fn(async () => [] as AuditEntry[]),
    auditEntry: vi.fn(async () => entry(false, 1)),
    change: vi.fn(async (id: string, to: number | null, seconds: number | null) => ({ ...listed.find((r) => r.id === id)!, status: to, extraTime: seconds })),
    plan: vi.fn(async (target) => ({ target, results: 1, description: "Result 7" })),
    purge: vi.fn(async () => entry(true, 0)),
  } satisfies ResultsCommands;
  return given;
}

describe("ResultsAdmin", () => {
  it("sends only a permitted change, and says why another is refused until the next action", async () => {
    const given = commands([result("7", 1, [{ to: 6, meaning: "pause" }]), result("8", null, [])]);
    const admin = new ResultsAdmin("1", given);
    await admin.load();
    await admin.changeTo("pause");
    expect(given.change).toHaveBeenCalledWith("7", 6, null);
    expect(admin.message).toBe("Result 7 is paused.");
    admin.move(1);
    await admin.changeTo("resume");
    expect(given.change).toHaveBeenCalledTimes(1);
    expect(admin.error).toContain("cannot be resumed");
    // A reload does not take the refusal away; it was no load's failure.
    await admin.load();
    expect(admin.error).toContain("cannot be resumed");
  });

  it("refuses extra time by name for a finished result and a malformed number", async () => {
    const given = commands([result("7", 1, []), result("8", null, [])]);
    const admin = new ResultsAdmin("1", given);
    await admin.load();
    expect(await admin.setExtraTime("ten")).toBe(false);
    expect(admin.error).not.toBeNull();
    expect(await admin.setExtraTime("10")).toBe(true);
    expect(given.change).toHaveBeenCalledWith("7", null, 600);
    admin.move(1);
    expect(admin.takesExtraTime()).toBe(false);
    expect(admin.error).toContain("extra time applies only while it is in progress or paused");
  });

  it("purges only from a plan, and follows the audit entry until it leaves the queue", async () => {
    vi.useFakeTimers();
    const given = commands([result("7", 1, [])]);
    given.auditEntry.mockResolvedValueOnce(entry(true, 0)).mockResolvedValueOnce(entry(false, 1));
    const admin = new ResultsAdmin("1", given);
    await admin.load();
    await admin.confirm();
    expect(given.purge).not.toHaveBeenCalled();
    await admin.ask({ kind: "result", value: "7" });
    admin.cancel();
    await admin.confirm();
    expect(given.purge).not.toHaveBeenCalled();
    await admin.ask({ kind: "result", value: "7" });
    await admin.confirm();
    expect(given.purge).toHaveBeenCalledWith({ kind: "result", value: "7" });
    expect(admin.following?.entry.inQueue).toBe(true);
    await vi.advanceTimersByTimeAsync(500);
    expect(admin.following?.entry.inQueue).toBe(false);
    expect(given.results).toHaveBeenCalledTimes(2);
    admin.stop();
    vi.useRealTimers();
  });
});
