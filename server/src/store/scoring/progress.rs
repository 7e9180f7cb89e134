//! What the progress of an assessment's marking is counted from
//! ([`crate::model::progress`]): its scoring tasks by question, group and status
//! (`scoring_tasks_by_assessment`), who moved each task that is not open to where
//! it is (its last ScoringEvent), and the tasks finished since a time.

use std::collections::HashMap;

use sea_query::{Expr, Func, Query, SelectStatement};

use crate::model::area::CustomerArea;
use crate::model::progress::{Finished, HeldCount, TaskCount};
use crate::store::schema::{AssessmentQuestions, Groups, Questions, ScoringEvents, ScoringTasks};
use crate::store::{Store, StoreError};

// The task's status is an INTEGER column on both databases.
type Counted = (i64, Option<i32>, i32, i64);

/// The assessment's tasks joined to their events (the caller narrows which).
fn tasks_with_events(area: CustomerArea, assessment_id: i64) -> SelectStatement {
    Query::select()
        .from(ScoringTasks::Table)
        .inner_join(
            ScoringEvents::Table,
            Expr::col((ScoringEvents::Table, ScoringEvents::CustomerId))
                .equals((ScoringTasks::Table, ScoringTasks::CustomerId))
                .and(
                    Expr::col((ScoringEvents::Table, ScoringEvents::QuestionId))
                        .equals((ScoringTasks::Table, ScoringTasks::QuestionId)),
                )
                .and(
                    Expr::col((ScoringEvents::Table, ScoringEvents::ResultId))
                        .equals((ScoringTasks::Table, ScoringTasks::ResultId)),
                ),
        )
        .and_where(Expr::col((ScoringTasks::Table, ScoringTasks::CustomerId)).eq(area.id()))
        .and_where(Expr::col((ScoringTasks::Table, ScoringTasks::AssessmentId)).eq(assessment_id))
        .and_where(Expr::col((ScoringTasks::Table, ScoringTasks::SeedFor)).is_null())
        .to_owned()
}

impl Store {
    /// The assessment's tasks counted by question, group and status.
    pub async fn task_counts(
        &self,
        area: CustomerArea,
        assessment_id: i64,
    ) -> Result<Vec<TaskCount>, StoreError> {
        let rows: Vec<Counted> = self
            .fetch_all(
                &Query::select()
                    .columns([
                        ScoringTasks::QuestionId,
                        ScoringTasks::GroupId,
                        ScoringTasks::Status,
                    ])
                    .expr(Func::count(Expr::col(ScoringTasks::ResultId)))
                    .from(ScoringTasks::Table)
                    .and_where(Expr::col(ScoringTasks::CustomerId).eq(area.id()))
                    .and_where(Expr::col(ScoringTasks::AssessmentId).eq(assessment_id))
                    // Seed copies are nobody's progress (docs/marking-quality.md).
                    .and_where(Expr::col(ScoringTasks::SeedFor).is_null())
                    .group_by_columns([
                        ScoringTasks::QuestionId,
                        ScoringTasks::GroupId,
                        ScoringTasks::Status,
                    ])
                    .to_owned(),
            )
            .await?;
        Ok(rows
            .into_iter()
            .map(|(question_id, group_id, status, count)| TaskCount {
                question_id,
                group_id,
                status,
                count,
            })
            .collect())
    }

    /// The tasks that are not open, counted by who made the last change of each.
    pub async fn held_counts(
        &self,
        area: CustomerArea,
        assessment_id: i64,
    ) -> Result<Vec<HeldCount>, StoreError> {
        let latest = super::latest_event_id();
        let rows: Vec<(i64, Option<i32>, i32, String, i64)> = self
            .fetch_all(
                &tasks_with_events(area, assessment_id)
                    .column((ScoringTasks::Table, ScoringTasks::QuestionId))
                    .column((ScoringTasks::Table, ScoringTasks::GroupId))
                    .column((ScoringTasks::Table, ScoringTasks::Status))
                    .column((ScoringEvents::Table, ScoringEvents::Account))
                    .expr(Func::count(Expr::col((
                        ScoringEvents::Table,
                        ScoringEvents::Id,
                    ))))
                    .and_where(Expr::col((ScoringTasks::Table, ScoringTasks::Status)).gt(0))
                    .and_where(
                        Expr::col((ScoringEvents::Table, ScoringEvents::Id)).in_subquery(latest),
                    )
                    .group_by_col((ScoringTasks::Table, ScoringTasks::QuestionId))
                    .group_by_col((ScoringTasks::Table, ScoringTasks::GroupId))
                    .group_by_col((ScoringTasks::Table, ScoringTasks::Status))
                    .group_by_col((ScoringEvents::Table, ScoringEvents::Account))
                    .to_owned(),
            )
            .await?;
        Ok(rows
            .into_iter()
            .map(
                |(question_id, group_id, status, account, count)| HeldCount {
                    question_id,
                    group_id,
                    status,
                    account,
                    count,
                },
            )
            .collect())
    }

