//! The tables of marking quality (docs/marking-quality.md): flags and their
//! answers, second marking's plans, markings and queue.

use sea_query::Iden;

#[derive(Iden, Clone, Copy)]
pub enum Flags {
    Table,
    Id,
    CustomerId,
    QuestionId,
    ResultId,
    Reason,
    Note,
    RaisedBy,
    RaisedAt,
    IsOpen,
}

#[derive(Iden, Clone, Copy)]
pub enum FlagAnswers {
    Table,
    FlagId,
    CustomerId,
    ResultId,
    Outcome,
    Note,
    AnsweredBy,
    AnsweredAt,
}

#[derive(Iden, Clone, Copy)]
pub enum MarkingPlans {
    Table,
    CustomerId,
    QuestionId,
    Share,
    Tolerance,
    Rule,
    ModifiedAt,
    SeedRate,
    SeedTolerance,
}

#[derive(Iden, Clone, Copy)]
pub enum Markings {
    Table,
    Id,
    CustomerId,
    QuestionId,
    ResultId,
    Round,
    RubricId,
    MarkedBy,
    Score,
    Comments,
    IsSubmitted,
    StartedAt,
    SubmittedAt,
    ModifiedAt,
}

#[derive(Iden, Clone, Copy)]
pub enum MarkingScores {
    Table,
    MarkingId,
    DimensionOrder,
    CustomerId,
    ResultId,
    MarkedBy,
    Score,
    Comment,
}

#[derive(Iden, Clone, Copy)]
pub enum MarkingQueue {
    Table,
    CustomerId,
    QuestionId,
    ResultId,
    Round,
    Tolerance,
    Rule,
    FirstMarker,
    SecondMarker,
    ClaimedBy,
    QueuedAt,
}

#[derive(Iden, Clone, Copy)]
pub enum Seeds {
    Table,
    Id,
    CustomerId,
    QuestionId,
    ResultId,
    RubricId,
    Score,
    Reasons,
    CreatedBy,
    CreatedAt,
}

#[derive(Iden, Clone, Copy)]
pub enum SeedScores {
    Table,
    SeedId,
    DimensionOrder,
    CustomerId,
    Score,
    Reason,
}

#[derive(Iden, Clone, Copy)]
pub enum SeedCopies {
    Table,
    ResultId,
    CustomerId,
    SeedId,
    QuestionId,
    Marker,
    ServedAt,
    MarkedAt,
    Score,
    Deviation,
}

#[derive(Iden, Clone, Copy)]
pub enum MarkerPauses {
    Table,
    Id,
    CustomerId,
    QuestionId,
    Marker,
    SeedsCounted,
    MeanDeviation,
    Tolerance,
    Message,
    PausedAt,
    IsOpen,
}

#[derive(Iden, Clone, Copy)]
pub enum MarkerReleases {
    Table,
    PauseId,
    CustomerId,
    Note,
    ReleasedBy,
    ReleasedAt,
}

#[derive(Iden, Clone, Copy)]
pub enum AnswerGroupMarkings {
    Table,
    Id,
    CustomerId,
    QuestionId,
    ResultId,
    RubricId,
    Marker,
    MarkedAt,
    Members,
    Remaining,
}

#[derive(Iden, Clone, Copy)]
pub enum AnswerGroupMembers {
    Table,
    MarkingId,
    ResultId,
    CustomerId,
    QuestionId,
    Marker,
}

#[derive(Iden, Clone, Copy)]
pub enum Annotations {
    Table,
    Id,
    CustomerId,
    QuestionId,
    ResultId,
    Occurrence,
    BlockNumber,
    Kind,
    Points,
    TextStart,
    TextEnd,
    Note,
    MarkedBy,
    CreatedAt,
    ModifiedAt,
}

#[derive(Iden, Clone, Copy)]
pub enum RubricRegrades {
    Table,
    Id,
    CustomerId,
    QuestionId,
    FromRubricId,
    ToRubricId,
    Reason,
    ScoreMaps,
    Scripts,
    Regraded,
    TotalsChanged,
    ResultsRescored,
    Markings,
    Seeds,
    RequestedBy,
    RequestedAt,
    CompletedAt,
}
