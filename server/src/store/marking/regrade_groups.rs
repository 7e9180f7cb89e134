//! One group of a regrade (store/marking/regrades.rs), in the caller's
//! transaction: the dimension scores moved by one `CASE` of the map's changes,
//! the totals the model computes written back, the Results of scored tasks
//! rescored. Groups follow each other by ResultID through each table's key, so
//! the last group finds its rows as fast as the first.

use std::collections::BTreeMap;

use sea_query::{CaseStatement, Expr, Iden, Order, Query, SimpleExpr};

use crate::model::area::CustomerArea;
use crate::model::regrade::{Regrade, RubricShape};
use crate::store::schema::{Answers, DimensionScores, ScoringResults, ScoringTasks, SeedCopies};
use crate::store::{now_millis, StoreError, Tx};

/// How many scripts (or markings) one transaction moves at most: a few hundred
/// rescored Results keep SQLite's one writer for tens of milliseconds.
pub const GROUP: u64 = 200;

/// What a group of ScoringResults did.
pub struct GroupDone {
    /// Its last ResultID: the next group starts after it.
    pub last: i32,
    pub scripts: i64,
    pub totals_changed: i64,
    pub results_rescored: i64,
}

/// `score` with the map's changes: `CASE WHEN order = 1 AND score = 3 THEN 4 … ELSE score END`.
pub(super) fn mapped(
    regrade: &Regrade,
    order: impl Iden + Copy + 'static,
    score: impl Iden + Copy + 'static,
) -> SimpleExpr {
    let changes = regrade.changes();
    if changes.is_empty() {
        return Expr::col(score).into();
    }
    let mut case = CaseStatement::new();
    for (dimension, old, new) in changes {
        case = case.case(
            Expr::col(order).eq(dimension).and(Expr::col(score).eq(old)),
            new,
        );
    }
    case.finally(Expr::col(score)).into()
}

/// A concurrency value later than the one stored, even within its millisecond.
pub(super) fn later(column: impl Iden + Copy + 'static) -> SimpleExpr {
    let now = now_millis();
    Expr::case(Expr::col(column).gte(now), Expr::col(column).add(1))
        .finally(now)
        .into()
}

/// (owner, Order, score) rows as each owner's (Order, score) list: a
/// ScoringResult's or a marking's dimension scores.
pub(super) fn scores_by_owner(
    rows: Vec<(i32, i32, Option<i16>)>,
) -> BTreeMap<i32, Vec<(i32, Option<i32>)>> {
    let mut owners: BTreeMap<i32, Vec<(i32, Option<i32>)>> = BTreeMap::new();
    for (owner, order, score) in rows {
        owners
            .entry(owner)
            .or_default()
            .push((order, score.map(i32::from)));
    }
    owners
}

/// The new totals of the rows whose total changes, grouped by the new total, so
/// that each is one `UPDATE … WHERE key IN (…)`.
pub(super) fn by_new_total<K: Copy + Ord>(
    regrade: &Regrade,
    totals: &[(K, Option<i32>)],
    dimensions: &BTreeMap<K, Vec<(i32, Option<i32>)>>,
) -> BTreeMap<i32, Vec<K>> {
    let mut changed: BTreeMap<i32, Vec<K>> = BTreeMap::new();
    for (key, total) in totals {
        let scores = dimensions.get(key).map(Vec::as_slice).unwrap_or(&[]);
        if let Some(new) = regrade.total(*total, scores) {
            if Some(new) != *total {
                changed.entry(new).or_default().push(*key);
            }
        }
    }
    changed
}

