// Every call to the Rust side goes through here, with the types the Rust side
// declares: ./bindings is generated from them by ts-rs (`cargo test -p
// scoredesk-desktop`, which scripts/test runs before the UI is checked), so the two
// sides cannot drift apart. The UI never sees a password after it has handed one to
// `connectRemote`: the Rust side keeps credentials.
import { Channel, invoke } from "@tauri-apps/api/core";

import type { BankedComment } from "./bindings/BankedComment";
import type { FlagDesk } from "./bindings/FlagDesk";
import type { SeedsDesk } from "./bindings/SeedsDesk";
import type { FiguresQuestion } from "./bindings/FiguresQuestion";
import type { OtherAnswer } from "./bindings/OtherAnswer";
import type { GroupApplied } from "./bindings/GroupApplied";
import type { Annotation } from "./bindings/Annotation";
import type { NewAnnotation } from "./bindings/NewAnnotation";
import type { AnswerView } from "./bindings/AnswerView";
import type { MarkerFigures } from "./bindings/MarkerFigures";
import type { MarkingDraft } from "./bindings/MarkingDraft";
import type { MarkingOutcome } from "./bindings/MarkingOutcome";
import type { MarkingView } from "./bindings/MarkingView";
import type { SecondMarkingDesk } from "./bindings/SecondMarkingDesk";
import type { RosterReport } from "./bindings/RosterReport";
import type { PeopleDirectory } from "./bindings/PeopleDirectory";
import type { PersonCard } from "./bindings/PersonCard";
import type { PersonForm } from "./bindings/PersonForm";
import type { CommandError } from "./bindings/CommandError";
import type { ConnectionStatus } from "./bindings/ConnectionStatus";
import type { Draft } from "./bindings/Draft";
import type { FilterOptions } from "./bindings/FilterOptions";
import type { Opening } from "./bindings/Opening";
import type { QuestionProgress } from "./bindings/QuestionProgress";
import type { Queue } from "./bindings/Queue";
import type { ScoredEvent } from "./bindings/ScoredEvent";
import type { QueueFilter } from "./bindings/QueueFilter";
import type { RemoteServer } from "./bindings/RemoteServer";
import type { ScoringView } from "./bindings/ScoringView";
import type { SubmitOutcome } from "./bindings/SubmitOutcome";

export type { AnswerView } from "./bindings/AnswerView";
export type { GroupApplied } from "./bindings/GroupApplied";
export type { Annotation } from "./bindings/Annotation";
export type { NewAnnotation } from "./bindings/NewAnnotation";
export type { FlagDesk } from "./bindings/FlagDesk";
export type { SeedsDesk } from "./bindings/SeedsDesk";
export type { PauseEntry } from "./bindings/PauseEntry";
export type { SeedMarkingEntry } from "./bindings/SeedMarkingEntry";
export type { FlagEntry } from "./bindings/FlagEntry";
export type { Choice } from "./bindings/Choice";
export type { ConnectionState } from "./bindings/ConnectionState";
export type { DimensionDraft } from "./bindings/DimensionDraft";
export type { DimensionView } from "./bindings/DimensionView";
export type { GroupCounts } from "./bindings/GroupCounts";
export type { KeptDraft } from "./bindings/KeptDraft";
export type { QueueTask } from "./bindings/QueueTask";
export type { RubricView } from "./bindings/RubricView";
export type {
  BankedComment,
  CommandError,
  ConnectionStatus,
  Draft,
  FilterOptions,
  Opening,
  QuestionProgress,
  Queue,
  QueueFilter,
  RemoteServer,
  ScoringView,
  SubmitOutcome,
};

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

export const loadQueue = (filter: QueueFilter) => invoke<Queue>("load_queue", { filter });
export const openTask = (questionId: string, resultId: number, opening: Opening) =>
  invoke<ScoringView>("open_task", { questionId, resultId, opening });
export const filterOptions = () => invoke<FilterOptions>("filter_options");
/** What this account saved or submitted lately, on any computer (ScoringEvents). */
export const scoringHistory = () => invoke<ScoredEvent[]>("scoring_history");

// ----- The comment bank (src-tauri/src/scoring/comment_bank.rs) -----

export const commentBank = (questionId: string) => invoke<BankedComment[]>("comment_bank", { questionId });
export const bankComment = (questionId: string, dimensionOrder: number | null, text: string) =>
  invoke<BankedComment>("bank_comment", { questionId, dimensionOrder, text });
