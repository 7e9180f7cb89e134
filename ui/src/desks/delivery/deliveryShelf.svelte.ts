// The delivery desk's state (src-tauri/src/delivery): the area's assessments, the
// snapshots of the one chosen and the print batches of the snapshot highlighted,
// the batch open, and what the last action said beside what it is about. Moving
// elsewhere is the next action, so it clears what the last one said. Where the
// coordinator was (`memory`) is taken up once when the desk comes back (a task
// scored from a batch): the same assessment, snapshot and open batch.
import {
  createPrintBatch,
  createSnapshot,
  deliveryAssessments,
  errorMessage,
  openPrintable,
  printBatches,
  snapshots as listSnapshots,
  type DeliveryAssessment,
  type PrintBatch,
  type Snapshot,
} from "../../lib/api";
import { snapshotName } from "../../lib/delivery";

/** What the desk asks of the app (its commands; a test gives its own). */
export interface DeliveryCommands {
  assessments: () => Promise<DeliveryAssessment[]>;
  snapshots: (assessmentId: string) => Promise<Snapshot[]>;
  takeSnapshot: (assessmentId: string, name: string, expires: string | null) => Promise<Snapshot>;
  batches: (snapshotId: string) => Promise<PrintBatch[]>;
  makeBatch: (snapshotId: string, groupId: string, name: string) => Promise<PrintBatch>;
  print: (snapshotId: string, answerKey: boolean) => Promise<unknown>;
}

const COMMANDS: DeliveryCommands = { assessments: deliveryAssessments, snapshots: listSnapshots, takeSnapshot: createSnapshot, batches: printBatches, makeBatch: createPrintBatch, print: openPrintable };

/** Where the coordinator was: assessment, snapshot and open batch, by id. */
export interface DeskPlace {
  assessmentId: string | null;
  snapshotId: string | null;
  batchId: string | null;
}

export class DeliveryShelf {
  assessments = $state<DeliveryAssessment[] | null>(null);
  chosen = $state(0);
  snapshots = $state<Snapshot[] | null>(null);
  highlighted = $state(0);
  batches = $state<PrintBatch[] | null>(null);
  highlightedBatch = $state(0);
  openBatch = $state<PrintBatch | null>(null);
  /** The new snapshot's name, offered from the assessment's and today's date. */
  name = $state("");
  creating = $state(false);
  /** What the last action on the snapshots said, and the batches'. */
  message = $state<string | null>(null);
  error = $state<string | null>(null);
  batchMessage = $state<string | null>(null);
  batchError = $state<string | null>(null);

  private readonly commands: DeliveryCommands;
  private readonly restore: DeskPlace;

  constructor(memory: DeskPlace = { assessmentId: null, snapshotId: null, batchId: null }, commands: DeliveryCommands = COMMANDS) {
    this.restore = { ...memory };
    this.commands = commands;
  }

  get assessment(): DeliveryAssessment | null {
    return this.assessments?.[this.chosen] ?? null;
  }

  get snapshot(): Snapshot | null {
    return this.snapshots?.[this.highlighted] ?? null;
  }

  /** Where the coordinator is now, to come back to. */
  get place(): DeskPlace {
    return { assessmentId: this.assessment?.id ?? null, snapshotId: this.snapshot?.id ?? null, batchId: this.openBatch?.id ?? null };
  }

  /** What the last action said no longer stands beside what is now highlighted. */
  moved() {
    this.message = this.error = this.batchMessage = this.batchError = null;
  }

  async load() {
    try {
      const assessments = await this.commands.assessments();
      this.assessments = assessments;
      const remembered = assessments.findIndex((a) => a.id === this.restore.assessmentId);
      this.restore.assessmentId = null;
      this.chosen = remembered >= 0 ? remembered : Math.min(this.chosen, Math.max(0, assessments.length - 1));
      this.error = null;
      await this.choose(this.chosen);
    } catch (e) {
      this.error = errorMessage(e);
    }
  }

  /** Chooses assessment `index` (kept within the list) and lists its snapshots. */
  async choose(index: number, today: Date = new Date()) {
    if (!this.assessments?.length) return;
    this.chosen = Math.max(0, Math.min(this.assessments.length - 1, index));
    const wanted = this.assessments[this.chosen];
    this.name = snapshotName(wanted.name, today);
    this.snapshots = null;
    try {
      const listed = await this.commands.snapshots(wanted.id);
      // Another was chosen meanwhile: its own list shows.
      if (this.assessment?.id !== wanted.id) return;
      const remembered = listed.findIndex((s) => s.id === this.restore.snapshotId);
      this.restore.snapshotId = null;
      this.highlighted = remembered >= 0 ? remembered : Math.min(this.highlighted, Math.max(0, listed.length - 1));
      this.snapshots = listed;
      this.error = null;
    } catch (e) {
      this.error = errorMessage(e);
    }
  }