impl Tx {
    /// The next group of ScoringResults of the old rubric after ResultID
    /// `after`; `None` when none is left.
    pub(super) async fn regrade_scoring_results(
        &mut self,
        area: CustomerArea,
        from: &RubricShape,
        to: i32,
        regrade: &Regrade,
        after: i32,
    ) -> Result<Option<GroupDone>, StoreError> {
        let question = from.question_id;
        let totals: Vec<(i32, Option<i32>)> = self
            .fetch_all(
                &Query::select()
                    .columns([ScoringResults::ResultId, ScoringResults::Score])
                    .from(ScoringResults::Table)
                    .and_where(Expr::col(ScoringResults::CustomerId).eq(area.id()))
                    .and_where(Expr::col(ScoringResults::QuestionId).eq(question))
                    .and_where(Expr::col(ScoringResults::ResultId).gt(after))
                    .and_where(Expr::col(ScoringResults::RubricId).eq(from.id))
                    .order_by(ScoringResults::ResultId, Order::Asc)
                    .limit(GROUP)
                    // Two regrades of one rubric at once (PostgreSQL) each move a
                    // row once: the other's rows, once moved, no longer match.
                    .lock(sea_query::LockType::Update)
                    .to_owned(),
            )
            .await?;
        let Some(&(last, _)) = totals.last() else {
            return Ok(None);
        };
        let in_group =
            |result: DimensionScores| Expr::col(result).gt(after).and(Expr::col(result).lte(last));
        let rows: Vec<(i32, i32, Option<i16>)> = self
            .fetch_all(
                &Query::select()
                    .columns([
                        DimensionScores::ResultId,
                        DimensionScores::DimensionOrder,
                        DimensionScores::Score,
                    ])
                    .from(DimensionScores::Table)
                    .and_where(Expr::col(DimensionScores::CustomerId).eq(area.id()))
                    .and_where(Expr::col(DimensionScores::QuestionId).eq(question))
                    .and_where(in_group(DimensionScores::ResultId))
                    .and_where(Expr::col(DimensionScores::RubricId).eq(from.id))
                    .to_owned(),
            )
            .await?;
        let changed = by_new_total(regrade, &totals, &scores_by_owner(rows));
        self.execute(
            &Query::update()
                .table(DimensionScores::Table)
                .value(
                    DimensionScores::Score,
                    mapped(
                        regrade,
                        DimensionScores::DimensionOrder,
                        DimensionScores::Score,
                    ),
                )
                .value(DimensionScores::RubricId, to)
                .and_where(Expr::col(DimensionScores::CustomerId).eq(area.id()))
                .and_where(Expr::col(DimensionScores::QuestionId).eq(question))
                .and_where(in_group(DimensionScores::ResultId))
                .and_where(Expr::col(DimensionScores::RubricId).eq(from.id))
                .to_owned(),
        )
        .await?;
        let keys: Vec<i32> = totals.iter().map(|(result, _)| *result).collect();
        self.execute(
            &Query::update()
                .table(ScoringResults::Table)
                .value(ScoringResults::RubricId, to)
                .value(
                    ScoringResults::ModifiedAt,
                    later(ScoringResults::ModifiedAt),
                )
                .and_where(Expr::col(ScoringResults::CustomerId).eq(area.id()))
                .and_where(Expr::col(ScoringResults::QuestionId).eq(question))
                .and_where(Expr::col(ScoringResults::ResultId).is_in(keys))
                .to_owned(),
        )
        .await?;
        for (total, results) in &changed {
            self.execute(
                &Query::update()
                    .table(ScoringResults::Table)
                    .value(ScoringResults::Score, *total)
                    .and_where(Expr::col(ScoringResults::CustomerId).eq(area.id()))
                    .and_where(Expr::col(ScoringResults::QuestionId).eq(question))
                    .and_where(Expr::col(ScoringResults::ResultId).is_in(results.clone()))
                    .to_owned(),
            )
            .await?;
        }
        let moved: BTreeMap<i32, i32> = changed
            .iter()
            .flat_map(|(total, results)| results.iter().map(move |result| (*result, *total)))
            .collect();
        let results_rescored = self
            .rescore_scored(area, question, after, last, &moved)
            .await?;
        self.regrade_seed_copies(area, question, after, last)
            .await?;
        Ok(Some(GroupDone {
            last,
            scripts: totals.len() as i64,
            totals_changed: moved.len() as i64,
            results_rescored,
        }))
    }

