// The people desk's state without a window (issue 34): a roster is imported only
// after its preview and from the file previewed, Esc drops the preview, the lists
// are read again after an import; the search finds by any word of a name,
// username or e-mail without regard to case or accents, and the arrows stay
// within what it found; a saved participant is shown even when the search hid them.
import { describe, expect, it, vi } from "vitest";
import { PeopleDesk, type PeopleCommands } from "./peopleDesk.svelte";
import type { PeopleDirectory, Person, PersonCard, RosterReport } from "../../lib/api";
import { describeRoster, displayName, searchPeople } from "../../lib/people";

const person = (id: string, username: string, firstName: string, lastName: string, email = ""): Person => ({ id, username, firstName, lastName, email });
const zoe = person("1", "zoe.garcia", "Zoë", "García, Jr.", "zoe@westbrook.example");
const lukas = person("2", "lukas.mueller", "Lukas", "Müller");
const amara = person("3", "amara.nwosu", "Amara", "Nwosu");

const report = (preview: boolean): RosterReport => ({
  preview, format: "OneRoster 1.2", participantsCreated: 4, participantsUpdated: 0, participantsUnchanged: 1,
  groupsCreated: 3, groupsUpdated: 0, groupsUnchanged: 0, membershipsAdded: 5, membershipsRemoved: 0,
  participantsLeft: 1, groupsEmptied: 0, notParticipants: [{ role: "teacher", count: 2 }],
});

function commands(people: Person[]) {
  const directory: PeopleDirectory = { people, groups: [{ id: "7", name: "Biology", description: "" }, { id: "8", name: "Choir", description: "" }], cut: false };
  return {
    directory: vi.fn(async () => ({ ...directory, people: [...directory.people] })),
    card: vi.fn(async (id: string): Promise<PersonCard> => ({ person: people.find((p) => p.id === id)!, groups: [], attempts: [], results: [] })),
    importRoster: vi.fn(async (_path: string, preview: boolean) => report(preview)),
    directoryOf: directory,
  } satisfies PeopleCommands & { directoryOf: PeopleDirectory };
}

describe("searchPeople", () => {
  it("finds every word anywhere, without regard to case or accents", () => {
    const all = [zoe, lukas, amara];
    expect(searchPeople(all, "garcia").map((p) => p.id)).toEqual(["1"]);
    expect(searchPeople(all, "ZOE jr").map((p) => p.id)).toEqual(["1"]);
    expect(searchPeople(all, "muller").map((p) => p.id)).toEqual(["2"]);
    expect(searchPeople(all, "westbrook").map((p) => p.id)).toEqual(["1"]);
    expect(searchPeople(all, "  ").length).toBe(3);
    expect(searchPeople(all, "garcia lukas")).toEqual([]);
    expect(searchPeople(all, "a", 2).length).toBe(2);
  });

  it("names by family name first, or by username when there is no name", () => {
    expect(displayName(zoe)).toBe("García, Jr., Zoë");
    expect(displayName(person("9", "x.y", "", ""))).toBe("x.y");
    expect(displayName(person("9", "x.y", "Ana", ""))).toBe("Ana");
  });

  it("tells a roster's report in one sentence", () => {
    const said = describeRoster(report(true));
    expect(said).toContain("OneRoster 1.2: 4 participants would be added, 0 updated, 1 unchanged");
    expect(said).toContain("5 memberships would be added and 0 removed");
    expect(said).toContain("1 participant leaves their groups");
    expect(said).toContain("Not participants: 2 teachers.");
    expect(said).toContain("Nothing is stored until you import it.");
    expect(describeRoster(report(false))).toContain("4 participants were added");
  });
});

describe("PeopleDesk", () => {
  it("imports only what was previewed, from the file previewed, and reads the lists again", async () => {
    const given = commands([zoe, lukas]);
    const desk = new PeopleDesk(given);
    await desk.load();
    await desk.confirm();
    expect(given.importRoster).not.toHaveBeenCalled();
    await desk.preview("/home/me/westbrook.zip");
    expect(given.importRoster).toHaveBeenLastCalledWith("/home/me/westbrook.zip", true);
    desk.path = "/home/me/other.csv";
    await desk.confirm();
    expect(given.importRoster).toHaveBeenLastCalledWith("/home/me/westbrook.zip", false);
    expect(desk.report?.preview).toBe(false);
    expect(given.directory).toHaveBeenCalledTimes(2);
  });

  it("drops a preview on Esc and says a failed read", async () => {
    const given = commands([zoe]);
    given.importRoster.mockRejectedValueOnce({ kind: "server", message: "users.csv, line 7, column username: is empty" });
    const desk = new PeopleDesk(given);
    await desk.preview("/bad.zip");
    expect(desk.report).toBeNull();
    expect(desk.error).toContain("line 7");
    await desk.preview("/good.zip");
    desk.drop();
    expect(desk.report).toBeNull();
    expect(desk.message).toContain("not imported");
    await desk.confirm();
    expect(given.importRoster).toHaveBeenCalledTimes(2);
  });

  it("moves within what the search found and opens the highlighted one", async () => {
    const given = commands([amara, zoe, lukas]);
    const desk = new PeopleDesk(given);
    await desk.load();
    desk.searched("a");
    expect(desk.found.map((p) => p.id)).toEqual(["3", "1", "2"]);
    desk.move(5);
    expect(desk.person?.id).toBe("2");
    desk.searched("zoe");
    expect(desk.person?.id).toBe("1");
    desk.move(-3);
    expect(desk.person?.id).toBe("1");
    await desk.open();
    expect(given.card).toHaveBeenLastCalledWith("1");
    expect(desk.card?.person.username).toBe("zoe.garcia");
    desk.stepGroup(5);
    expect(desk.chosenGroup?.name).toBe("Choir");
  });

  it("shows a participant just saved even when the search hid them", async () => {
    const given = commands([zoe]);
    const desk = new PeopleDesk(given);
    await desk.load();
    desk.searched("zoe");
    given.directoryOf.people.push(lukas);
    await desk.saved("2", "Müller, Lukas was added as participant 2.");
    expect(desk.query).toBe("");
    expect(desk.person?.id).toBe("2");
    expect(desk.card?.person.id).toBe("2");
    expect(desk.message).toContain("added");
  });
});
