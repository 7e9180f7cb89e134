//! The rows of `Flags` and `FlagAnswers` (our extension): the flag a URL
//! addresses, a task's open flag and status under its result's lock, and the
//! writes, each in the transaction it is given. The rules are `model::flags`.

use sea_query::{Expr, Query};

use crate::model::area::CustomerArea;
use crate::model::flags::{FlagOutcome, FlagReason};
use crate::model::scoring::{TaskKey, TaskStatus};
use crate::store::schema::{FlagAnswers, Flags, ScoringTasks};
use crate::store::{now_millis, Store, StoreError, Tx};

/// A flag as the answer to it needs it.
#[derive(Debug, Clone)]
pub struct StoredFlag {
    pub id: i32,
    pub task: TaskKey,
    pub is_open: bool,
}

/// A flag to raise, checked.
pub struct NewFlag<'a> {
    pub task: TaskKey,
    pub reason: FlagReason,
    pub note: &'a str,
    pub raised_by: &'a str,
}

/// A lead marker's answer, checked.
pub struct NewFlagAnswer<'a> {
    pub flag: &'a StoredFlag,
    pub outcome: FlagOutcome,
    pub note: &'a str,
    pub answered_by: &'a str,
}

impl Store {
    /// Flag `id` of `area`, if there is one.
    pub async fn flag(
        &self,
        area: CustomerArea,
        id: i32,
    ) -> Result<Option<StoredFlag>, StoreError> {
        let row: Option<(i32, i64, i32, bool)> = self
            .fetch_optional(
                &Query::select()
                    .columns([Flags::Id, Flags::QuestionId, Flags::ResultId, Flags::IsOpen])
                    .from(Flags::Table)
                    .and_where(Expr::col(Flags::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Flags::Id).eq(id))
                    .to_owned(),
            )
            .await?;
        Ok(row.map(|(id, question_id, result_id, is_open)| StoredFlag {
            id,
            task: TaskKey {
                question_id,
                result_id,
            },
            is_open,
        }))
    }
}

impl Tx {
    /// The task's status and its open flag's ID, if it has one; `None` when there
    /// is no such task. Read after [`Tx::lock_result`], so that both hold until the
    /// transaction ends.
    pub async fn task_for_flag(
        &mut self,
        area: CustomerArea,
        task: TaskKey,
    ) -> Result<Option<(TaskStatus, Option<i32>)>, StoreError> {
        let status: Option<(i32,)> = self
            .fetch_optional(
                &Query::select()
                    .column(ScoringTasks::Status)
                    .from(ScoringTasks::Table)
                    .and_where(Expr::col(ScoringTasks::CustomerId).eq(area.id()))
                    .and_where(Expr::col(ScoringTasks::QuestionId).eq(task.question_id))
                    .and_where(Expr::col(ScoringTasks::ResultId).eq(task.result_id))
                    .to_owned(),
            )
            .await?;
        let Some((status,)) = status else {
            return Ok(None);
        };
        let status = TaskStatus::try_from(status).map_err(StoreError::Corrupt)?;
        let open: Option<(i32,)> = self
            .fetch_optional(
                &Query::select()
                    .column(Flags::Id)
                    .from(Flags::Table)
                    .and_where(Expr::col(Flags::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Flags::ResultId).eq(task.result_id))
                    .and_where(Expr::col(Flags::QuestionId).eq(task.question_id))
                    .and_where(Expr::col(Flags::IsOpen).eq(true))
                    .to_owned(),
            )
            .await?;
        Ok(Some((status, open.map(|(id,)| id))))
    }

    /// Adds an open flag; returns its ID.
    pub async fn insert_flag(
        &mut self,
        area: CustomerArea,
        flag: NewFlag<'_>,
    ) -> Result<i32, StoreError> {
        self.fetch_scalar(
            &Query::insert()
                .into_table(Flags::Table)
                .columns([
                    Flags::CustomerId,
                    Flags::QuestionId,
                    Flags::ResultId,
                    Flags::Reason,
                    Flags::Note,
                    Flags::RaisedBy,
                    Flags::RaisedAt,
                    Flags::IsOpen,
                ])
                .values_panic([
                    area.id().into(),
                    flag.task.question_id.into(),
                    flag.task.result_id.into(),
                    flag.reason.as_str().into(),
                    flag.note.into(),
                    flag.raised_by.into(),
                    now_millis().into(),
                    true.into(),
                ])
                .returning_col(Flags::Id)
                .to_owned(),
        )
        .await
    }

    /// Closes the flag and writes its answer, if it is still open: the check and
    /// the close are one statement, so of two leads answering at once one does.
    /// Returns whether it was open.
    pub async fn answer_flag(
        &mut self,
        area: CustomerArea,
        answer: NewFlagAnswer<'_>,
    ) -> Result<bool, StoreError> {
        let closed = self
            .execute(
                &Query::update()
                    .table(Flags::Table)
                    .value(Flags::IsOpen, false)
                    .and_where(Expr::col(Flags::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Flags::Id).eq(answer.flag.id))
                    .and_where(Expr::col(Flags::IsOpen).eq(true))
                    .to_owned(),
            )
            .await?;
        if closed != 1 {
            return Ok(false);
        }
        self.execute(
            &Query::insert()
                .into_table(FlagAnswers::Table)
                .columns([
                    FlagAnswers::FlagId,
                    FlagAnswers::CustomerId,
                    FlagAnswers::ResultId,
                    FlagAnswers::Outcome,
                    FlagAnswers::Note,
                    FlagAnswers::AnsweredBy,
                    FlagAnswers::AnsweredAt,
                ])
                .values_panic([
                    answer.flag.id.into(),
                    area.id().into(),
                    answer.flag.task.result_id.into(),
                    answer.outcome.as_str().into(),
                    answer.note.into(),
                    answer.answered_by.into(),
                    now_millis().into(),
                ])
                .to_owned(),
        )
        .await?;
        Ok(true)
    }
}
