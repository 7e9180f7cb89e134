//! Rubrics written by their authors (model::rubric): a question's new rubric
//! replaces its current one, which is retired (kept, `replaced_at` set) when a
//! ScoringResult used it and deleted when none did; an unused rubric can be deleted.

use sea_query::{Expr, Query};

use crate::model::area::CustomerArea;
use crate::model::rubric::RubricDraft;
use crate::store::schema::{
    DimensionLevels, Dimensions, Questions, RubricRegrades, Rubrics, ScoringResults,
};
use crate::store::{StoreError, Tx};

/// What became of the rubric a new one replaced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replaced {
    /// The question had no rubric.
    Nothing,
    /// ScoringResults used it: it stays for them, no longer the question's.
    Retired(i32),
    /// Nothing used it: it is gone.
    Deleted(i32),
}

/// What deleting a rubric did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RubricDeletion {
    NotFound,
    /// ScoringResults use it: it is kept.
    InUse(i64),
    /// A regrade's audit entry names it: it is kept with the entry.
    Audited(i64),
    Deleted,
}

impl Tx {
    /// The maximum score of question `question_id`, its row locked for the rest of
    /// the transaction (so that two authors of one question write one after the
    /// other); `None` when the area has no such question.
    pub async fn lock_question_max(
        &mut self,
        area: CustomerArea,
        question_id: i64,
    ) -> Result<Option<i32>, StoreError> {
        let found: Option<(i32,)> = self
            .fetch_optional(
                &Query::select()
                    .column(Questions::MaxScore)
                    .from(Questions::Table)
                    .and_where(Expr::col(Questions::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Questions::Id).eq(question_id))
                    .lock(sea_query::LockType::Update)
                    .to_owned(),
            )
            .await?;
        Ok(found.map(|(max,)| max))
    }

    /// Makes `draft` the current rubric of `question_id` (whose row the caller has
    /// locked with [`Tx::lock_question_max`]); returns its ID and what became of the
    /// one it replaced.
    pub async fn author_rubric(
        &mut self,
        area: CustomerArea,
        question_id: i64,
        draft: &RubricDraft,
        at: i64,
    ) -> Result<(i32, Replaced), StoreError> {
        let replaced = match self.current_rubric(area, question_id).await? {
            None => Replaced::Nothing,
            Some(old) if self.rubric_uses(area, old).await? > 0 => {
                self.execute(
                    &Query::update()
                        .table(Rubrics::Table)
                        .value(Rubrics::ReplacedAt, at)
                        .and_where(Expr::col(Rubrics::CustomerId).eq(area.id()))
                        .and_where(Expr::col(Rubrics::Id).eq(old))
                        .to_owned(),
                )
                .await?;
                Replaced::Retired(old)
            }
            Some(old) => {
                self.remove_rubric(area, old).await?;
                Replaced::Deleted(old)
            }
        };
        let instructions = draft.instructions.as_deref().unwrap_or("");
        let id = self
            .insert_rubric(
                area,
                question_id,
                draft.name.trim(),
                instructions,
                short(draft.max_score)?,
                at,
            )
            .await?;
        for (index, dimension) in draft.dimensions.iter().enumerate() {
            let order = index as i32 + 1;
            self.insert_dimension(
                area,
                id,
                order,
                dimension.name.trim(),
                dimension.instructions.as_deref().unwrap_or(""),
                short(dimension.max_score)?,
            )
            .await?;
            for (score, description) in dimension.levels.iter().enumerate() {
                self.insert_dimension_level(area, id, order, score as i16, description)
                    .await?;
            }
        }
        Ok((id, replaced))
    }

    /// The question's current rubric: the one new scoring uses (migration 18).
    pub(in crate::store) async fn current_rubric(
        &mut self,
        area: CustomerArea,
        question_id: i64,
    ) -> Result<Option<i32>, StoreError> {
        let found: Option<(i32,)> = self
            .fetch_optional(&current_rubric_of(area, question_id))
            .await?;
        Ok(found.map(|(id,)| id))
    }

