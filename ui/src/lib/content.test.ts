import { describe, expect, it } from "vitest";
import { describeImport, describeKeys, describeKind } from "./content";
import type { PackageReport } from "./bindings/PackageReport";

const question = (outcome: string, position: number) => ({
  position, item: `q${position}`, title: `Q${position}`, text: `Question ${position}?`, questionId: String(100 + position), outcome,
  revision: outcome === "revised" ? 2 : 1, questionType: "essay", maxScore: 4, choices: 0, scoring: "scorer", keys: [] as string[], numericKeys: false, parts: [] as string[], pickedBlanks: 0, notes: [],
});

const report = (over: Partial<PackageReport>): PackageReport => ({
  preview: true, qtiVersion: "2.x", assessmentId: "501", assessmentName: "Biology", assessment: "created",
  questions: [question("created", 1), question("created", 2)], skipped: [], images: 1, topicsCreated: 0, notes: [],
  ...over,
});

describe("describeImport", () => {
  it("says what a preview would create and what it skips", () => {
    const skipped = [{ item: "q9", file: "q9.xml", reason: "no" }];
    expect(describeImport(report({ skipped }))).toBe("Importing will create “Biology” with 2 questions (QTI 2.x, 1 image); 1 item is not imported.");
  });
  it("names a Moodle XML bank by its format, not as a QTI version", () => {
    expect(describeImport(report({ qtiVersion: "Moodle XML" }))).toBe("Importing will create “Biology” with 2 questions (Moodle XML, 1 image).");
  });
  it("says what an import did", () => {
    expect(describeImport(report({ preview: false }))).toBe("“Biology” was imported with 2 questions: it is assessment 501.");
  });
  it("counts revisions of an update", () => {
    const questions = [question("revised", 1), question("unchanged", 2)];
    expect(describeImport(report({ assessment: "updated", questions }))).toBe("Importing will update “Biology”: 1 new revision.");
  });
  it("says when nothing would change", () => {
    expect(describeImport(report({ assessment: "unchanged" }))).toBe("“Biology” is already here as it is in this package: importing changes nothing.");
  });
});

describe("describeKind", () => {
  it("names a matching by its rows and options and its keys as pairs", () => {
    const matching = { ...question("created", 1), questionType: "matching", choices: 3, parts: ["Frog", "Eagle"], keys: ["Frog → Amphibian", "Eagle → Bird"] };
    expect(describeKind(matching)).toBe("matching (2 rows, 3 options)");
    expect(describeKeys(matching)).toBe("pairs Frog → Amphibian; Eagle → Bird");
  });
  it("names blanks by their count and their keys by blank, numbers among them", () => {
    const blanks = {
      ...question("created", 1),
      questionType: "fill_in_blanks",
      numericKeys: true,
      parts: ["Blank 1", "Blank 2"],
      keys: ["Blank 1: Paris (1)", "Blank 2: 1961 (2)"],
    };
    expect(describeKind(blanks)).toBe("fill in the blanks (2 blanks)");
    expect(describeKind({ ...blanks, parts: ["Blank 1", "Blank 2", "Blank 3"], pickedBlanks: 2 })).toBe("fill in the blanks (3 blanks, 2 with options)");
    expect(describeKeys(blanks)).toBe("accepts Blank 1: Paris (1); Blank 2: 1961 (2)");
  });
  it("names a point question by its areas and its keys as the areas that mark it", () => {
    const point = { ...question("created", 1), questionType: "point", choices: 3, keys: ["a circle of radius 12 round (118, 184) (1)", "a circle of radius 12 round (96, 114) (1)"] };
    expect(describeKind(point)).toBe("places on a picture (3 areas)");
    expect(describeKind({ ...point, choices: 1 })).toBe("places on a picture (1 area)");
    expect(describeKeys(point)).toBe("marked by a circle of radius 12 round (118, 184) (1); a circle of radius 12 round (96, 114) (1)");
  });
  it("names choices, number entries and typed keys as before", () => {
    expect(describeKind({ ...question("created", 1), questionType: "multiple_choice", choices: 4 })).toBe("multiple choice (4 choices)");
    expect(describeKind({ ...question("created", 1), questionType: "text_entry", numericKeys: true })).toBe("number entry");
    expect(describeKeys({ ...question("created", 1), keys: ["Au"] })).toBe("accepts Au");
    expect(describeKind(question("created", 1))).toBe("essay");
  });
});