export const editBankedComment = (comment: BankedComment) => invoke<void>("edit_banked_comment", { comment });
export const forgetBankedComment = (id: number) => invoke<void>("forget_banked_comment", { id });

// Flags to the lead marker (desks/flags, docs/marking-quality.md).
export const raiseFlag = (questionId: string, resultId: number, reason: string, note: string) =>
  invoke<void>("raise_flag", { questionId, resultId, reason, note });
export const flagDesk = () => invoke<FlagDesk>("flag_desk");
export const seedsDesk = () => invoke<SeedsDesk>("seeds_desk");
export const releasePause = (id: number, note: string) => invoke<void>("release_pause", { id, note });
export const makeSeed = (questionId: string, resultId: number, reasons: string) => invoke<void>("make_seed", { questionId, resultId, reasons });
export const answerFlag = (id: number, outcome: "released" | "taken-over", note: string) => invoke<void>("answer_flag", { id, outcome, note });

// Double-blind second marking (desks/second, docs/marking-quality.md).
export type { SecondMarkingDesk } from "./bindings/SecondMarkingDesk";
export type { WaitingRound } from "./bindings/WaitingRound";
export type { TakenMarking } from "./bindings/TakenMarking";
export type { MarkingView } from "./bindings/MarkingView";
export type { MarkingDraft } from "./bindings/MarkingDraft";
export type { MarkingScoreDraft } from "./bindings/MarkingScoreDraft";
export type { MarkingOutcome } from "./bindings/MarkingOutcome";
export type { EarlierMarking } from "./bindings/EarlierMarking";
export const secondMarkingDesk = () => invoke<SecondMarkingDesk>("second_marking_desk");
export const takeMarking = (questionId: string, resultId: number) => invoke<MarkingView>("take_marking", { questionId, resultId });
export const openMarking = (markingId: number) => invoke<MarkingView>("open_marking", { markingId });
/** Keeps the marking's scores on the server (`submit` false) or submits them. */
export const saveMarking = (draft: MarkingDraft, submit: boolean) => invoke<MarkingOutcome>("save_marking", { draft, submit });
export const giveBackMarking = (markingId: number) => invoke<void>("give_back_marking", { markingId });

// Each marker's figures, for the lead marker (desks/markers, docs/desktop.md "Markers").
export type { FiguresQuestion } from "./bindings/FiguresQuestion";
export type { MarkerFigures } from "./bindings/MarkerFigures";
export type { MarkerLine } from "./bindings/MarkerLine";
export type { DriftPoint } from "./bindings/DriftPoint";
/** Whether this account reads the markers' figures (a lead marker or an administrator). */
export const figuresAccess = () => invoke<boolean>("figures_access");
export const figuresQuestions = () => invoke<FiguresQuestion[]>("figures_questions");
export const markerFigures = (questionId: string) => invoke<MarkerFigures>("marker_figures", { questionId });

/** The same participant's other answers in the assessment (read only), and one of them. */
export type { OtherAnswer } from "./bindings/OtherAnswer";
export const otherAnswers = (questionId: string, resultId: number) => invoke<OtherAnswer[]>("other_answers", { questionId, resultId });
export const otherAnswer = (questionId: string, resultId: number) => invoke<AnswerView>("other_answer", { questionId, resultId });
/** Annotations on an answer block: this account's own (a lead's: everyone's), placed and removed one at a time. */
export const annotationsOf = (questionId: string, resultId: number, occurrence: number, blockNumber: number) =>
  invoke<Annotation[]>("annotations", { questionId, resultId, occurrence, blockNumber });
export const placeAnnotation = (annotation: NewAnnotation) => invoke<Annotation>("place_annotation", { annotation });
export const removeAnnotation = (id: number) => invoke<null>("remove_annotation", { id });
/** Answer groups: the open tasks whose typed answer is alike this one's, and applying a submitted marking to them. */
export const answersAlike = (questionId: string, resultId: number) => invoke<number[]>("answers_alike", { questionId, resultId });
export const applyAnswerGroup = (questionId: string, resultId: number) => invoke<GroupApplied>("apply_answer_group", { questionId, resultId });

/** Grade by question: the questions with tasks to score, each with its progress. */
export const questionsToGrade = () => invoke<QuestionProgress[]>("questions_to_grade");
export const questionProgress = (questionId: string) => invoke<QuestionProgress>("question_progress", { questionId });
/** Decodes the scan of a task ahead of taking it, so that "next" shows it at once. */
export const prepareTask = (questionId: string, resultId: number) =>
  invoke<string | null>("prepare_task", { questionId, resultId });
