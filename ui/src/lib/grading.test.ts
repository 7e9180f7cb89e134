import { describe, expect, it } from "vitest";
import { describeEnd, describeFilteredEnd, describeProgress, finished, nextQuestion, rememberedQuestion, rememberQuestion, serverKey, type QuestionProgress } from "./grading";
import type { ConnectionStatus } from "./api";

const question = (questionId: string, name: string, toScore: number, done = 0, total = toScore + done): QuestionProgress => ({ questionId, name, toScore, done, total });

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

describe("grade by question", () => {
  it("says how far the question is", () => {
    expect(describeProgress(question("1", "Essay", 53, 12))).toBe("12 of 65 done");
    expect(finished(question("1", "Essay", 0, 65))).toBe(true);
    expect(finished(question("1", "Essay", 1, 64))).toBe(false);
    expect(finished(null)).toBe(false);
  });

  it("names what others still hold at the end of a question", () => {
    expect(describeEnd(question("1", "Essay", 0, 65))).toBe("Nothing left to score in “Essay”: 65 of 65 done.");
    expect(describeEnd(question("1", "Essay", 0, 60, 65))).toBe("Nothing left to score in “Essay”: 60 of 65 done. 5 are being scored by others.");
    expect(describeEnd(question("1", "Essay", 0, 64, 65))).toContain("1 is being scored by others.");
  });

  it("offers the next question with tasks after the current one, wrapping round", () => {
    const list = [question("7", "Diagram", 4), question("2", "Essay", 0), question("9", "Graph", 3), question("3", "Poem", 2)];
    expect(nextQuestion(list, { questionId: "2", name: "Essay" })?.questionId).toBe("9");
    expect(nextQuestion(list, { questionId: "3", name: "Poem" })?.questionId).toBe("7");
    // The current question, finished, is usually no longer in the list.
    expect(nextQuestion(list, { questionId: "5", name: "Map" })?.questionId).toBe("3");
    expect(nextQuestion([question("2", "Essay", 5)], { questionId: "2", name: "Essay" })).toBeNull();
    expect(nextQuestion([], { questionId: "2", name: "Essay" })).toBeNull();
  });

  it("remembers the choice per server and area", () => {
    const storage = memoryStorage();
    const status = { mode: "embedded", serverUrl: "http://127.0.0.1:4000", customerId: 1 } as ConnectionStatus;
    const here = serverKey(status);
    const elsewhere = serverKey({ ...status, customerId: 2 });
    expect(here).not.toBe(elsewhere);
    expect(serverKey(null)).toBe("");
    // The built-in server's port changes at each start; the choice stays.
    expect(serverKey({ ...status, serverUrl: "http://127.0.0.1:4001" })).toBe(here);
    const remote = { mode: "remote", serverUrl: "https://scoring.example", customerId: 1 } as ConnectionStatus;
    expect(serverKey(remote)).not.toBe(here);
    expect(serverKey({ ...remote, serverUrl: "https://other.example" })).not.toBe(serverKey(remote));
    rememberQuestion(storage, here, { questionId: "42", name: "Essay" });
    expect(rememberedQuestion(storage, here)).toEqual({ questionId: "42", name: "Essay" });
    expect(rememberedQuestion(storage, elsewhere)).toBeNull();
    expect(rememberedQuestion(storage, "")).toBeNull();
    rememberQuestion(storage, here, null);
    expect(rememberedQuestion(storage, here)).toBeNull();
  });

  it("ignores a kept choice that is not a question key", () => {
    const storage = memoryStorage();
    storage.setItem("scoredesk.gradeByQuestion", JSON.stringify({ server: "s", questionId: "1) or (1", name: "x" }));
    expect(rememberedQuestion(storage, "s")).toBeNull();
    storage.setItem("scoredesk.gradeByQuestion", "{not json");
    expect(rememberedQuestion(storage, "s")).toBeNull();
  });
});

describe("describeFilteredEnd", () => {
  it("says how many of the question's tasks the filters leave out, and how to reach them", () => {
    const progress = { questionId: "7", name: "Handwritten summary", toScore: 35, done: 12, total: 65 };
    expect(describeFilteredEnd(progress)).toBe("Nothing of “Handwritten summary” is left in this group or assessment: 35 tasks are to score outside the filters (X clears them).");
    expect(describeFilteredEnd({ ...progress, toScore: 1 })).toContain("1 task is to score");
  });
});
