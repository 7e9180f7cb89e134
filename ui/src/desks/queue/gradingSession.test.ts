// Grade by question without a window: the end of a question and the question
// offered after it appear together (the grading window test once read "No other
// question has tasks to score" while the list of others was still being read).
import { describe, expect, it } from "vitest";
import { GradingSession, type GradingReads } from "./gradingSession.svelte";
import type { QuestionProgress } from "../../lib/grading";

const progress = (questionId: string, name: string, toScore: number, done: number, total: number): QuestionProgress => ({ questionId, name, toScore, done, total });

/** A server whose answers the test releases one by one. */
function server() {
  const progressAnswers: ((answer: QuestionProgress) => void)[] = [];
  const listAnswers: ((answer: QuestionProgress[]) => void)[] = [];
  const reads: GradingReads = {
    questionProgress: () => new Promise((resolve) => progressAnswers.push(resolve)),
    questionsToGrade: () => new Promise((resolve) => listAnswers.push(resolve)),
  };
  return { reads, progressAnswers, listAnswers };
}

const memory = (): Storage => {
  const kept = new Map<string, string>();
  return { getItem: (k) => kept.get(k) ?? null, setItem: (k, v) => void kept.set(k, v), removeItem: (k) => void kept.delete(k), clear: () => kept.clear(), key: () => null, length: 0 };
};

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("GradingSession", () => {
  it("shows a finished question only with the question offered after it", async () => {
    const { reads, progressAnswers, listAnswers } = server();
    const session = new GradingSession(memory(), () => {}, reads);
    session.choose({ questionId: "2", name: "Essay" }, "embedded|1");
    const loading = session.loadProgress();
    progressAnswers[0](progress("2", "Essay", 0, 5, 6));
    await settle();
    expect(listAnswers.length).toBe(1);
    expect(session.progress).toBeNull();
    expect(session.upNext).toBeNull();
    listAnswers[0]([progress("2", "Essay", 0, 5, 6), progress("9", "Summary", 4, 0, 4)]);
    await loading;
    expect(session.progress?.toScore).toBe(0);
    expect(session.upNext?.questionId).toBe("9");
  });

  it("keeps the progress of a question still being graded without reading the others", async () => {
    const { reads, progressAnswers, listAnswers } = server();
    const session = new GradingSession(memory(), () => {}, reads);
    session.choose({ questionId: "2", name: "Essay" }, "embedded|1");
    const loading = session.loadProgress();
    progressAnswers[0](progress("2", "Essay", 3, 2, 6));
    await loading;
    expect(listAnswers.length).toBe(0);
    expect(session.description).toBe("Essay: 2 of 6 done");
    expect(session.upNext).toBeNull();
  });

  it("drops a count that arrives after another question was chosen", async () => {
    const { reads, progressAnswers } = server();
    const session = new GradingSession(memory(), () => {}, reads);
    session.choose({ questionId: "2", name: "Essay" }, "embedded|1");
    const loading = session.loadProgress();
    session.choose({ questionId: "7", name: "Poem" }, "embedded|1");
    progressAnswers[0](progress("2", "Essay", 3, 2, 6));
    await loading;
    expect(session.progress).toBeNull();
  });

  it("keeps the newer count when an older one answers after it", async () => {
    const { reads, progressAnswers, listAnswers } = server();
    const session = new GradingSession(memory(), () => {}, reads);
    session.choose({ questionId: "2", name: "Essay" }, "embedded|1");
    const older = session.loadProgress();
    const newer = session.loadProgress(true);
    // The newer (the queue emptied by the filters) answers first: 3 left outside.
    progressAnswers[1](progress("2", "Essay", 3, 2, 6));
    await settle();
    listAnswers[0]([progress("2", "Essay", 3, 2, 6), progress("9", "Summary", 4, 0, 4)]);
    await newer;
    expect(session.progress?.toScore).toBe(3);
    // The older, asked before another scorer took some, answers last: dropped.
    progressAnswers[0](progress("2", "Essay", 5, 1, 6));
    await older;
    expect(session.progress?.toScore).toBe(3);
    expect(session.upNext?.questionId).toBe("9");
  });
});
