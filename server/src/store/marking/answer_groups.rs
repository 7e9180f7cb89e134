//! Answer groups' statements (docs/marking-quality.md, "Answer groups"): the
//! open tasks whose answer has the key of a marked one, a member's marks written
//! as the marked script's, the record of an application, and the keying of
//! typed answers written before keys existed.

use sea_query::{Cond, Expr, Order, Query, SelectStatement};

use crate::model::area::CustomerArea;
use crate::model::scoring::{TaskKey, TaskStatus};
use crate::store::schema::{
    AnswerGroupMarkings, AnswerGroupMembers, Answers, ScoringEvents, ScoringResults, ScoringTasks,
};
use crate::store::{now_millis, Store, StoreError, Tx};

/// Which open tasks count as alike for a reader: those of the question whose
/// answer has `key`, but the script's own; never another marker's seed copy
/// (his own is one of his tasks like any other). A member scored against
/// another rubric version is left out when the marks are applied
/// ([`Tx::scored_against`]), not here: a join would let the database sort.
#[derive(Debug, Clone)]
pub struct AlikeTo<'a> {
    pub task: TaskKey,
    pub key: &'a str,
    pub reader: &'a str,
}

/// A marked script as applying it to its group needs it.
#[derive(Debug)]
pub struct GroupSource {
    pub status: TaskStatus,
    pub seed_for: Option<String>,
    /// Its answer's group key: none for a scan.
    pub key: Option<String>,
    /// Its ScoringResult: rubric, overall score, comments (none: not created).
    pub result: Option<(i32, Option<i32>, Option<String>)>,
    /// Its dimensions' order, score and comment.
    pub marks: Vec<(i32, Option<i16>, Option<String>)>,
    /// Who set it to where it is.
    pub marked_by: Option<String>,
    /// The question's rubric version now.
    pub current_rubric: Option<i32>,
}

/// An application of a script's marks to its group, as recorded.
pub struct NewGroupMarking<'a> {
    pub source: TaskKey,
    pub rubric_id: i32,
    pub marker: &'a str,
    pub members: &'a [i32],
    pub remaining: i64,
}

/// The key of the answer of `task` (its first block).
fn key_of(area: CustomerArea, task: TaskKey) -> SelectStatement {
    Query::select()
        .column(Answers::AnswerKey)
        .from(Answers::Table)
        .and_where(Expr::col(Answers::CustomerId).eq(area.id()))
        .and_where(Expr::col(Answers::QuestionId).eq(task.question_id))
        .and_where(Expr::col(Answers::ResultId).eq(task.result_id))
        .order_by(Answers::Occurrence, Order::Asc)
        .order_by(Answers::BlockNumber, Order::Asc)
        .limit(1)
        .to_owned()
}

/// The open tasks alike, through `scoring_tasks_by_answer_key`: its range of
/// the question's key at Status 0, in ResultID order.
fn alike(area: CustomerArea, to: &AlikeTo<'_>) -> SelectStatement {
    let task = |column: ScoringTasks| Expr::col((ScoringTasks::Table, column));
    Query::select()
        .from(ScoringTasks::Table)
        .and_where(task(ScoringTasks::CustomerId).eq(area.id()))
        .and_where(task(ScoringTasks::QuestionId).eq(to.task.question_id))
        .and_where(task(ScoringTasks::AnswerKey).eq(to.key))
        .and_where(task(ScoringTasks::Status).eq(TaskStatus::Unscored.code()))
        .and_where(task(ScoringTasks::ResultId).ne(to.task.result_id))
        .cond_where(
            Cond::any()
                .add(task(ScoringTasks::SeedFor).is_null())
                .add(task(ScoringTasks::SeedFor).eq(to.reader)),
        )
        .to_owned()
}

pub(super) fn alike_ids(area: CustomerArea, to: &AlikeTo<'_>, limit: usize) -> SelectStatement {
    alike(area, to)
        .column((ScoringTasks::Table, ScoringTasks::ResultId))
        .order_by((ScoringTasks::Table, ScoringTasks::ResultId), Order::Asc)
        .limit(limit as u64)
        .to_owned()
}

pub(super) fn alike_count(area: CustomerArea, to: &AlikeTo<'_>) -> SelectStatement {
    alike(area, to).expr(Expr::cust("COUNT(*)")).to_owned()
}

fn status_of(area: CustomerArea, task: TaskKey) -> SelectStatement {
    Query::select()
        .column(ScoringTasks::Status)
        .from(ScoringTasks::Table)
        .and_where(Expr::col(ScoringTasks::CustomerId).eq(area.id()))
        .and_where(Expr::col(ScoringTasks::QuestionId).eq(task.question_id))
        .and_where(Expr::col(ScoringTasks::ResultId).eq(task.result_id))
        .to_owned()
}

