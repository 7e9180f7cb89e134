// Grade by question as the app holds it (the rules are in grading.ts): the question
// chosen, where it stands, the question offered at its end, and the picker. The app
// owns the queue and its filters; this owns everything else grading needs, so that
// App.svelte wires it rather than keeps it.
import { errorMessage, questionProgress, questionsToGrade } from "../../lib/api";
import { describeProgress, finished, nextQuestion, rememberedQuestion, rememberQuestion, type GradedQuestion, type QuestionProgress } from "../../lib/grading";

/** What grading asks the server. */
export interface GradingReads {
  questionProgress: (questionId: string) => Promise<QuestionProgress>;
  questionsToGrade: () => Promise<QuestionProgress[]>;
}

export class GradingSession {
  /** The question the queue keeps to, if any. */
  question = $state<GradedQuestion | null>(null);
  /** Where that question stands ("12 of 65 done"). */
  progress = $state<QuestionProgress | null>(null);
  /** The question offered once the graded one has nothing left to score. */
  upNext = $state<QuestionProgress | null>(null);
  /** The question picker: closed (undefined), counting (null), or its questions. */
  picker = $state<QuestionProgress[] | null | undefined>(undefined);
  /** Whether the question chosen in an earlier run was looked for (after the first status). */
  restored = false;

  private readonly storage: Storage;
  private readonly onerror: (message: string) => void;
  private readonly reads: GradingReads;
  /** Counts asked so far: an answer to an older one, arriving after a newer one, is dropped. */
  private counts = 0;

  /**
   * `storage` keeps the choice between runs; `onerror` shows a failure to count or
   * list the questions; `reads` asks the server (tests hold its answers back).
   */
  constructor(storage: Storage, onerror: (message: string) => void, reads: GradingReads = { questionProgress, questionsToGrade }) {
    this.storage = storage;
    this.onerror = onerror;
    this.reads = reads;
  }

  /** "Essay: 12 of 65 done" under the task's name, once counted. */
  get description(): string | null {
    return this.question && this.progress ? `${this.question.name}: ${describeProgress(this.progress)}` : null;
  }

  /** Takes up the question graded in an earlier run on `server`, if any. */
  restore(server: string): GradedQuestion | null {
    this.restored = true;
    const kept = rememberedQuestion(this.storage, server);
    if (kept) this.question = kept;
    return kept;
  }

  /** Grades `question` from now on (null: every question again), remembered for the next run on `server`. */
  choose(question: GradedQuestion | null, server: string) {
    this.picker = undefined;
    this.question = question ? { questionId: question.questionId, name: question.name } : null;
    this.progress = null;
    this.upNext = null;
    rememberQuestion(this.storage, server, this.question);
  }

  /** Another server: nothing chosen until its own choice is restored. */
  forget() {
    this.question = null;
    this.progress = null;
    this.upNext = null;
  }

  /**
   * Counts the graded question's tasks; at its end, or when the queue on screen is
   * empty (`queueEmpty`: its filters leave the question's other tasks out), finds
   * the question to offer next.
   */
  async loadProgress(queueEmpty = false) {
    const question = this.question;
    if (!question) return;
    const asked = ++this.counts;
    try {
      const now = await this.reads.questionProgress(question.questionId);
      // The end and the question offered after it are shown together: a finished
      // question shown before the list of others is read would say for a moment
      // that no other question has tasks.
      const upNext = finished(now) || queueEmpty ? nextQuestion(await this.reads.questionsToGrade(), question) : null;
      // A poll's count asked before the queue was refreshed may answer after the
      // refresh's: the older would put back what others have taken since.
      if (asked !== this.counts || this.question?.questionId !== question.questionId) return;
      this.progress = now;
      this.upNext = upNext;
    } catch (error) {
      this.onerror(`The progress of “${question.name}” could not be counted: ${errorMessage(error)}`);
    }
  }

  openPicker() {
    this.picker = null;
    this.reads.questionsToGrade()
      .then((questions) => {
        if (this.picker === null) this.picker = questions;
      })
      .catch((error) => {
        this.picker = undefined;
        this.onerror(errorMessage(error));
      });
  }

  closePicker() {
    this.picker = undefined;
  }
}