  /** Lists the batches of the highlighted snapshot (the desk asks whenever it changes). */
  async loadBatches() {
    const wanted = this.snapshot;
    this.batches = null;
    if (!wanted) return;
    try {
      const listed = await this.commands.batches(wanted.id);
      if (this.snapshot?.id !== wanted.id) return;
      this.batches = listed;
      const remembered = listed.findIndex((b) => b.id === this.restore.batchId);
      this.restore.batchId = null;
      if (remembered >= 0) ((this.highlightedBatch = remembered), (this.openBatch = listed[remembered]));
      this.highlightedBatch = Math.min(this.highlightedBatch, Math.max(0, listed.length - 1));
    } catch (e) {
      this.error = errorMessage(e);
    }
  }

  /** J and K: the snapshot below or above. */
  moveSnapshot(by: number) {
    this.moved();
    this.highlighted = Math.max(0, Math.min((this.snapshots?.length ?? 0) - 1, this.highlighted + by));
  }

  /** [ and ]: the batch above or below. */
  moveBatch(by: number) {
    this.moved();
    this.highlightedBatch = Math.max(0, Math.min((this.batches?.length ?? 0) - 1, this.highlightedBatch + by));
  }

  /** Enter: opens the highlighted batch (or `batch`); false when there is none. */
  open(batch: PrintBatch | undefined = this.batches?.[this.highlightedBatch]): boolean {
    if (!batch) return false;
    this.moved();
    this.highlightedBatch = Math.max(0, this.batches?.indexOf(batch) ?? 0);
    this.openBatch = batch;
    return true;
  }

  /** Back from a batch (its list read again: it may have been renamed or uploaded to). */
  close(deleted?: PrintBatch) {
    this.openBatch = null;
    if (deleted) this.batchMessage = `Print batch ${deleted.id} “${deleted.name}” deleted.`;
    this.loadBatches();
  }

  /** Takes a snapshot of the chosen assessment: its questions and their order are fixed. */
  async takeSnapshot(expires: string | null): Promise<boolean> {
    const assessment = this.assessment;
    if (!assessment || this.creating) return false;
    this.creating = true;
    this.message = null;
    try {
      const made = await this.commands.takeSnapshot(assessment.id, this.name, expires);
      this.snapshots = [made, ...(this.snapshots ?? []).filter((s) => s.id !== made.id)];
      this.highlighted = 0;
      this.message = `Snapshot ${made.id} “${made.name}” taken: its questions and their order are fixed.`;
      this.error = null;
      return true;
    } catch (e) {
      this.error = errorMessage(e);
      return false;
    } finally {
      this.creating = false;
    }
  }

  /** Makes a print batch of the highlighted snapshot for a group; it is highlighted, for Enter. */
  async makeBatch(groupId: string, name: string): Promise<boolean> {
    const snapshot = this.snapshot;
    if (!snapshot || this.creating) return false;
    this.creating = true;
    this.batchMessage = null;
    try {
      const made = await this.commands.makeBatch(snapshot.id, groupId, name);
      this.batches = [made, ...(this.batches ?? [])];
      this.highlightedBatch = 0;
      this.batchMessage = `Print batch ${made.id} “${made.name}” made for ${made.groupName}: Enter opens it.`;
      this.batchError = null;
      return true;
    } catch (e) {
      this.batchError = errorMessage(e);
      return false;
    } finally {
      this.creating = false;
    }
  }

  /** Opens a snapshot's paper or answer key in a window of its own. */
  async print(snapshot: Snapshot | null, answerKey: boolean) {
    if (!snapshot) return;
    try {
      await this.commands.print(snapshot.id, answerKey);
      this.message = `${answerKey ? "The answer key" : "The paper"} of “${snapshot.name}” is open in its own window: Ctrl+P prints it (or saves a PDF).`;
      this.error = null;
    } catch (e) {
      this.error = errorMessage(e);
    }
  }

  /** After the rename-or-delete dialog: the list shows the new name, or loses the snapshot. */
  retired(snapshot: Snapshot, renamed: string | null) {
    if (!this.snapshots) return;
    if (renamed !== null) {
      this.snapshots = this.snapshots.map((s) => (s.id === snapshot.id ? { ...s, name: renamed } : s));
      this.message = `Snapshot ${snapshot.id} renamed “${renamed}”.`;
    } else {
      this.snapshots = this.snapshots.filter((s) => s.id !== snapshot.id);
      this.highlighted = Math.min(this.highlighted, Math.max(0, this.snapshots.length - 1));
      this.message = `Snapshot ${snapshot.id} “${snapshot.name}” deleted.`;
    }
    this.error = null;
  }
}
