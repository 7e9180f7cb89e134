//! Table and column names for sea-query, one enum per table, matching the migrations.
#![allow(missing_docs)]

use sea_query::Iden;

#[derive(Iden, Clone, Copy)]
pub enum Customers {
    Table,
    Id,
    Name,
    RetentionDays,
    CreatedAt,
}

#[derive(Iden, Clone, Copy)]
pub enum Accounts {
    Table,
    Id,
    CustomerId,
    Username,
    PasswordHash,
    Role,
    CreatedAt,
}

#[derive(Iden, Clone, Copy)]
pub enum Groups {
    Table,
    Id,
    CustomerId,
    Name,
    Description,
}

#[derive(Iden, Clone, Copy)]
pub enum Participants {
    Table,
    Id,
    CustomerId,
    Name,
    FirstName,
    LastName,
    PrimaryEmail,
}

#[derive(Iden, Clone, Copy)]
pub enum GroupParticipants {
    Table,
    CustomerId,
    GroupId,
    ParticipantId,
}

#[derive(Iden, Clone, Copy)]
pub enum Assessments {
    Table,
    Id,
    CustomerId,
    Name,
    Language,
    Description,
    CreatedAt,
    ModifiedAt,
}

#[derive(Iden, Clone, Copy)]
pub enum Topics {
    Table,
    Id,
    CustomerId,
    ParentId,
    Name,
    Path,
}

#[derive(Iden, Clone, Copy)]
pub enum ScoreBands {
    Table,
    Id,
    CustomerId,
    AssessmentId,
    MinPercentage,
    Title,
}

#[derive(Iden, Clone, Copy)]
pub enum Questions {
    Table,
    Id,
    CustomerId,
    Revision,
    Language,
    Description,
    QuestionType,
    MaxScore,
    TopicId,
    Markup,
    CreatedAt,
    ModifiedAt,
    ShuffleChoices,
    ScoringRule,
    MapDefault,
    MapLower,
    MapUpper,
}

#[derive(Iden, Clone, Copy)]
pub enum Choices {
    Table,
    CustomerId,
    QuestionId,
    ChoiceOrder,
    Text,
    IsCorrect,
    MappedValue,
    Fixed,
}

#[derive(Iden, Clone, Copy)]
pub enum TextKeys {
    Table,
    CustomerId,
    QuestionId,
    KeyOrder,
    Text,
    CaseSensitive,
    MappedValue,
}

#[derive(Iden, Clone, Copy)]
pub enum ContentSources {
    Table,
    CustomerId,
    Kind,
    SourceKey,
    TargetId,
    Fingerprint,
    ImportedAt,
}

#[derive(Iden, Clone, Copy)]
pub enum AssessmentQuestions {
    Table,
    CustomerId,
    AssessmentId,
    Position,
    QuestionId,
}

#[derive(Iden, Clone, Copy)]
pub enum Rubrics {
    Table,
    Id,
    CustomerId,
    QuestionId,
    Name,
    Instructions,
    MaxScore,
    CreatedAt,
    ModifiedAt,
    ReplacedAt,
}

#[derive(Iden, Clone, Copy)]
pub enum Dimensions {
    Table,
    Id,
    CustomerId,
    RubricId,
    DimensionOrder,
    Name,
    Instructions,
    MaxScore,
}

#[derive(Iden, Clone, Copy)]
pub enum Results {
    Table,
    Id,
    CustomerId,
    AssessmentId,
    ParticipantId,
    ParticipantName,
    GroupId,
    GroupName,
    TestCenterName,
    ParticipantDetails,
    Status,
    MaxScore,
    TotalScore,
    ScoreBandTitle,
    PercentageScore,
    WhenFinished,
    WhenStarted,
    ExtraTime,
    StillGoing,
    TimeTaken,
    ScheduleName,
    FirstName,
    LastName,
    Language,
    AttemptId,
    ExternalResultId,
    ExternalResultInfo,
}

#[derive(Iden, Clone, Copy)]
pub enum Answers {
    Table,
    CustomerId,
    QuestionId,
    ResultId,
    Occurrence,
    BlockNumber,
    QuestionNumber,
    MaxScore,
    ActualScore,
    Revision,
    MediaType,
    Content,
}

#[derive(Iden, Clone, Copy)]
pub enum ScoringTasks {
    Table,
    CustomerId,
    QuestionId,
    ResultId,
    GroupId,
    AssessmentId,
    Status,
    CreatedAt,
    ModifiedAt,
    ResultFinishedAt,
}

