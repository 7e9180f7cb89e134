//! Seed copies (our extension, `SeedMarkings`; docs/marking-quality.md, "Seeds"):
//! a copy of a seed served to a marker, and his marking of it. A copy is a
//! result, its answers and one task of its own, drawn from the same sequences as
//! every other, which `seed_for` keeps out of every other reader's rows
//! (`store::read::seed_copies`). Every method runs in the transaction it is given;
//! the rules are `model::seeds`.

use sea_query::{Alias, Expr, Query};

use crate::model::area::CustomerArea;
use crate::model::scoring::{TaskKey, TaskStatus};
use crate::model::seeds::SeedOffer;
use crate::store::schema::{Answers, Results, ScoringEvents, ScoringTasks, SeedCopies, Seeds};
use crate::store::{now_millis, Store, StoreError, Tx};
/// A seed copy, as scoring it needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeedCopy {
    pub seed_id: i32,
    pub marker: String,
    /// The seed's definitive total.
    pub definitive: i32,
}
/// The columns of a result a copy takes from its seed's (all but its ID and
/// `seed_for`); its scores are computed again from its answers.
const RESULT_COLUMNS: &[&str] = &[
    "customer_id",
    "assessment_id",
    "participant_id",
    "participant_name",
    "group_id",
    "group_name",
    "test_center_name",
    "participant_details",
    "status",
    "max_score",
    "total_score",
    "score_band_title",
    "percentage_score",
    "when_finished",
    "when_started",
    "extra_time",
    "special1",
    "special2",
    "special3",
    "special4",
    "special5",
    "special6",
    "special7",
    "special8",
    "special9",
    "special10",
    "still_going",
    "time_taken",
    "schedule_name",
    "first_name",
    "last_name",
    "language",
    "attempt_id",
    "external_result_id",
    "external_result_info",
];

impl Tx {
    /// Whether `marker` has a copy of a seed of the question he has not scored.
    pub async fn has_seed_waiting(
        &mut self,
        area: CustomerArea,
        question_id: i64,
        marker: &str,
    ) -> Result<bool, StoreError> {
        let row: Option<(i32,)> = self
            .fetch_optional(
                &Query::select()
                    .column(SeedCopies::ResultId)
                    .from(SeedCopies::Table)
                    .and_where(Expr::col(SeedCopies::CustomerId).eq(area.id()))
                    .and_where(Expr::col(SeedCopies::QuestionId).eq(question_id))
                    .and_where(Expr::col(SeedCopies::Marker).eq(marker))
                    .and_where(Expr::col(SeedCopies::MarkedAt).is_null())
                    .limit(1)
                    .to_owned(),
            )
            .await?;
        Ok(row.is_some())
    }

    /// The question's seeds as the choice of `marker`'s next one sees them.
    pub async fn seed_offers(
        &mut self,
        area: CustomerArea,
        question_id: i64,
        marker: &str,
    ) -> Result<Vec<SeedOffer>, StoreError> {
        let served = Query::select()
            .expr(Expr::val(1))
            .from(SeedCopies::Table)
            .and_where(
                Expr::col((SeedCopies::Table, SeedCopies::SeedId))
                    .equals((Seeds::Table, Seeds::Id)),
            )
            .and_where(Expr::col((SeedCopies::Table, SeedCopies::Marker)).eq(marker))
            .to_owned();
        let marked_source = Query::select()
            .expr(Expr::val(1))
            .from(ScoringEvents::Table)
            .and_where(Expr::col((ScoringEvents::Table, ScoringEvents::CustomerId)).eq(area.id()))
            .and_where(
                Expr::col((ScoringEvents::Table, ScoringEvents::QuestionId))
                    .equals((Seeds::Table, Seeds::QuestionId)),
            )
            .and_where(
                Expr::col((ScoringEvents::Table, ScoringEvents::ResultId))
                    .equals((Seeds::Table, Seeds::ResultId)),
            )
            .and_where(Expr::col((ScoringEvents::Table, ScoringEvents::Account)).eq(marker))
            .to_owned();
        let rows: Vec<(i32, bool, bool)> = self
            .fetch_all(
                &Query::select()
                    .column((Seeds::Table, Seeds::Id))
                    .expr(Expr::exists(served))
                    .expr(Expr::exists(marked_source))
                    .from(Seeds::Table)
                    .and_where(Expr::col((Seeds::Table, Seeds::CustomerId)).eq(area.id()))
                    .and_where(Expr::col((Seeds::Table, Seeds::QuestionId)).eq(question_id))
                    .to_owned(),
            )
            .await?;
        Ok(rows
            .into_iter()
            .map(|(seed_id, served, marked_source)| SeedOffer {
                seed_id,
                served,
                marked_source,
            })
            .collect())
    }