    /// Deletes rubric `id` unless a ScoringResult uses it.
    pub async fn delete_rubric(
        &mut self,
        area: CustomerArea,
        id: i32,
    ) -> Result<RubricDeletion, StoreError> {
        let found: Option<(i32,)> = self
            .fetch_optional(
                &Query::select()
                    .column(Rubrics::Id)
                    .from(Rubrics::Table)
                    .and_where(Expr::col(Rubrics::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Rubrics::Id).eq(id))
                    .lock(sea_query::LockType::Update)
                    .to_owned(),
            )
            .await?;
        if found.is_none() {
            return Ok(RubricDeletion::NotFound);
        }
        let uses = self.rubric_uses(area, id).await?;
        if uses > 0 {
            return Ok(RubricDeletion::InUse(uses));
        }
        let regrades = self.regrades_naming(area, id).await?;
        if regrades > 0 {
            return Ok(RubricDeletion::Audited(regrades));
        }
        self.remove_rubric(area, id).await?;
        Ok(RubricDeletion::Deleted)
    }

    /// How many ScoringResults were made with rubric `id`.
    async fn rubric_uses(&mut self, area: CustomerArea, id: i32) -> Result<i64, StoreError> {
        self.fetch_scalar(
            &Query::select()
                .expr(Expr::col(ScoringResults::RubricId).count())
                .from(ScoringResults::Table)
                .and_where(Expr::col(ScoringResults::CustomerId).eq(area.id()))
                .and_where(Expr::col(ScoringResults::RubricId).eq(id))
                .to_owned(),
        )
        .await
    }

    /// How many regrades name rubric `id`, as old or new (their audit keeps it).
    pub(in crate::store) async fn regrades_naming(
        &mut self,
        area: CustomerArea,
        id: i32,
    ) -> Result<i64, StoreError> {
        self.fetch_scalar(
            &Query::select()
                .expr(Expr::col(RubricRegrades::Id).count())
                .from(RubricRegrades::Table)
                .and_where(Expr::col(RubricRegrades::CustomerId).eq(area.id()))
                .and_where(
                    Expr::col(RubricRegrades::FromRubricId)
                        .eq(id)
                        .or(Expr::col(RubricRegrades::ToRubricId).eq(id)),
                )
                .to_owned(),
        )
        .await
    }

    /// An unused rubric with its dimensions and their levels.
    async fn remove_rubric(&mut self, area: CustomerArea, id: i32) -> Result<(), StoreError> {
        // Children first: each table's rows of the area that belong to the rubric.
        let deletes = [
            rubric_rows(
                DimensionLevels::Table,
                DimensionLevels::CustomerId,
                DimensionLevels::RubricId,
                area,
                id,
            ),
            rubric_rows(
                Dimensions::Table,
                Dimensions::CustomerId,
                Dimensions::RubricId,
                area,
                id,
            ),
            rubric_rows(Rubrics::Table, Rubrics::CustomerId, Rubrics::Id, area, id),
        ];
        for delete in &deletes {
            self.execute(delete).await?;
        }
        Ok(())
    }
}

/// The question's current rubric: the one new scoring uses (migration 18).
pub(in crate::store) fn current_rubric_of(
    area: CustomerArea,
    question_id: i64,
) -> sea_query::SelectStatement {
    Query::select()
        .column(Rubrics::Id)
        .from(Rubrics::Table)
        .and_where(Expr::col(Rubrics::CustomerId).eq(area.id()))
        .and_where(Expr::col(Rubrics::QuestionId).eq(question_id))
        .and_where(Expr::col(Rubrics::ReplacedAt).is_null())
        .to_owned()
}

/// `DELETE FROM table WHERE area_column = area AND rubric_column = id`.
fn rubric_rows(
    table: impl sea_query::Iden + 'static,
    area_column: impl sea_query::Iden + 'static,
    rubric_column: impl sea_query::Iden + 'static,
    area: CustomerArea,
    id: i32,
) -> sea_query::DeleteStatement {
    Query::delete()
        .from_table(table)
        .and_where(Expr::col(area_column).eq(area.id()))
        .and_where(Expr::col(rubric_column).eq(id))
        .to_owned()
}

/// A score as the Int16 columns hold it (the model has kept it within bounds).
fn short(score: i32) -> Result<i16, StoreError> {
    i16::try_from(score).map_err(|_| StoreError::Corrupt(format!("a rubric score of {score}")))
}