#[derive(Iden, Clone, Copy)]
pub enum ScoringResults {
    Table,
    CustomerId,
    QuestionId,
    RubricId,
    ResultId,
    Score,
    Comments,
    CreatedAt,
    ModifiedAt,
}

#[derive(Iden, Clone, Copy)]
pub enum DimensionScores {
    Table,
    CustomerId,
    QuestionId,
    RubricId,
    ResultId,
    DimensionOrder,
    Score,
    Comment,
}

#[derive(Iden, Clone, Copy)]
pub enum TopicScores {
    Table,
    CustomerId,
    ResultId,
    TopicId,
    PercentageScore,
    TotalScore,
    MaxScore,
    ScoreBandTitle,
    NumQuestions,
    TopicPath,
}

#[derive(Iden, Clone, Copy)]
pub enum BankedComments {
    Table,
    Id,
    CustomerId,
    QuestionId,
    DimensionOrder,
    Text,
    CreatedBy,
    CreatedAt,
    ModifiedAt,
}

#[derive(Iden, Clone, Copy)]
pub enum DimensionLevels {
    Table,
    CustomerId,
    RubricId,
    DimensionOrder,
    Score,
    Description,
}

#[derive(Iden, Clone, Copy)]
pub enum ScoringEvents {
    Table,
    Id,
    CustomerId,
    QuestionId,
    ResultId,
    PreviousStatus,
    Status,
    Score,
    Account,
    At,
}

/// Kept by triggers (migration 10); read by `$count` and by `/metrics`.
#[derive(Iden, Clone, Copy)]
pub enum ScoringTaskCounts {
    Table,
    CustomerId,
    Status,
    Tasks,
}

#[derive(Iden, Clone, Copy)]
pub enum AssessmentSnapshots {
    Table,
    Id,
    CustomerId,
    AssessmentId,
    Name,
    Language,
    CreatedAt,
    ModifiedAt,
    ExpiresAt,
    DataXml,
}

/// A snapshot's questions in order (migration 11).
#[derive(Iden, Clone, Copy)]
pub enum SnapshotQuestions {
    Table,
    CustomerId,
    SnapshotId,
    Position,
    QuestionId,
}

/// A snapshot's choices in its order (migration 11).
#[derive(Iden, Clone, Copy)]
pub enum SnapshotChoices {
    Table,
    CustomerId,
    SnapshotId,
    Position,
    ChoicePosition,
    ChoiceOrder,
}

/// The key printable links are signed with (migration 12); one row, ID 1.
#[derive(Iden, Clone, Copy)]
pub enum SigningKeys {
    Table,
    Id,
    Secret,
    CreatedAt,
}

#[derive(Iden, Clone, Copy)]
pub enum PrintBatches {
    Table,
    Id,
    CustomerId,
    GroupId,
    SnapshotId,
    Name,
    CreatedAt,
    ModifiedAt,
    LastUploadedAt,
}

#[derive(Iden, Clone, Copy)]
pub enum Attempts {
    Table,
    Id,
    CustomerId,
    ParticipantId,
    AssessmentId,
    SnapshotId,
    ExternalAttemptId,
    LockStatus,
    LockRequired,
    ResultId,
    LastModifiedAt,
}

#[derive(Iden, Clone, Copy)]
pub enum AnswerUploads {
    Table,
    AttemptId,
    CustomerId,
    ContentType,
    UploadedAt,
    Content,
}

#[derive(Iden, Clone, Copy)]
pub enum ResultsAuditLog {
    Table,
    Id,
    CustomerId,
    MessageId,
    RequestUserId,
    RequestType,
    RequestData,
    Source,
    RequestAt,
    IsInQueue,
    ProcessedAt,
    WasSuccessful,
    TotalResultsAffected,
}

#[derive(Iden, Clone, Copy)]
pub enum Jobs {
    Table,
    Id,
    CustomerId,
    Kind,
    Payload,
    AuditLogId,
    Attempts,
    RunAfter,
    LockedUntil,
    LastError,
    CreatedAt,
    LeaseOwner,
    ResultsDone,
}

#[derive(Iden, Clone, Copy)]
pub enum RetentionPolicies {
    Table,
    CustomerId,
    Days,
    SetAt,
}

#[derive(Iden, Clone, Copy)]
pub enum ScheduledPurges {
    Table,
    CustomerId,
    Day,
}