    /// The assessment's tasks set to Status 3 at or after `since` (milliseconds).
    pub async fn finished_since(
        &self,
        area: CustomerArea,
        assessment_id: i64,
        since: i64,
    ) -> Result<Vec<Finished>, StoreError> {
        let rows: Vec<(i64, Option<i32>, String, i64)> = self
            .fetch_all(
                &tasks_with_events(area, assessment_id)
                    .column((ScoringTasks::Table, ScoringTasks::QuestionId))
                    .column((ScoringTasks::Table, ScoringTasks::GroupId))
                    .column((ScoringEvents::Table, ScoringEvents::Account))
                    .column((ScoringEvents::Table, ScoringEvents::At))
                    .and_where(Expr::col((ScoringEvents::Table, ScoringEvents::Status)).eq(3))
                    .and_where(Expr::col((ScoringEvents::Table, ScoringEvents::At)).gte(since))
                    .to_owned(),
            )
            .await?;
        Ok(rows
            .into_iter()
            .map(|(question_id, group_id, account, at)| Finished {
                question_id,
                group_id,
                account,
                at,
            })
            .collect())
    }

    /// What the progress rows are called: each question of the assessment by its
    /// place and description, each group its tasks are in by name.
    pub async fn progress_names(
        &self,
        area: CustomerArea,
        assessment_id: i64,
    ) -> Result<(HashMap<i64, (i32, Option<String>)>, HashMap<i32, String>), StoreError> {
        let questions: Vec<(i64, i32, Option<String>)> = self
            .fetch_all(
                &Query::select()
                    .column((AssessmentQuestions::Table, AssessmentQuestions::QuestionId))
                    .column((AssessmentQuestions::Table, AssessmentQuestions::Position))
                    .column((Questions::Table, Questions::Description))
                    .from(AssessmentQuestions::Table)
                    .inner_join(
                        Questions::Table,
                        Expr::col((Questions::Table, Questions::Id))
                            .equals((AssessmentQuestions::Table, AssessmentQuestions::QuestionId)),
                    )
                    .and_where(
                        Expr::col((AssessmentQuestions::Table, AssessmentQuestions::CustomerId))
                            .eq(area.id()),
                    )
                    .and_where(
                        Expr::col((
                            AssessmentQuestions::Table,
                            AssessmentQuestions::AssessmentId,
                        ))
                        .eq(assessment_id),
                    )
                    .to_owned(),
            )
            .await?;
        let groups: Vec<(i32, String)> = self
            .fetch_all(
                &Query::select()
                    .columns([Groups::Id, Groups::Name])
                    .from(Groups::Table)
                    .and_where(Expr::col(Groups::CustomerId).eq(area.id()))
                    .and_where(
                        Expr::col(Groups::Id).in_subquery(
                            Query::select()
                                .distinct()
                                .column(ScoringTasks::GroupId)
                                .from(ScoringTasks::Table)
                                .and_where(Expr::col(ScoringTasks::CustomerId).eq(area.id()))
                                .and_where(Expr::col(ScoringTasks::AssessmentId).eq(assessment_id))
                                .to_owned(),
                        ),
                    )
                    .to_owned(),
            )
            .await?;
        Ok((
            questions
                .into_iter()
                .map(|(id, position, description)| (id, (position, description)))
                .collect(),
            groups.into_iter().collect(),
        ))
    }
}
