// An assessment's results as the results desk holds them (src-tauri/src/delivery/
// results_admin.rs): the list, newest first, and the highlighted one; the status
// changes the spec permits from where it is; extra time; the purges, each asked
// first (a plan counts what it removes) and its audit entry followed until done.
// What one action said (or refused) stays until the next action replaces it; a
// reload clears only its own failure.
import { assessmentResults, auditEntry, auditLog, changeResult, errorMessage, purge, purgePlan, type AdminResult, type AuditEntry, type PurgePlan, type PurgeTarget } from "../../lib/api";
import { describeExtraTime, extraSecondsOf, extraTimeApplies, resultStatus } from "../../lib/delivery";

/** What the desk asks of the app (its commands; a test gives its own). */
export interface ResultsCommands {
  results: (assessmentId: string) => Promise<AdminResult[]>;
  auditLog: () => Promise<AuditEntry[]>;
  auditEntry: (id: string) => Promise<AuditEntry>;
  change: (resultId: string, to: number | null, extraSeconds: number | null) => Promise<AdminResult>;
  plan: (target: PurgeTarget) => Promise<PurgePlan>;
  purge: (target: PurgeTarget) => Promise<AuditEntry>;
}

const COMMANDS: ResultsCommands = { results: assessmentResults, auditLog, auditEntry, change: changeResult, plan: purgePlan, purge };

export class ResultsAdmin {
  results = $state<AdminResult[] | null>(null);
  highlighted = $state(0);
  entries = $state<AuditEntry[]>([]);
  /** A purge asked for, waiting for Enter. */
  plan = $state<PurgePlan | null>(null);
  /** The purge under way: its audit entry, and how many results it was to remove. */
  following = $state<{ entry: AuditEntry; expected: number } | null>(null);
  message = $state<string | null>(null);
  error = $state<string | null>(null);

  private readonly assessmentId: string;
  private readonly commands: ResultsCommands;
  /** Whether the error shown is a failed load's (the next good one clears it). */
  private loadFailed = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(assessmentId: string, commands: ResultsCommands = COMMANDS) {
    this.assessmentId = assessmentId;
    this.commands = commands;
  }

  get result(): AdminResult | null {
    return this.results?.[this.highlighted] ?? null;
  }

  async load() {
    try {
      const [listed, log] = await Promise.all([this.commands.results(this.assessmentId), this.commands.auditLog()]);
      this.results = listed;
      this.entries = log;
      this.highlighted = Math.min(this.highlighted, Math.max(0, listed.length - 1));
      if (this.loadFailed) this.error = null;
      this.loadFailed = false;
    } catch (e) {
      this.error = errorMessage(e);
      this.loadFailed = true;
    }
  }

  move(step: number) {
    this.highlighted = Math.max(0, Math.min((this.results?.length ?? 0) - 1, this.highlighted + step));
  }

  /** The status change of `meaning` ("pause", "resume", "terminate") from the highlighted result's status, if the spec permits it. */
  async changeTo(meaning: string) {
    const result = this.result;
    const permitted = result?.changes.find((c) => c.meaning === meaning);
    if (permitted) await this.change(permitted.to, null);
    else if (result) this.error = `Result ${result.id} is ${resultStatus(result.status) || "finished"}: it cannot be ${meaning}d.`;
  }

  /** Whether the highlighted result takes extra time; if not, says why. */
  takesExtraTime(): boolean {
    const result = this.result;
    if (!result || extraTimeApplies(result.status)) return true;
    this.error = `Result ${result.id} is ${resultStatus(result.status) || "finished"}: extra time applies only while it is in progress or paused.`;
    return false;
  }

  /** Sets the extra time typed (minutes); true when it was set. */
  async setExtraTime(typed: string): Promise<boolean> {
    if (!this.result || !this.takesExtraTime()) return false;
    const minutes = extraSecondsOf(typed);
    if ("error" in minutes) {
      this.error = minutes.error;
      return false;
    }
    return this.change(null, minutes.seconds);
  }

  /** Asks for a purge: its plan says what it removes. */
  async ask(target: PurgeTarget) {
    try {
      this.plan = await this.commands.plan(target);
      this.error = null;
    } catch (e) {
      this.error = errorMessage(e);
    }
  }

  cancel() {
    this.plan = null;
  }

  /** Enter on a plan: the purge goes ahead, and its audit entry is followed. */
  async confirm() {
    const asked = this.plan;
    if (!asked) return;
    this.plan = null;
    try {
      const entry = await this.commands.purge(asked.target);
      this.following = { entry, expected: asked.results };
      this.message = null;
      await this.follow();
    } catch (e) {
      this.error = errorMessage(e);
    }
  }

  /** Stops following (the desk is left). */
  stop() {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Reads the followed entry again until it leaves the queue, then the list. */
  private async follow() {
    clearTimeout(this.timer);
    if (!this.following) return;
    try {
      const entry = await this.commands.auditEntry(this.following.entry.id);
      this.following = { ...this.following, entry };
      if (entry.inQueue) this.timer = setTimeout(() => this.follow(), 500);
      else await this.load();
    } catch (e) {
      this.error = errorMessage(e);
      this.timer = setTimeout(() => this.follow(), 2000);
    }
  }

  private async change(to: number | null, seconds: number | null): Promise<boolean> {
    const result = this.result;
    if (!result) return false;
    try {
      const changed = await this.commands.change(result.id, to, seconds);
      this.results = this.results!.map((r) => (r.id === changed.id ? changed : r));
      this.message = to !== null ? `Result ${changed.id} is ${resultStatus(changed.status)}.` : `Result ${changed.id} has ${describeExtraTime(changed.extraTime) || "no"} extra time.`;
      this.error = null;
      return true;
    } catch (e) {
      this.error = errorMessage(e);
      return false;
    }
  }
}
