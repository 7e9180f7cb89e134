import { describe, expect, it } from "vitest";
import type { ConnectionStatus } from "./api";
import { cleartextWarning, describeAside, describeConnection, describeOpenTasks, describePasswordStore, describeRefresh, openTasksLabel, pollDelayMs, taskStatusLabel, validateRemote } from "./status";

const base: ConnectionStatus = {
  state: "connected",
  mode: "embedded",
  serverUrl: "http://127.0.0.1:4000",
  customerId: 1,
  areaName: "Northwind Academy",
  username: "desktop",
  openTasks: 120,
  message: null,
  notice: null,
  passwordStore: null,
  checkedAt: "2026-11-21T09:30:12.000Z",
};

describe("describeConnection", () => {
  it("names the area and the account when connected", () => {
    const view = describeConnection(base);
    expect(view.tone).toBe("ok");
    expect(view.detail).toContain("Northwind Academy");
    expect(view.detail).toContain("desktop");
  });

  it("falls back to the area number when the name is unknown", () => {
    expect(describeConnection({ ...base, areaName: null, customerId: 7 }).detail).toContain("customer area 7");
  });

  it("shows the server's own message when sign-in is refused", () => {
    const view = describeConnection({ ...base, state: "unauthorized", message: "Wrong password for desktop" });
    expect(view.tone).toBe("problem");
    expect(view.detail).toBe("Wrong password for desktop");
  });

  it("names a remote server by its URL", () => {
    const view = describeConnection({ ...base, mode: "remote", state: "unreachable", message: null, serverUrl: "https://s.example" });
    expect(view.detail).toContain("https://s.example");
  });
});

describe("open task count", () => {
  it("groups thousands and shows a dash while unknown", () => {
    expect(describeOpenTasks(1234567)).toBe("1,234,567");
    expect(describeOpenTasks(null)).toBe("—");
    expect(describeOpenTasks(0)).toBe("0");
  });

  it("is singular for one task only", () => {
    expect(openTasksLabel(1)).toBe("task to score");
    expect(openTasksLabel(0)).toBe("tasks to score");
    expect(openTasksLabel(2)).toBe("tasks to score");
  });

  it("names what waits for a rubric or is being scored, and nothing when none", () => {
    expect(describeAside({ waitingForRubric: 68, beingScored: 1 })).toBe("68 waiting for a rubric · 1 being scored");
    expect(describeAside({ waitingForRubric: 0, beingScored: 2 })).toBe("2 being scored");
    expect(describeAside({ waitingForRubric: 0, beingScored: 0 })).toBe("");
    expect(describeAside(null)).toBe("");
  });
});

describe("describeRefresh", () => {
  it("says how long ago the last refresh was", () => {
    const text = describeRefresh("2026-11-21T09:30:12.000Z", new Date("2026-11-21T09:30:42.000Z"));
    expect(text).toContain("30 s ago");
  });

  it("says just now within two seconds", () => {
    expect(describeRefresh("2026-11-21T09:30:12.000Z", new Date("2026-11-21T09:30:13.000Z"))).toContain("just now");
  });

  it("copes with a malformed time", () => {
    expect(describeRefresh("yesterday-ish")).toBe("Not refreshed yet");
  });
});

describe("pollDelayMs", () => {
  it("polls fast while starting and slowly once connected", () => {
    expect(pollDelayMs(null)).toBeLessThan(1000);
    expect(pollDelayMs({ ...base, state: "starting" })).toBeLessThan(1000);
    expect(pollDelayMs(base)).toBeGreaterThanOrEqual(5000);
    expect(pollDelayMs({ ...base, state: "unreachable" })).toBeLessThan(pollDelayMs(base));
  });
});

describe("validateRemote", () => {
  it("accepts a complete form", () => {
    expect(validateRemote("https://scoring.example.org", "12", "ann", "pw")).toBeNull();
  });

  it("names the field that is wrong", () => {
    expect(validateRemote("scoring.example.org", "12", "ann", "pw")).toContain("URL");
    expect(validateRemote("ftp://x", "12", "ann", "pw")).toContain("http");
    expect(validateRemote("https://x", "0", "ann", "pw")).toContain("customer area");
    expect(validateRemote("https://x", "abc", "ann", "pw")).toContain("customer area");
    expect(validateRemote("https://x", "1", " ", "pw")).toContain("user name");
    expect(validateRemote("https://x", "1", "ann", "")).toContain("password");
  });
});

describe("wording", () => {
  it("starts the connected detail with a capital", () => {
    expect(describeConnection(base).detail).toMatch(/^The built-in server · /);
  });

  it("keeps the built-in server lower case mid-sentence and URLs untouched", () => {
    expect(describeConnection({ ...base, state: "unreachable" }).detail).toBe("Cannot reach the built-in server. Retrying.");
    const remote = { ...base, mode: "remote" as const, state: "unauthorized" as const, serverUrl: "https://s.example" };
    expect(describeConnection(remote).detail).toBe("https://s.example did not accept the account.");
  });
});

describe("describePasswordStore", () => {
  it("says where the remembered password is", () => {
    expect(describePasswordStore("keyring")).toContain("system keyring");
    expect(describePasswordStore("privateFile")).toContain("only you can read");
    expect(describePasswordStore(null)).toContain("not remembered");
  });
});

describe("cleartextWarning", () => {
  it("warns before a password goes over plain http to another machine", () => {
    for (const url of ["http://scoring.example.org", "http://10.0.0.5:8080/", " HTTP://Scoring.Example.org "]) {
      expect(cleartextWarning(url), url).toContain("unencrypted");
    }
  });

  it("says nothing for https, this computer, or what is not a URL yet", () => {
    for (const url of ["https://scoring.example.org", "http://127.0.0.1:8080", "http://localhost:8080", "http://[::1]:8080", "scoring.exam"]) {
      expect(cleartextWarning(url), url).toBeNull();
    }
  });
});

describe("a task's status in words", () => {
  it("names the spec's four and shows any other as it is", () => {
    expect([0, 1, 2, 3].map(taskStatusLabel)).toEqual(["To score", "Being scored", "Saved", "Scored"]);
    expect(taskStatusLabel(7)).toBe("Status 7");
  });
});
