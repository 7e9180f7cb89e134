//! The tables of rubrics, dimensions, tasks, scores, banked comments, levels and scoring events.
#![allow(missing_docs)]

use sea_query::Iden;

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
    SeedFor,
    AnswerKey,
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