fn status(row: Option<(i32,)>) -> Result<Option<TaskStatus>, StoreError> {
    row.map(|(code,)| TaskStatus::try_from(code).map_err(StoreError::Corrupt))
        .transpose()
}

impl Store {
    /// The status of `task` now; none when there is no such task.
    pub async fn task_status(
        &self,
        area: CustomerArea,
        task: TaskKey,
    ) -> Result<Option<TaskStatus>, StoreError> {
        status(self.fetch_optional(&status_of(area, task)).await?)
    }

    /// The key of the answer of `task`: none for a scan, or no such answer.
    pub async fn answer_key(
        &self,
        area: CustomerArea,
        task: TaskKey,
    ) -> Result<Option<String>, StoreError> {
        let row: Option<(Option<String>,)> = self.fetch_optional(&key_of(area, task)).await?;
        Ok(row.and_then(|(key,)| key))
    }

    /// The first `limit` open tasks alike (by ResultID), and how many there are.
    pub async fn answers_alike(
        &self,
        area: CustomerArea,
        to: &AlikeTo<'_>,
        limit: usize,
    ) -> Result<(Vec<i32>, i64), StoreError> {
        let ids: Vec<(i32,)> = self.fetch_all(&alike_ids(area, to, limit)).await?;
        let ids: Vec<i32> = ids.into_iter().map(|(id,)| id).collect();
        // Counted only when there are more than one page holds.
        let count = match ids.len() {
            n if n < limit => n as i64,
            _ => self.fetch_scalar(&alike_count(area, to)).await?,
        };
        Ok((ids, count))
    }
}

impl Tx {
    /// [`Store::task_status`] in this transaction.
    pub async fn task_status(
        &mut self,
        area: CustomerArea,
        task: TaskKey,
    ) -> Result<Option<TaskStatus>, StoreError> {
        status(self.fetch_optional(&status_of(area, task)).await?)
    }

    /// The marked script `task` as applying it needs it; none when no such task.
    pub async fn group_source(
        &mut self,
        area: CustomerArea,
        task: TaskKey,
    ) -> Result<Option<GroupSource>, StoreError> {
        let row: Option<(i32, Option<String>)> = self
            .fetch_optional(
                &Query::select()
                    .columns([ScoringTasks::Status, ScoringTasks::SeedFor])
                    .from(ScoringTasks::Table)
                    .and_where(Expr::col(ScoringTasks::CustomerId).eq(area.id()))
                    .and_where(Expr::col(ScoringTasks::QuestionId).eq(task.question_id))
                    .and_where(Expr::col(ScoringTasks::ResultId).eq(task.result_id))
                    .to_owned(),
            )
            .await?;
        let Some((status, seed_for)) = row else {
            return Ok(None);
        };
        let key: Option<(Option<String>,)> = self.fetch_optional(&key_of(area, task)).await?;
        let result = self
            .fetch_optional(
                &Query::select()
                    .columns([
                        ScoringResults::RubricId,
                        ScoringResults::Score,
                        ScoringResults::Comments,
                    ])
                    .from(ScoringResults::Table)
                    .and_where(Expr::col(ScoringResults::CustomerId).eq(area.id()))
                    .and_where(Expr::col(ScoringResults::QuestionId).eq(task.question_id))
                    .and_where(Expr::col(ScoringResults::ResultId).eq(task.result_id))
                    .to_owned(),
            )
            .await?;
        let marks = self.dimension_marks(area, task).await?;
        let marked_by: Option<(String,)> = self
            .fetch_optional(
                &Query::select()
                    .column(ScoringEvents::Account)
                    .from(ScoringEvents::Table)
                    .and_where(Expr::col(ScoringEvents::CustomerId).eq(area.id()))
                    .and_where(Expr::col(ScoringEvents::QuestionId).eq(task.question_id))
                    .and_where(Expr::col(ScoringEvents::ResultId).eq(task.result_id))
                    .order_by(ScoringEvents::Id, Order::Desc)
                    .limit(1)
                    .to_owned(),
            )
            .await?;
        let current_rubric = self.current_rubric(area, task.question_id).await?;
        Ok(Some(GroupSource {
            status: TaskStatus::try_from(status).map_err(StoreError::Corrupt)?,
            seed_for,
            key: key.and_then(|(key,)| key),
            result,
            marks,
            marked_by: marked_by.map(|(account,)| account),
            current_rubric,
        }))
    }

