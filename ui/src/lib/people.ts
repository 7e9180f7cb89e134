// The people desk's words and search (desks/people/PeopleDesk.svelte): a roster's
// report in one sentence, a participant's name as a school writes it, and the
// search that finds participants as the user types.
import type { Person } from "./bindings/Person";
import type { RosterReport } from "./bindings/RosterReport";

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Lower case without accents, so "zoe" finds "Zoë" and "garcia" finds "García". */
export function folded(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

/** "García, Zoë" (family name first, as a class list sorts), or the username alone. */
export function displayName(person: Pick<Person, "firstName" | "lastName" | "username">): string {
  const last = person.lastName.trim();
  const first = person.firstName.trim();
  if (last && first) return `${last}, ${first}`;
  return last || first || person.username;
}

/**
 * The participants whose username, names or e-mail hold every word of `query`
 * (in any order, without regard to case or accents), in the order given; at most
 * `limit` of them. An empty query finds everyone.
 */
export function searchPeople(people: readonly Person[], query: string, limit = 200): Person[] {
  const words = folded(query).split(/\s+/).filter(Boolean);
  const found: Person[] = [];
  for (const person of people) {
    if (found.length >= limit) break;
    const haystack = folded(`${person.username} ${person.firstName} ${person.lastName} ${person.email}`);
    if (words.every((word) => haystack.includes(word))) found.push(person);
  }
  return found;
}

/** "Importing will add 4 participants and 3 groups, and 5 memberships." */
export function describeRoster(report: RosterReport): string {
  const verb = report.preview ? "would be" : "were";
  const parts = [
    `${report.format}: ${count(report.participantsCreated, "participant", "participants")} ${verb} added, ${report.participantsUpdated} updated, ${report.participantsUnchanged} unchanged`,
    `${count(report.groupsCreated, "group", "groups")} ${verb} added, ${report.groupsUpdated} updated, ${report.groupsUnchanged} unchanged`,
    `${count(report.membershipsAdded, "membership", "memberships")} ${verb} added and ${report.membershipsRemoved} removed`,
  ];
  let sentence = `${parts.join("; ")}.`;
  if (report.participantsLeft || report.groupsEmptied) {
    sentence += ` Gone from the school's system: ${count(report.participantsLeft, "participant leaves", "participants leave")} their groups, ${count(report.groupsEmptied, "group is", "groups are")} emptied (results are kept).`;
  }
  if (report.notParticipants.length) {
    const roles = report.notParticipants.map((n) => `${n.count} ${n.role}${n.count === 1 ? "" : "s"}`).join(", ");
    sentence += ` Not participants: ${roles}.`;
  }
  if (report.preview) sentence += " Nothing is stored until you import it.";
  return sentence;
}
