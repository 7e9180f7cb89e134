// An assessment's figures as the results desk shows them (src-tauri/src/delivery/
// figures.rs): how far its marking has got, refreshed while the panel is open so
// that the counts follow the scorers; its item analysis; and its results saved as
// a file through the system's "Save as". A failed refresh keeps the last figures
// and says so; the next good one clears it.
import { assessmentFigures, chooseResultsPath, errorMessage, saveResults, type ExportFormat, type Figures } from "../../lib/api";

/** What the panel asks of the app (its commands; a test gives its own). */
export interface FiguresCommands {
  figures: (assessmentId: string) => Promise<Figures>;
  choosePath: (assessmentName: string, format: ExportFormat) => Promise<string | null>;
  save: (assessmentId: string, format: ExportFormat, path: string) => Promise<void>;
}

const COMMANDS: FiguresCommands = { figures: assessmentFigures, choosePath: chooseResultsPath, save: saveResults };

/** How often the progress is read again while the panel is open. */
export const REFRESH_MS = 30_000;

export const FORMAT_NAMES: Record<ExportFormat, string> = { csv: "CSV", xlsx: "Excel workbook", oneroster: "OneRoster gradebook" };

export class FiguresPanel {
  figures = $state<Figures | null>(null);
  error = $state<string | null>(null);
  saved = $state<string | null>(null);
  saving = $state(false);

  private readonly assessment: { id: string; name: string };
  private readonly commands: FiguresCommands;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(assessment: { id: string; name: string }, commands: FiguresCommands = COMMANDS) {
    this.assessment = assessment;
    this.commands = commands;
  }

  async load() {
    try {
      this.figures = await this.commands.figures(this.assessment.id);
      this.error = null;
    } catch (e) {
      this.error = `The figures could not be read: ${errorMessage(e)}`;
    }
  }

  /** Reads the figures now and again every [`REFRESH_MS`] until stopped. */
  start() {
    this.stop();
    void this.load();
    this.timer = setInterval(() => void this.load(), REFRESH_MS);
  }

  stop() {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Asks where, then saves; nothing happens when the coordinator cancels. */
  async saveAs(format: ExportFormat) {
    if (this.saving) return;
    this.saving = true;
    try {
      const path = await this.commands.choosePath(this.assessment.name, format);
      if (!path) return;
      await this.commands.save(this.assessment.id, format, path);
      this.saved = `${FORMAT_NAMES[format]} saved: ${path}`;
      this.error = null;
    } catch (e) {
      this.error = `The results were not saved: ${errorMessage(e)}`;
    } finally {
      this.saving = false;
    }
  }
}

/** Where a point of the facility-against-discrimination plot goes, in a box of
 * `width` × `height`: facility 0 to 1 left to right, discrimination −1 to 1 bottom
 * to top; none (nothing varied) sits on the axis. */
export function plotPoint(facility: number, discrimination: number | null, width: number, height: number) {
  const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
  return {
    x: clamp(facility, 0, 1) * width,
    y: (1 - (clamp(discrimination ?? 0, -1, 1) + 1) / 2) * height,
  };
}

/** A figure to three places, or a dash where none could be computed. */
export function figure(value: number | null | undefined): string {
  return value === null || value === undefined || Number.isNaN(value) ? "–" : value.toFixed(3);
}
