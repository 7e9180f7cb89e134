// The content desk's state (src-tauri/src/content): a QTI package previewed, then
// imported exactly as previewed (the same file; nothing is stored by a preview), and
// the area's assessments with the essays of the chosen one, whose rubrics are edited.
// What the last action said stays until the next replaces it.
import { deliveryAssessments, errorMessage, importQtiPackage, rubricQuestions, type DeliveryAssessment, type PackageReport, type RubricQuestion } from "../../lib/api";

/** What the desk asks of the app (its commands; a test gives its own). */
export interface ContentCommands {
  assessments: () => Promise<DeliveryAssessment[]>;
  questions: (assessmentId: string) => Promise<RubricQuestion[]>;
  /** Reads a package: a preview rolls the import back. */
  importPackage: (path: string, preview: boolean) => Promise<PackageReport>;
}

const COMMANDS: ContentCommands = { assessments: deliveryAssessments, questions: rubricQuestions, importPackage: importQtiPackage };

export class ContentLibrary {
  /** The package's path, as typed or chosen. */
  path = $state("");
  report = $state<PackageReport | null>(null);
  working = $state<"preview" | "import" | null>(null);
  error = $state<string | null>(null);
  message = $state<string | null>(null);

  assessments = $state<DeliveryAssessment[]>([]);
  chosen = $state(0);
  /** The chosen assessment's essays; null while they are read. */
  questions = $state<RubricQuestion[] | null>(null);
  highlighted = $state(0);

  private readonly commands: ContentCommands;

  constructor(commands: ContentCommands = COMMANDS) {
    this.commands = commands;
  }

  get assessment(): DeliveryAssessment | undefined {
    return this.assessments[this.chosen];
  }

  get question(): RubricQuestion | undefined {
    return this.questions?.[this.highlighted];
  }

  /** Reads the assessments, keeping `prefer` (an id) or the one chosen, and its essays. */
  async load(prefer?: string) {
    try {
      this.assessments = await this.commands.assessments();
      const wanted = prefer ? this.assessments.findIndex((a) => a.id === prefer) : -1;
      await this.choose(wanted >= 0 ? wanted : Math.min(this.chosen, Math.max(0, this.assessments.length - 1)));
    } catch (e) {
      this.error = errorMessage(e);
    }
  }

  /** Chooses assessment `index` (kept within the list) and reads its essays. */
  async choose(index: number) {
    if (!this.assessments.length) return;
    this.chosen = Math.max(0, Math.min(this.assessments.length - 1, index));
    const wanted = this.assessments[this.chosen];
    this.questions = null;
    try {
      const listed = await this.commands.questions(wanted.id);
      // Another was chosen meanwhile: its own read shows.
      if (this.assessment?.id !== wanted.id) return;
      this.questions = listed;
      this.highlighted = Math.min(this.highlighted, Math.max(0, listed.length - 1));
    } catch (e) {
      this.error = errorMessage(e);
    }
  }

  /** [ and ]: the assessment before or after; the last message was about the other. */
  step(by: number) {
    this.message = null;
    return this.choose(this.chosen + by);
  }

  /** J and K: an essay of the chosen assessment. */
  move(by: number) {
    this.highlighted = Math.max(0, Math.min((this.questions?.length ?? 0) - 1, this.highlighted + by));
  }

  /** Previews the package at `path`: what importing will create, leave or revise, and skip. */
  async preview(path: string = this.path) {
    if (!path.trim() || this.working) return;
    this.path = path;
    this.working = "preview";
    this.error = null;
    this.report = null;
    try {
      this.report = await this.commands.importPackage(path, true);
    } catch (e) {
      this.error = errorMessage(e);
    } finally {
      this.working = null;
    }
  }

  /** Imports what the preview showed; then the imported assessment is the one chosen. */
  async confirm() {
    if (!this.report?.preview || this.working) return;
    this.working = "import";
    this.error = null;
    try {
      this.report = await this.commands.importPackage(this.path, false);
      if (!this.report.preview) await this.load(this.report.assessmentId);
    } catch (e) {
      this.error = errorMessage(e);
    } finally {
      this.working = null;
    }
  }

  /** Esc on a preview: nothing is imported. */
  drop() {
    if (this.report?.preview) this.report = null;
  }

  /** After the rename-or-delete dialog: the list shows the new name, or loses the assessment. */
  async retired(assessment: DeliveryAssessment, renamed: string | null) {
    this.message = renamed === null ? `Assessment “${assessment.name}” deleted; its questions stay.` : `Assessment renamed “${renamed}”.`;
    this.error = null;
    await this.load(renamed === null ? undefined : assessment.id);
  }

  /** After the rubric editor: what it saved, and the essays read again. */
  edited(saved: string | null) {
    if (!saved) return;
    this.message = saved;
    this.choose(this.chosen);
  }
}
