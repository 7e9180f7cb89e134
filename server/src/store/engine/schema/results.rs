//! The tables of results, answers, topic scores, the audit log, the job queue and retention.
#![allow(missing_docs)]

use sea_query::Iden;

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
    SeedFor,
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
    AnswerKey,
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

#[derive(Iden, Clone, Copy)]
pub enum ItemStatistics {
    Table,
    CustomerId,
    AssessmentId,
    QuestionId,
    Position,
    MaxScore,
    N,
    Facility,
    Discrimination,
    Flags,
    ComputedAt,
}
