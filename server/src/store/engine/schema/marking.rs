//! The tables of marking quality (docs/marking-quality.md): flags and their answers.

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