/** Saves (Status 2) or submits (Status 3) the scorer's version. */
export const submitScores = (draft: Draft, status: 2 | 3) => invoke<SubmitOutcome>("submit_scores", { draft, status });
export const releaseTask = (questionId: string, resultId: number) =>
  invoke<void>("release_task", { questionId, resultId });
export const answerImageFull = (questionId: string, resultId: number, occurrence: number, blockNumber: number) =>
  invoke<string>("answer_image_full", { questionId, resultId, occurrence, blockNumber });
/** Milliseconds since the app's process started. */
export const startupElapsedMs = () => invoke<number>("startup_elapsed_ms");

// ----- Drafts kept on disk (src-tauri/src/drafts.rs) -----

/** The drafts' commands, by name: the durable store sends them one after another. */
export type DraftCommand = "kept_drafts" | "keep_draft" | "forget_draft";
export const draftCommand = (command: DraftCommand, args: Record<string, unknown>) => invoke<unknown>(command, args);

// ----- The coordinator's work (src-tauri/src/delivery) -----

export type { DeliveryAssessment } from "./bindings/DeliveryAssessment";
export type { Snapshot } from "./bindings/Snapshot";
import type { DeliveryAssessment } from "./bindings/DeliveryAssessment";
import type { Snapshot } from "./bindings/Snapshot";

/** Whether this account may use the delivery screens (the server's 403 is the fence). */
export const deliveryAccess = () => invoke<boolean>("delivery_access");
export const deliveryAssessments = () => invoke<DeliveryAssessment[]>("delivery_assessments");
export const snapshots = (assessmentId: string) => invoke<Snapshot[]>("snapshots", { assessmentId });
export const createSnapshot = (assessmentId: string, name: string, expires: string | null) =>
  invoke<Snapshot>("create_snapshot", { assessmentId, name, expires });
export type { Made } from "./bindings/Made";
import type { Made } from "./bindings/Made";
/** Renames a snapshot or a print batch. */
export const renameMade = (made: Made, id: string, name: string) => invoke<void>("rename_made", { made, id, name });
/** Deletes a snapshot or a print batch nothing uses; the server's refusal says what uses it. */
export const deleteMade = (made: Made, id: string) => invoke<void>("delete_made", { made, id });
/** Opens the printable page (or the answer key) in its own window, through a fresh link. */
export const openPrintable = (snapshotId: string, answerKey: boolean) => invoke<string>("open_printable", { snapshotId, answerKey });

export type { DeliveryGroup } from "./bindings/DeliveryGroup";
export type { PrintBatch } from "./bindings/PrintBatch";
export type { BatchAttempt } from "./bindings/BatchAttempt";
export type { AttemptsProgress } from "./bindings/AttemptsProgress";
export type { AttemptsSummary } from "./bindings/AttemptsSummary";
import type { DeliveryGroup } from "./bindings/DeliveryGroup";
import type { PrintBatch } from "./bindings/PrintBatch";
import type { BatchAttempt } from "./bindings/BatchAttempt";
import type { AttemptsProgress } from "./bindings/AttemptsProgress";
import type { AttemptsSummary } from "./bindings/AttemptsSummary";

export const deliveryGroups = () => invoke<DeliveryGroup[]>("delivery_groups");
export const printBatches = (snapshotId: string) => invoke<PrintBatch[]>("print_batches", { snapshotId });
export const createPrintBatch = (snapshotId: string, groupId: string, name: string) =>
  invoke<PrintBatch>("create_print_batch", { snapshotId, groupId, name });
export const batchAttempts = (batchId: string) => invoke<BatchAttempt[]>("batch_attempts", { batchId });
/** Makes an attempt for everyone of the batch without one; `onprogress` follows it. */
export function createAttempts(batchId: string, onprogress: (progress: AttemptsProgress) => void) {
  const progress = new Channel<AttemptsProgress>();
  progress.onmessage = onprogress;
  return invoke<AttemptsSummary>("create_attempts", { batchId, progress });
}

export type { AnswerFiles } from "./bindings/AnswerFiles";
export type { UploadOutcome } from "./bindings/UploadOutcome";
import type { AnswerFiles } from "./bindings/AnswerFiles";
import type { UploadOutcome } from "./bindings/UploadOutcome";

