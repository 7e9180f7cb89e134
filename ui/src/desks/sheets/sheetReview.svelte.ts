// The review of a reading of scanned answer sheets as the sheets desk holds it
// (docs/paper-sheets.md): each unsure question in turn, the choices a person gives
// it (or, for a short answer's box, the words they type), and the upload once every
// one is decided. Nothing unsure is ever guessed: an attempt goes up only when every
// doubt of it is confirmed, and a change after a confirmation takes the
// confirmation back.
import {
  decideSheetDoubt,
  errorMessage,
  transcribeSheetAnswer,
  uploadSheetReadings,
  type SheetDoubt,
  type SheetScanReport,
  type SheetUpload,
} from "../../lib/api";
import { choiceOfKey, isWritten, toggleChoice } from "../../lib/sheets";

/** What the review asks of the app (its commands; a test gives its own). */
export interface ReviewCommands {
  decide: (attemptId: number, question: number, part: number, choices: number[]) => Promise<unknown>;
  transcribe: (attemptId: number, question: number, part: number, text: string) => Promise<unknown>;
  upload: () => Promise<SheetUpload[]>;
}

const COMMANDS: ReviewCommands = { decide: decideSheetDoubt, transcribe: transcribeSheetAnswer, upload: uploadSheetReadings };
const keyOf = (doubt: SheetDoubt) => `${doubt.attemptId}/${doubt.question}/${doubt.part}`;

export class SheetReview {
  readonly report: SheetScanReport;
  /** The doubt on screen; `doubts.length` once past the last. */
  at = $state(0);
  /** The choices given (or being given) per doubt, by `attempt/question/part`. */
  chosen = $state<Record<string, number[]>>({});
  /** The words typed (or being typed) per short answer, by `attempt/question/0`. */
  typed = $state<Record<string, string>>({});
  confirmed = $state<Record<string, boolean>>({});
  uploads = $state<SheetUpload[] | null>(null);
  uploading = $state(false);
  error = $state<string | null>(null);

  readonly doubts: SheetDoubt[];
  private readonly commands: ReviewCommands;
  private readonly onuploaded: () => void;

  constructor(report: SheetScanReport, onuploaded: () => void, commands: ReviewCommands = COMMANDS) {
    this.report = report;
    this.doubts = report.attempts.flatMap((a) => a.doubts);
    this.onuploaded = onuploaded;
    this.commands = commands;
  }

  get current(): SheetDoubt | undefined {
    return this.doubts[this.at];
  }

  /** The choices given to `doubt` so far. */
  decision(doubt: SheetDoubt): number[] {
    return this.chosen[keyOf(doubt)] ?? [];
  }

  /** The words typed for a short answer so far. */
  typedFor(doubt: SheetDoubt): string {
    return this.typed[keyOf(doubt)] ?? "";
  }

  /** The words typed for the short answer on screen; a change is not confirmed. */
  type(text: string) {
    const doubt = this.current;
    if (!doubt || !isWritten(doubt)) return;
    this.typed[keyOf(doubt)] = text;
    this.confirmed[keyOf(doubt)] = false;
  }

  isConfirmed(doubt: SheetDoubt): boolean {
    return Boolean(this.confirmed[keyOf(doubt)]);
  }

  get allDecided(): boolean {
    return this.doubts.every((d) => this.confirmed[keyOf(d)]);
  }

  /** The attempts that can go up (read whole). */
  get ready(): number {
    return this.report.attempts.filter((a) => !a.problem).length;
  }

  /** A choice's letter: marks it (a one-choice question takes it alone); again, unmarks it. */
  press(letter: string): boolean {
    const doubt = this.current;
    const choice = doubt && !isWritten(doubt) ? choiceOfKey(doubt, letter) : null;
    if (!doubt || choice === null) return false;
    this.give(doubt, toggleChoice(doubt, this.decision(doubt), choice));
    return true;
  }

  /** Backspace: no choice (a short answer: nothing typed). */
  clear(): boolean {
    if (!this.current) return false;
    if (isWritten(this.current)) this.type("");
    else this.give(this.current, []);
    return true;
  }

  move(step: number) {
    this.at = Math.max(0, Math.min(this.doubts.length, this.at + step));
  }

  /**
   * Enter: confirms the doubt on screen and goes on to the next undecided one; with
   * none left, uploads. True when the review is over (the upload's outcome was shown).
   */
  async enter(): Promise<boolean> {
    if (this.current && !(this.uploads && this.allDecided)) await this.confirm();
    else if (this.allDecided && !this.uploads) await this.upload();
    else if (this.uploads) return true;
    return false;
  }

  async confirm() {
    const doubt = this.current;
    if (!doubt) return;
    try {
      if (isWritten(doubt)) await this.commands.transcribe(doubt.attemptId, doubt.question, doubt.part, this.typedFor(doubt).trim());
      else await this.commands.decide(doubt.attemptId, doubt.question, doubt.part, this.decision(doubt));
      this.confirmed[keyOf(doubt)] = true;
      this.error = null;
      const next = this.doubts.findIndex((d, i) => i > this.at && !this.confirmed[keyOf(d)]);
      const earlier = this.doubts.findIndex((d) => !this.confirmed[keyOf(d)]);
      this.at = next >= 0 ? next : earlier >= 0 ? earlier : this.doubts.length;
    } catch (e) {
      this.error = errorMessage(e);
    }
  }

  async upload() {
    if (this.uploading || !this.allDecided) return;
    this.uploading = true;
    try {
      this.uploads = await this.commands.upload();
      this.error = null;
      this.onuploaded();
    } catch (e) {
      this.error = errorMessage(e);
    } finally {
      this.uploading = false;
    }
  }

  /** A changed decision is not a confirmed one. */
  private give(doubt: SheetDoubt, choices: number[]) {
    this.chosen[keyOf(doubt)] = choices;
    this.confirmed[keyOf(doubt)] = false;
  }
}
