// The content desk's state without a window (issue 33): a package is imported only
// after its preview and from the same path, Esc drops the preview with nothing
// stored, a failed read says why, and an import chooses the assessment it made.
import { describe, expect, it, vi } from "vitest";
import { ContentLibrary, type ContentCommands } from "./contentLibrary.svelte";
import type { DeliveryAssessment, PackageReport } from "../../lib/api";

const report = (preview: boolean, assessmentId = "30"): PackageReport => ({ preview, qtiVersion: "2.1", assessmentId, assessmentName: "Biology", assessment: "created", questions: [], skipped: [], images: 0, topicsCreated: 0, notes: [] });

function commands(assessments: DeliveryAssessment[]) {
  return {
    assessments: vi.fn(async () => assessments),
    questions: vi.fn(async (id: string) => [{ id: `${id}1`, description: "Essay", maxScore: 4, rubricId: null, rubricName: null }]),
    importPackage: vi.fn(async (_path: string, preview: boolean) => report(preview)),
  } satisfies ContentCommands;
}

const biology = [
  { id: "10", name: "Chemistry" },
  { id: "30", name: "Biology" },
];

describe("ContentLibrary", () => {
  it("imports only what was previewed, from the same path, and then shows that assessment", async () => {
    const given = commands(biology);
    const library = new ContentLibrary(given);
    await library.load();
    expect(library.assessment?.name).toBe("Chemistry");
    await library.confirm();
    expect(given.importPackage).not.toHaveBeenCalled();
    await library.preview("/home/me/biology.zip");
    expect(given.importPackage).toHaveBeenLastCalledWith("/home/me/biology.zip", true);
    library.path = "/home/me/other.zip";
    library.path = "/home/me/biology.zip";
    await library.confirm();
    expect(given.importPackage).toHaveBeenLastCalledWith("/home/me/biology.zip", false);
    expect(library.report?.preview).toBe(false);
    expect(library.assessment?.name).toBe("Biology");
    expect(library.questions?.map((q) => q.id)).toEqual(["301"]);
  });

  it("drops a preview on Esc, storing nothing, and ignores an empty path", async () => {
    const given = commands(biology);
    const library = new ContentLibrary(given);
    await library.preview("   ");
    expect(given.importPackage).not.toHaveBeenCalled();
    await library.preview("/tmp/p.zip");
    library.drop();
    expect(library.report).toBeNull();
    await library.confirm();
    expect(given.importPackage).toHaveBeenCalledTimes(1);
  });

  it("says why a package could not be read, and keeps nothing of an earlier report", async () => {
    const given = commands(biology);
    given.importPackage.mockRejectedValueOnce({ kind: "server", message: "not a zip archive" });
    const library = new ContentLibrary(given);
    await library.preview("/tmp/notes.txt");
    expect(library.error).toBe("not a zip archive");
    expect(library.report).toBeNull();
    expect(library.working).toBeNull();
  });

  it("keeps the choice within the list, and clears the last message when moving on", async () => {
    const library = new ContentLibrary(commands(biology));
    await library.load();
    library.message = "Rubric saved.";
    await library.step(5);
    expect(library.chosen).toBe(1);
    expect(library.message).toBeNull();
    await library.step(-9);
    expect(library.chosen).toBe(0);
    library.move(3);
    expect(library.highlighted).toBe(0);
  });
});