/** The answer files among paths (a folder for its .json files). */
export const answerFiles = (paths: string[]) => invoke<AnswerFiles>("answer_files", { paths });
export const uploadAnswerFile = (path: string) => invoke<UploadOutcome>("upload_answer_file", { path });
/** The system's file chooser; an empty list if cancelled. */
export const pickAnswerFiles = (folder: boolean) => invoke<string[]>("pick_answer_files", { folder });

// ----- Answer sheets: printed, scanned, read back (src-tauri/src/delivery/sheets.rs) -----

export type { ScanProgress } from "./bindings/ScanProgress";
export type { SheetAttempt } from "./bindings/SheetAttempt";
export type { SheetDoubt } from "./bindings/SheetDoubt";
export type { SheetScanReport } from "./bindings/SheetScanReport";
export type { SheetUpload } from "./bindings/SheetUpload";
import type { ScanProgress } from "./bindings/ScanProgress";
import type { SheetScanReport } from "./bindings/SheetScanReport";
import type { SheetUpload } from "./bindings/SheetUpload";

/** Opens the batch's personal answer sheets in a print window. */
export const openAnswerSheets = (batchId: string) => invoke<string>("open_answer_sheets", { batchId });
/** Reads scans (files, or folders of them) of the batch; `onprogress` counts the pages. */
export function readSheetScans(batchId: string, paths: string[], onprogress: (progress: ScanProgress) => void) {
  const progress = new Channel<ScanProgress>();
  progress.onmessage = onprogress;
  return invoke<SheetScanReport>("read_sheet_scans", { batchId, paths, progress });
}
/** The coordinator's decision on an unsure question: the choices marked. */
export const decideSheetDoubt = (attemptId: number, question: number, part: number, choices: number[]) =>
  invoke<void>("decide_sheet_doubt", { attemptId, question, part, choices });
/** What the coordinator read in a short answer's box (a blank's: part > 0), typed ("": nothing written). */
export const transcribeSheetAnswer = (attemptId: number, question: number, part: number, text: string) =>
  invoke<void>("transcribe_sheet_answer", { attemptId, question, part, text });
/** Uploads every attempt read whose unsure marks are all decided and short answers typed. */
export const uploadSheetReadings = () => invoke<SheetUpload[]>("upload_sheet_readings");
/** The system's chooser for scans; an empty list if cancelled. */
export const pickScans = (folder: boolean) => invoke<string[]>("pick_scans", { folder });

export type { BatchResult } from "./bindings/BatchResult";
import type { BatchResult } from "./bindings/BatchResult";
/** The Results with these IDs: score, band, status, the questions still open. */
export const batchResults = (resultIds: string[]) => invoke<BatchResult[]>("batch_results", { resultIds });
/** The question of a Result's first task a scorer can take now (its question has a rubric). */
export const firstScorableTask = (resultId: string) => invoke<string | null>("first_scorable_task", { resultId });

export type { AdminResult } from "./bindings/AdminResult";
export type { AuditEntry } from "./bindings/AuditEntry";
export type { PurgePlan } from "./bindings/PurgePlan";
export type { PurgeTarget } from "./bindings/PurgeTarget";
import type { AdminResult } from "./bindings/AdminResult";
import type { AuditEntry } from "./bindings/AuditEntry";
import type { PurgePlan } from "./bindings/PurgePlan";
import type { PurgeTarget } from "./bindings/PurgeTarget";

export const assessmentResults = (assessmentId: string) => invoke<AdminResult[]>("assessment_results", { assessmentId });
/** Pauses, resumes or terminates a result (`status`), or sets its extra time (seconds). */
export const changeResult = (resultId: string, status: number | null, extraTime: number | null) =>
  invoke<AdminResult>("change_result", { resultId, status, extraTime });
/** What a purge would remove, counted now. */
export const purgePlan = (target: PurgeTarget) => invoke<PurgePlan>("purge_plan", { target });
/** Asks for a purge; the audit log entry to follow. */
export const purge = (target: PurgeTarget) => invoke<AuditEntry>("purge", { target });
export const auditEntry = (id: string) => invoke<AuditEntry>("audit_entry", { id });
export const auditLog = () => invoke<AuditEntry[]>("audit_log");

// ----- An assessment's figures and its results saved (src-tauri/src/delivery/figures.rs) -----

export type { Figures } from "./bindings/Figures";
export type { ItemLine } from "./bindings/ItemLine";
export type { ProgressLine } from "./bindings/ProgressLine";
import type { Figures } from "./bindings/Figures";

