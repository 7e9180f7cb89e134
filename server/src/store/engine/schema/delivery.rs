//! The tables of snapshots, print batches, attempts and answer uploads.
#![allow(missing_docs)]

use sea_query::Iden;

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
