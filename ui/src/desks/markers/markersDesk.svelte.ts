// The lead marker's desk as it holds its state: the questions with a rubric, the
// one chosen, its figures (read again while shown: markers keep marking), and
// the marker highlighted in the table and the plots. A failed read keeps the last
// figures and says so; the next good one clears it.
import { errorMessage, figuresQuestions, markerFigures, type FiguresQuestion, type MarkerFigures } from "../../lib/api";

export interface MarkersCommands {
  questions: () => Promise<FiguresQuestion[]>;
  figures: (questionId: string) => Promise<MarkerFigures>;
}

const COMMANDS: MarkersCommands = { questions: figuresQuestions, figures: markerFigures };

/** How often the chosen question's figures are read again while the desk is shown. */
export const REFRESH_MS = 30_000;

export class MarkersDesk {
  questions = $state<FiguresQuestion[] | null>(null);
  chosen = $state(0);
  figures = $state<MarkerFigures | null>(null);
  /** The marker highlighted (his row, his line), by name. */
  marker = $state<string | null>(null);
  problem = $state<string | null>(null);
  private readonly commands: MarkersCommands;
  /** The question whose figures were asked last: an older answer arriving late is dropped. */
  private asked: string | null = null;

  constructor(commands: MarkersCommands = COMMANDS) {
    this.commands = commands;
  }

  get question(): FiguresQuestion | undefined {
    return this.questions?.[this.chosen];
  }

  async load() {
    try {
      this.questions = await this.commands.questions();
      this.chosen = Math.min(this.chosen, Math.max(0, this.questions.length - 1));
      this.problem = null;
    } catch (error) {
      this.problem = errorMessage(error);
      return;
    }
    await this.read();
  }

  /** Reads the chosen question's figures again. */
  async read() {
    const question = this.question;
    if (!question) {
      this.figures = null;
      return;
    }
    this.asked = question.questionId;
    try {
      const figures = await this.commands.figures(question.questionId);
      if (this.asked !== question.questionId) return;
      this.figures = figures;
      this.problem = null;
      const names = figures.markers.map((line) => line.marker);
      if (!names.includes(this.marker)) this.marker = null;
    } catch (error) {
      if (this.asked === question.questionId) this.problem = errorMessage(error);
    }
  }

  /** Chooses the question `step` away and reads its figures. */
  choose(step: number) {
    const count = this.questions?.length ?? 0;
    const next = Math.max(0, Math.min(count - 1, this.chosen + step));
    if (next === this.chosen || count === 0) return;
    this.chosen = next;
    this.figures = null;
    this.marker = null;
    void this.read();
  }

  pick(index: number) {
    this.choose(index - this.chosen);
  }

  /** Highlights the marker `step` rows away (from none: the first or the last). */
  moveMarker(step: number) {
    const names = (this.figures?.markers ?? []).map((line) => line.marker ?? "");
    if (names.length === 0) return;
    const at = this.marker === null ? (step > 0 ? -1 : names.length) : names.indexOf(this.marker);
    this.marker = names[Math.max(0, Math.min(names.length - 1, at + step))];
  }
}