/** The assessment's marking progress and item analysis, computed now. */
export const assessmentFigures = (assessmentId: string) => invoke<Figures>("assessment_figures", { assessmentId });
/** The system's "Save as" for the results in `format`; null if cancelled. */
export const chooseResultsPath = (assessmentName: string, format: ExportFormat) =>
  invoke<string | null>("choose_results_path", { assessmentName, format });
/** Saves the assessment's results in `format` at `path`, whole or not at all. */
export const saveResults = (assessmentId: string, format: ExportFormat, path: string) =>
  invoke<void>("save_results", { assessmentId, format, path });
export type ExportFormat = "csv" | "xlsx" | "oneroster";

// ----- Content (src-tauri/src/content) -----

export type { PackageReport } from "./bindings/PackageReport";
export type { ReportQuestion } from "./bindings/ReportQuestion";
export type { ReportSkipped } from "./bindings/ReportSkipped";
import type { PackageReport } from "./bindings/PackageReport";

/** Sends a QTI package to the server: `preview` stores nothing and says what importing would do. */
export const importQtiPackage = (path: string, preview: boolean) => invoke<PackageReport>("import_qti_package", { path, preview });
/** The system's file chooser for a package; null if cancelled. */
export const pickQtiPackage = () => invoke<string | null>("pick_qti_package");

export type { RubricQuestion } from "./bindings/RubricQuestion";
export type { RubricForm } from "./bindings/RubricForm";
export type { DimensionForm } from "./bindings/DimensionForm";
export type { SavedRubric } from "./bindings/SavedRubric";
import type { RubricQuestion } from "./bindings/RubricQuestion";
import type { RubricForm } from "./bindings/RubricForm";
import type { SavedRubric } from "./bindings/SavedRubric";

/** The essays of an assessment, each with its current rubric. */
export const rubricQuestions = (assessmentId: string) => invoke<RubricQuestion[]>("rubric_questions", { assessmentId });
/** A question's rubric as a form (a new one if it has none). */
export const rubricForm = (questionId: string) => invoke<RubricForm>("rubric_form", { questionId });
/** Saves the form as its question's new rubric (the server keeps a used one for its scores). */
export const saveRubric = (form: RubricForm) => invoke<SavedRubric>("save_rubric", { form });

export type { RegradePlan } from "./bindings/RegradePlan";
export type { RegradeDimension } from "./bindings/RegradeDimension";
export type { RegradeRequest } from "./bindings/RegradeRequest";
export type { RegradeDone } from "./bindings/RegradeDone";
import type { RegradePlan } from "./bindings/RegradePlan";
import type { RegradeRequest } from "./bindings/RegradeRequest";
import type { RegradeDone } from "./bindings/RegradeDone";

/** What regrading the scripts marked with rubric `from` onto `to` would move. */
export const regradePlan = (from: number, to: number) => invoke<RegradePlan>("regrade_plan", { from, to });
/** Regrades those scripts with the count and maps confirmed (the server judges both). */
export const regradeScripts = (request: RegradeRequest) => invoke<RegradeDone>("regrade_scripts", { request });

export type { RosterReport } from "./bindings/RosterReport";
export type { PeopleDirectory } from "./bindings/PeopleDirectory";
export type { Person } from "./bindings/Person";
export type { GroupLine } from "./bindings/GroupLine";
export type { PersonCard } from "./bindings/PersonCard";
export type { PersonForm } from "./bindings/PersonForm";

/** Sends a roster (a OneRoster zip or folder, or a plain CSV) to import, or only to preview. */
export const importRoster = (path: string, preview: boolean) => invoke<RosterReport>("import_roster", { path, preview });
/** The system's file chooser for a roster; null if cancelled. */
export const pickRoster = () => invoke<string | null>("pick_roster");
export const peopleDirectory = () => invoke<PeopleDirectory>("people_directory");
export const personCard = (participantId: string) => invoke<PersonCard>("person_card", { participantId });
/** Adds or changes a participant and makes their groups the form's; their ID. */
export const savePerson = (form: PersonForm) => invoke<string>("save_person", { form });
/** Opens a group's class list in a print window. */
export const openClassList = (groupId: string) => invoke<string>("open_class_list", { groupId });
/** Opens a result's marked script (its answers with the marks, scores and comments) in a print window. */
export const openMarkedScript = (resultId: string) => invoke<string>("open_marked_script", { resultId });