    /// Serves seed `seed_id` to `marker`: a copy of its script's result with its
    /// answers (the seed's own answer unscored) and the seed's task at 0, made now,
    /// seen by him alone. Returns the copy's result ID.
    pub async fn serve_seed_copy(
        &mut self,
        area: CustomerArea,
        seed_id: i32,
        marker: &str,
    ) -> Result<i32, StoreError> {
        let (question_id, source): (i64, i32) = self
            .fetch_optional(
                &Query::select()
                    .columns([Seeds::QuestionId, Seeds::ResultId])
                    .from(Seeds::Table)
                    .and_where(Expr::col(Seeds::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Seeds::Id).eq(seed_id))
                    .to_owned(),
            )
            .await?
            .ok_or_else(|| StoreError::Corrupt(format!("seed {seed_id} is gone")))?;
        let copied = RESULT_COLUMNS.iter().map(|c| Alias::new(*c));
        let copy: i32 = self
            .fetch_scalar(
                &Query::insert()
                    .into_table(Results::Table)
                    .columns(copied.clone().chain([Alias::new("seed_for")]))
                    .select_from(
                        Query::select()
                            .columns(copied)
                            .expr(Expr::val(marker))
                            .from(Results::Table)
                            .and_where(Expr::col(Results::CustomerId).eq(area.id()))
                            .and_where(Expr::col(Results::Id).eq(source))
                            .to_owned(),
                    )
                    .map_err(|e| StoreError::Corrupt(e.to_string()))?
                    .returning_col(Results::Id)
                    .to_owned(),
            )
            .await?;
        let answer_columns = [
            Answers::CustomerId,
            Answers::QuestionId,
            Answers::Occurrence,
            Answers::BlockNumber,
            Answers::QuestionNumber,
            Answers::MaxScore,
            Answers::MediaType,
            Answers::Content,
            Answers::AnswerKey,
        ];
        // The other questions' answers as they are; the seed's as delivered,
        // before anyone scored it.
        self.execute(
            &Query::insert()
                .into_table(Answers::Table)
                .columns(answer_columns.into_iter().chain([
                    Answers::ResultId,
                    Answers::ActualScore,
                    Answers::Revision,
                ]))
                .select_from(
                    Query::select()
                        .columns(answer_columns)
                        .expr(Expr::val(copy))
                        .expr(
                            Expr::case(
                                Expr::col(Answers::QuestionId).eq(question_id),
                                Expr::cust("NULL"),
                            )
                            .finally(Expr::col(Answers::ActualScore)),
                        )
                        .expr(
                            Expr::case(Expr::col(Answers::QuestionId).eq(question_id), 1)
                                .finally(Expr::col(Answers::Revision)),
                        )
                        .from(Answers::Table)
                        .and_where(Expr::col(Answers::CustomerId).eq(area.id()))
                        .and_where(Expr::col(Answers::ResultId).eq(source))
                        .to_owned(),
                )
                .map_err(|e| StoreError::Corrupt(e.to_string()))?
                .to_owned(),
        )
        .await?;
        let now = now_millis();
        let task_columns = [
            ScoringTasks::CustomerId,
            ScoringTasks::QuestionId,
            ScoringTasks::GroupId,
            ScoringTasks::AssessmentId,
            ScoringTasks::ResultFinishedAt,
            ScoringTasks::AnswerKey,
        ];
        self.execute(
            &Query::insert()
                .into_table(ScoringTasks::Table)
                .columns(task_columns.into_iter().chain([
                    ScoringTasks::ResultId,
                    ScoringTasks::Status,
                    ScoringTasks::CreatedAt,
                    ScoringTasks::ModifiedAt,
                    ScoringTasks::SeedFor,
                ]))
                .select_from(
                    Query::select()
                        .columns(task_columns)
                        .expr(Expr::val(copy))
                        .expr(Expr::val(TaskStatus::Unscored.code()))
                        .expr(Expr::val(now))
                        .expr(Expr::val(now))
                        .expr(Expr::val(marker))
                        .from(ScoringTasks::Table)
                        .and_where(Expr::col(ScoringTasks::CustomerId).eq(area.id()))
                        .and_where(Expr::col(ScoringTasks::QuestionId).eq(question_id))
                        .and_where(Expr::col(ScoringTasks::ResultId).eq(source))
                        .to_owned(),
                )
                .map_err(|e| StoreError::Corrupt(e.to_string()))?
                .to_owned(),
        )
        .await?;
        self.rescore_result(area, copy).await?;
        self.execute(
            &Query::insert()
                .into_table(SeedCopies::Table)
                .columns([
                    SeedCopies::ResultId,
                    SeedCopies::CustomerId,
                    SeedCopies::SeedId,
                    SeedCopies::QuestionId,
                    SeedCopies::Marker,
                    SeedCopies::ServedAt,
                ])
                .values_panic([
                    copy.into(),
                    area.id().into(),
                    seed_id.into(),
                    question_id.into(),
                    marker.into(),
                    now.into(),
                ])
                .to_owned(),
        )
        .await?;
        Ok(copy)
    }

