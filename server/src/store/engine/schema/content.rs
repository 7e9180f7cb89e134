//! The tables of groups, participants, assessments, topics, score bands, questions and where they came from.
#![allow(missing_docs)]

use sea_query::Iden;

#[derive(Iden, Clone, Copy)]
pub enum Groups {
    Table,
    Id,
    CustomerId,
    Name,
    Description,
    ExternalKey,
    Code,
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
    ExternalKey,
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
    TemplateXml,
    InstanceOf,
    MaxChoices,
    PictureWidth,
    PictureHeight,
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
    PartNumber,
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
    NumericLow,
    NumericHigh,
    /// A fill-in-the-blanks question's blank (0: a text entry's one answer).
    PartNumber,
}

#[derive(Iden, Clone, Copy)]
pub enum QuestionParts {
    Table,
    CustomerId,
    QuestionId,
    PartNumber,
    Text,
}

#[derive(Iden, Clone, Copy)]
pub enum PairKeys {
    Table,
    CustomerId,
    QuestionId,
    PartNumber,
    ChoiceOrder,
    IsCorrect,
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