    /// The Results of the group's scored tasks whose total changed: the
    /// answer's score (its first block, as a PUT to 3 writes it) and the
    /// Result's totals, topic scores and band, as scoring a task does.
    async fn rescore_scored(
        &mut self,
        area: CustomerArea,
        question: i64,
        after: i32,
        last: i32,
        moved: &BTreeMap<i32, i32>,
    ) -> Result<i64, StoreError> {
        if moved.is_empty() {
            return Ok(0);
        }
        let scored: Vec<(i32,)> = self
            .fetch_all(
                &Query::select()
                    .column(ScoringTasks::ResultId)
                    .from(ScoringTasks::Table)
                    .and_where(Expr::col(ScoringTasks::CustomerId).eq(area.id()))
                    .and_where(Expr::col(ScoringTasks::QuestionId).eq(question))
                    .and_where(Expr::col(ScoringTasks::ResultId).gt(after))
                    .and_where(Expr::col(ScoringTasks::ResultId).lte(last))
                    .and_where(Expr::col(ScoringTasks::Status).eq(3))
                    .order_by(ScoringTasks::ResultId, Order::Asc)
                    .to_owned(),
            )
            .await?;
        let mut rescored = 0;
        for (result,) in scored {
            let Some(total) = moved.get(&result) else {
                continue;
            };
            if !self.lock_result(area, result).await? {
                continue;
            }
            let first: Option<(i16, i16)> = self
                .fetch_optional(
                    &Query::select()
                        .columns([Answers::Occurrence, Answers::BlockNumber])
                        .from(Answers::Table)
                        .and_where(Expr::col(Answers::CustomerId).eq(area.id()))
                        .and_where(Expr::col(Answers::QuestionId).eq(question))
                        .and_where(Expr::col(Answers::ResultId).eq(result))
                        .order_by(Answers::Occurrence, Order::Asc)
                        .order_by(Answers::BlockNumber, Order::Asc)
                        .limit(1)
                        .to_owned(),
                )
                .await?;
            if let Some((occurrence, block)) = first {
                self.execute(
                    &Query::update()
                        .table(Answers::Table)
                        .value(Answers::ActualScore, *total)
                        .value(Answers::Revision, Expr::col(Answers::Revision).add(1))
                        .and_where(Expr::col(Answers::CustomerId).eq(area.id()))
                        .and_where(Expr::col(Answers::QuestionId).eq(question))
                        .and_where(Expr::col(Answers::ResultId).eq(result))
                        .and_where(Expr::col(Answers::Occurrence).eq(occurrence))
                        .and_where(Expr::col(Answers::BlockNumber).eq(block))
                        .to_owned(),
                )
                .await?;
            }
            self.rescore_result(area, result).await?;
            rescored += 1;
        }
        Ok(rescored)
    }

    /// The seed copies among the group, once marked: their marker's total and
    /// its distance from the (regraded) definitive one, taken again.
    async fn regrade_seed_copies(
        &mut self,
        area: CustomerArea,
        question: i64,
        after: i32,
        last: i32,
    ) -> Result<(), StoreError> {
        let copy_total = "(SELECT scoring_results.score FROM scoring_results \
             WHERE scoring_results.customer_id = seed_copies.customer_id \
             AND scoring_results.question_id = seed_copies.question_id \
             AND scoring_results.result_id = seed_copies.result_id)";
        let definitive = "(SELECT seeds.score FROM seeds WHERE seeds.id = seed_copies.seed_id)";
        self.execute(
            &Query::update()
                .table(SeedCopies::Table)
                .value(SeedCopies::Score, Expr::cust(copy_total))
                .value(
                    SeedCopies::Deviation,
                    Expr::cust(format!("{copy_total} - {definitive}")),
                )
                .and_where(Expr::col(SeedCopies::CustomerId).eq(area.id()))
                .and_where(Expr::col(SeedCopies::QuestionId).eq(question))
                .and_where(Expr::col(SeedCopies::ResultId).gt(after))
                .and_where(Expr::col(SeedCopies::ResultId).lte(last))
                .and_where(Expr::col(SeedCopies::MarkedAt).is_not_null())
                .to_owned(),
        )
        .await
        .map(drop)
    }
}