    /// [`Store::answers_alike`] in this transaction, under the source's lock.
    pub async fn open_tasks_alike(
        &mut self,
        area: CustomerArea,
        to: &AlikeTo<'_>,
        limit: usize,
    ) -> Result<(Vec<i32>, i64), StoreError> {
        let ids: Vec<(i32,)> = self.fetch_all(&alike_ids(area, to, limit)).await?;
        let ids: Vec<i32> = ids.into_iter().map(|(id,)| id).collect();
        let count = match ids.len() {
            n if n < limit => n as i64,
            _ => self.fetch_scalar(&alike_count(area, to)).await?,
        };
        Ok((ids, count))
    }

    /// The rubric version the ScoringResult of `task` is scored against.
    pub async fn scored_against(
        &mut self,
        area: CustomerArea,
        task: TaskKey,
    ) -> Result<Option<i32>, StoreError> {
        let row: Option<(i32,)> = self
            .fetch_optional(
                &Query::select()
                    .column(ScoringResults::RubricId)
                    .from(ScoringResults::Table)
                    .and_where(Expr::col(ScoringResults::CustomerId).eq(area.id()))
                    .and_where(Expr::col(ScoringResults::QuestionId).eq(task.question_id))
                    .and_where(Expr::col(ScoringResults::ResultId).eq(task.result_id))
                    .to_owned(),
            )
            .await?;
        Ok(row.map(|(rubric,)| rubric))
    }

    /// Writes `source`'s overall score, comments and dimension marks on the
    /// ScoringResult of `to` (which exists, with the same rubric). Its
    /// ModifiedDateTime moves on, as any write's, so that a scorer holding the
    /// old one is told of the change.
    pub async fn write_group_marks(
        &mut self,
        area: CustomerArea,
        to: TaskKey,
        source: &GroupSource,
    ) -> Result<(), StoreError> {
        let (_, score, comments) = source.result.clone().unwrap_or_default();
        let now = now_millis();
        self.execute(
            &Query::update()
                .table(ScoringResults::Table)
                .values([
                    (ScoringResults::Score, score.into()),
                    (ScoringResults::Comments, comments.into()),
                    (
                        ScoringResults::ModifiedAt,
                        Expr::case(
                            Expr::col(ScoringResults::ModifiedAt).gte(now),
                            Expr::col(ScoringResults::ModifiedAt).add(1),
                        )
                        .finally(now)
                        .into(),
                    ),
                ])
                .and_where(Expr::col(ScoringResults::CustomerId).eq(area.id()))
                .and_where(Expr::col(ScoringResults::QuestionId).eq(to.question_id))
                .and_where(Expr::col(ScoringResults::ResultId).eq(to.result_id))
                .to_owned(),
        )
        .await?;
        for (order, score, comment) in &source.marks {
            self.update_dimension_score(area, to, *order, *score, comment.clone())
                .await?;
        }
        Ok(())
    }

    /// Records an application and the tasks it marked; its ID.
    pub async fn record_group_marking(
        &mut self,
        area: CustomerArea,
        marking: NewGroupMarking<'_>,
    ) -> Result<i32, StoreError> {
        let id: i32 = self
            .fetch_scalar(
                &Query::insert()
                    .into_table(AnswerGroupMarkings::Table)
                    .columns([
                        AnswerGroupMarkings::CustomerId,
                        AnswerGroupMarkings::QuestionId,
                        AnswerGroupMarkings::ResultId,
                        AnswerGroupMarkings::RubricId,
                        AnswerGroupMarkings::Marker,
                        AnswerGroupMarkings::MarkedAt,
                        AnswerGroupMarkings::Members,
                        AnswerGroupMarkings::Remaining,
                    ])
                    .values_panic([
                        area.id().into(),
                        marking.source.question_id.into(),
                        marking.source.result_id.into(),
                        marking.rubric_id.into(),
                        marking.marker.into(),
                        now_millis().into(),
                        (marking.members.len() as i32).into(),
                        (marking.remaining as i32).into(),
                    ])
                    .returning_col(AnswerGroupMarkings::Id)
                    .to_owned(),
            )
            .await?;
        for members in marking.members.chunks(200) {
            let mut insert = Query::insert()
                .into_table(AnswerGroupMembers::Table)
                .columns([
                    AnswerGroupMembers::MarkingId,
                    AnswerGroupMembers::ResultId,
                    AnswerGroupMembers::CustomerId,
                    AnswerGroupMembers::QuestionId,
                    AnswerGroupMembers::Marker,
                ])
                .to_owned();
            for member in members {
                insert.values_panic([
                    id.into(),
                    (*member).into(),
                    area.id().into(),
                    marking.source.question_id.into(),
                    marking.marker.into(),
                ]);
            }
            self.execute(&insert).await?;
        }
        Ok(id)
    }
}
