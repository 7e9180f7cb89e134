// The people desk's state (src-tauri/src/people): a roster previewed, then imported
// exactly as previewed (the same file; a preview stores nothing); the area's
// participants and groups, searched as the user types; the highlighted
// participant's card (groups, attempts, results); the group whose class list `P`
// prints. What the last action said stays until the next replaces it.
import { errorMessage, importRoster, peopleDirectory, personCard, type GroupLine, type PeopleDirectory, type Person, type PersonCard, type RosterReport } from "../../lib/api";
import { searchPeople } from "../../lib/people";

/** What the desk asks of the app (its commands; a test gives its own). */
export interface PeopleCommands {
  directory: () => Promise<PeopleDirectory>;
  card: (participantId: string) => Promise<PersonCard>;
  importRoster: (path: string, preview: boolean) => Promise<RosterReport>;
}

const COMMANDS: PeopleCommands = { directory: peopleDirectory, card: personCard, importRoster };

export class PeopleDesk {
  /** The roster's path, as typed or chosen. */
  path = $state("");
  report = $state<RosterReport | null>(null);
  /** The file the preview read: the one Enter imports, whatever is typed since. */
  private previewed = "";
  working = $state<"preview" | "import" | null>(null);
  error = $state<string | null>(null);
  message = $state<string | null>(null);

  people = $state<Person[] | null>(null);
  groups = $state<GroupLine[]>([]);
  cut = $state(false);
  query = $state("");
  highlighted = $state(0);
  card = $state<PersonCard | null>(null);
  /** The group whose class list prints, by index in `groups`. */
  group = $state(0);

  private readonly commands: PeopleCommands;

  constructor(commands: PeopleCommands = COMMANDS) {
    this.commands = commands;
  }

  /** The participants the search finds. */
  get found(): Person[] {
    return this.people ? searchPeople(this.people, this.query) : [];
  }

  get person(): Person | undefined {
    return this.found[this.highlighted];
  }

  get chosenGroup(): GroupLine | undefined {
    return this.groups[this.group];
  }

  /** Reads everyone and every group again, keeping the highlighted participant. */
  async load() {
    const keep = this.person?.id;
    try {
      const directory = await this.commands.directory();
      this.people = directory.people;
      this.groups = directory.groups;
      this.cut = directory.cut;
      this.group = Math.min(this.group, Math.max(0, this.groups.length - 1));
      const at = keep ? this.found.findIndex((p) => p.id === keep) : -1;
      this.highlighted = at >= 0 ? at : Math.min(this.highlighted, Math.max(0, this.found.length - 1));
    } catch (e) {
      this.error = errorMessage(e);
    }
  }

  /** The search changed: the first found is highlighted. */
  searched(query: string) {
    this.query = query;
    this.highlighted = 0;
  }

  /** J and K, the arrows: another participant of those found. */
  move(by: number) {
    const count = this.found.length;
    if (count) this.highlighted = Math.max(0, Math.min(count - 1, this.highlighted + by));
  }

  /** [ and ]: the group before or after, for its class list. */
  stepGroup(by: number) {
    if (this.groups.length) this.group = Math.max(0, Math.min(this.groups.length - 1, this.group + by));
  }

  /** Opens the card of `person` (the highlighted one by default). */
  async open(person: Person | undefined = this.person) {
    if (!person) return;
    try {
      const card = await this.commands.card(person.id);
      this.card = card;
      this.error = null;
    } catch (e) {
      this.error = errorMessage(e);
    }
  }

  close() {
    this.card = null;
  }

  /** Previews the roster at `path` (the one typed by default). */
  async preview(path: string = this.path) {
    if (!path.trim() || this.working) return;
    this.path = path;
    this.working = "preview";
    this.report = null;
    this.message = null;
    try {
      this.report = await this.commands.importRoster(path, true);
      this.previewed = path;
      this.error = null;
    } catch (e) {
      this.error = errorMessage(e);
    } finally {
      this.working = null;
    }
  }

  /** Imports the roster just previewed; the lists are read again. */
  async confirm() {
    if (!this.report?.preview || this.working) return;
    this.working = "import";
    try {
      this.report = await this.commands.importRoster(this.previewed, false);
      this.error = null;
      await this.load();
    } catch (e) {
      this.error = errorMessage(e);
    } finally {
      this.working = null;
    }
  }

  /** Esc: the preview is dropped; nothing was stored. */
  drop() {
    this.report = null;
    this.message = "The roster was not imported.";
  }

  /** After the form saved participant `id`: the lists and their card again. */
  async saved(id: string, words: string) {
    this.message = words;
    await this.load();
    const at = this.found.findIndex((p) => p.id === id);
    if (at < 0) {
      // Saved but not found by the search: the search is cleared to show them.
      this.query = "";
    }
    const index = this.found.findIndex((p) => p.id === id);
    if (index >= 0) this.highlighted = index;
    await this.open(this.found[index]);
  }
}