    /// The seed copy `key` is, if it is one.
    pub async fn seed_copy(
        &mut self,
        area: CustomerArea,
        key: TaskKey,
    ) -> Result<Option<SeedCopy>, StoreError> {
        let row: Option<(i32, String, i32)> = self
            .fetch_optional(
                &Query::select()
                    .column((SeedCopies::Table, SeedCopies::SeedId))
                    .column((SeedCopies::Table, SeedCopies::Marker))
                    .column((Seeds::Table, Seeds::Score))
                    .from(SeedCopies::Table)
                    .inner_join(
                        Seeds::Table,
                        Expr::col((Seeds::Table, Seeds::Id))
                            .equals((SeedCopies::Table, SeedCopies::SeedId)),
                    )
                    .and_where(Expr::col((SeedCopies::Table, SeedCopies::CustomerId)).eq(area.id()))
                    .and_where(
                        Expr::col((SeedCopies::Table, SeedCopies::QuestionId)).eq(key.question_id),
                    )
                    .and_where(
                        Expr::col((SeedCopies::Table, SeedCopies::ResultId)).eq(key.result_id),
                    )
                    .to_owned(),
            )
            .await?;
        Ok(row.map(|(seed_id, marker, definitive)| SeedCopy {
            seed_id,
            marker,
            definitive,
        }))
    }

    /// Keeps the marker's total of his copy `key` and its difference from the
    /// definitive one (the latest, when he scores it again).
    pub async fn record_seed_marking(
        &mut self,
        area: CustomerArea,
        key: TaskKey,
        copy: &SeedCopy,
        score: i32,
    ) -> Result<(), StoreError> {
        self.execute(
            &Query::update()
                .table(SeedCopies::Table)
                .values([
                    (SeedCopies::MarkedAt, now_millis().into()),
                    (SeedCopies::Score, score.into()),
                    (SeedCopies::Deviation, (score - copy.definitive).into()),
                ])
                .and_where(Expr::col(SeedCopies::CustomerId).eq(area.id()))
                .and_where(Expr::col(SeedCopies::ResultId).eq(key.result_id))
                .to_owned(),
        )
        .await
        .map(drop)
    }

    /// Whose seed copy result `result_id` is, if it is one.
    pub async fn seed_copy_marker(
        &mut self,
        area: CustomerArea,
        result_id: i32,
    ) -> Result<Option<String>, StoreError> {
        let row: Option<(Option<String>,)> = self
            .fetch_optional(
                &Query::select()
                    .column(Results::SeedFor)
                    .from(Results::Table)
                    .and_where(Expr::col(Results::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Results::Id).eq(result_id))
                    .to_owned(),
            )
            .await?;
        Ok(row.and_then(|(seed_for,)| seed_for))
    }
}

impl Store {
    /// Whether result `result_id` is a seed copy served to someone other than
    /// `reader`.
    pub async fn seed_copy_of_another(
        &self,
        area: CustomerArea,
        result_id: i32,
        reader: &str,
    ) -> Result<bool, StoreError> {
        let row: Option<(Option<String>,)> = self
            .fetch_optional(
                &Query::select()
                    .column(Results::SeedFor)
                    .from(Results::Table)
                    .and_where(Expr::col(Results::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Results::Id).eq(result_id))
                    .to_owned(),
            )
            .await?;
        Ok(matches!(row, Some((Some(marker),)) if marker != reader))
    }
}
