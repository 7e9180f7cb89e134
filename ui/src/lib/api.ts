// The Tauri commands the Rust side offers. The UI never sees a password after it
// has handed one to `connectRemote`: the Rust side keeps credentials.
import { invoke } from "@tauri-apps/api/core";

export type ConnectionState = "starting" | "connected" | "unauthorized" | "unreachable" | "failed";

export interface ConnectionStatus {
  state: ConnectionState;
  mode: "embedded" | "remote";
  serverUrl: string | null;
  customerId: number | null;
  areaName: string | null;
  username: string | null;
  openTasks: number | null;
  message: string | null;
  /** Something to know although the connection works. */
  notice: string | null;
  /** For a remote server: where its password is remembered. */
  passwordStore: "keyring" | "privateFile" | null;
  /** When the server was last asked, ISO 8601. */
  checkedAt: string;
}

export interface RemoteServer {
  url: string;
  customerId: number;
  username: string;
  password: string;
  /** The scorer confirmed the warning that this server gets the password unencrypted. */
  allowCleartext: boolean;
}

/** The error every command returns: a kind to branch on and words for people. */
export interface CommandError {
  kind: string;
  message: string;
}

export const connectionStatus = () => invoke<ConnectionStatus>("connection_status");
export const connectRemote = (server: RemoteServer) => invoke<ConnectionStatus>("connect_remote", { server });
export const useEmbedded = () => invoke<ConnectionStatus>("use_embedded");

/** Whether a command failed because the server could not be reached. */
export function isUnreachable(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as CommandError).kind === "unreachable";
}

export function errorMessage(error: unknown): string {
  if (typeof error === "object" && error !== null && "message" in error) {
    return String((error as CommandError).message);
  }
  return String(error);
}

// ----- The scorer's work (src-tauri/src/scoring) -----

export interface QueueFilter {
  /** "open" (Status 0, the default) or "saved" (Status 2, for moderation). */
  kind?: "open" | "saved";
  group?: string | null;
  assessmentId?: string | null;
  questionId?: string | null;
}

export interface QueueTask {
  questionId: string;
  resultId: number;
  assessmentId: string | null;
  groupName: string | null;
  finishedAt: string | null;
  participant: string | null;
  question: string | null;
}

export interface GroupCounts {
  name: string;
  unscored: number;
  saved: number;
}

export interface Queue {
  tasks: QueueTask[];
  /** How many tasks match the filter; null when nothing narrows the list. */
  matching: number | null;
  groups: GroupCounts[];
  checkedAt: string;
}

export interface DimensionView {
  order: number;
  name: string | null;
  instructions: string | null;
  maxScore: number;
  score: number | null;
  comment: string | null;
}

export interface RubricView {
  rubricId: number;
  name: string | null;
  instructions: string | null;
  maxScore: number | null;
  dimensions: DimensionView[];
  score: number | null;
  comments: string | null;
  /** The ScoringResult's ModifiedDateTime as read; sent back unchanged. */
  modified: unknown;
}

export type AnswerView =
  | { kind: "text"; text: string }
  | {
      kind: "image";
      dataUrl: string;
      width: number;
      height: number;
      fullWidth: number;
      fullHeight: number;
      occurrence: number;
      blockNumber: number;
      /** Decoded ahead by `prepareTask`, so "next" did not wait for it. */
      prepared: boolean;
    }
  | { kind: "other"; mediaType: string };

export interface ScoringView {
  questionId: string;
  resultId: number;
  /** 1 when taken to score, 2 when opened for review. */
  status: number | null;
  participant: string | null;
  groupName: string | null;
  finishedAt: string | null;
  question: string | null;
  maxScore: number | null;
  /** Sanitised on the Rust side: safe to insert. */
  markupHtml: string;
  answer: AnswerView;
  rubric: RubricView | null;
}

export interface DimensionDraft {
  order: number;
  score: number | null;
  comment: string | null;
}

export interface Draft {
  questionId: string;
  resultId: number;
  rubricId: number;
  modified: unknown;
  score: number | null;
  comments: string | null;
  dimensions: DimensionDraft[];
}

export type SubmitOutcome = { outcome: "saved" } | { outcome: "conflict"; stored: Draft };

export const loadQueue = (filter: QueueFilter) => invoke<Queue>("load_queue", { filter });
/** How a task is opened: taken (Status 1), for review (unclaimed), or resumed from a kept draft. */
export type Opening = "claim" | "review" | "resume";
export const openTask = (questionId: string, resultId: number, opening: Opening) =>
  invoke<ScoringView>("open_task", { questionId, resultId, opening });


export interface Choice {
  id: string;
  name: string;
}
export interface FilterOptions {
  assessments: Choice[];
  questions: Choice[];
}
export const filterOptions = () => invoke<FilterOptions>("filter_options");
/** Decodes the scan of a task ahead of taking it, so that "next" shows it at once. */
export const prepareTask = (questionId: string, resultId: number) =>
  invoke<string | null>("prepare_task", { questionId, resultId });
export const submitScores = (draft: Draft, status: 2 | 3) => invoke<SubmitOutcome>("submit_scores", { draft, status });
export const releaseTask = (questionId: string, resultId: number) =>
  invoke<void>("release_task", { questionId, resultId });
export const answerImageFull = (questionId: string, resultId: number, occurrence: number, blockNumber: number) =>
  invoke<string>("answer_image_full", { questionId, resultId, occurrence, blockNumber });
/** Milliseconds since the app's process started. */
export const startupElapsedMs = () => invoke<number>("startup_elapsed_ms");
