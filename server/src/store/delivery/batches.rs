//! Print batches and attempts (spec, "External delivery"): what they refer to, and
//! their rows.

use sea_query::{Expr, Query};

use crate::model::area::CustomerArea;
use crate::store::schema::{
    AssessmentSnapshots, Assessments, Attempts, Groups, Participants, PrintBatches,
};
use crate::store::{Store, StoreError, Tx};

/// A new print batch's values.
pub struct NewPrintBatch<'a> {
    pub group_id: i32,
    pub snapshot_id: i32,
    pub name: Option<&'a str>,
    pub at: i64,
}

/// A new attempt's values.
pub struct NewAttempt<'a> {
    pub participant_id: i32,
    pub assessment_id: i64,
    pub snapshot_id: Option<i32>,
    pub external_attempt_id: Option<&'a str>,
    pub at: i64,
}

impl Store {
    async fn exists_in_area(
        &self,
        table: impl sea_query::IntoIden + Copy + 'static,
        id_column: impl sea_query::IntoIden + Copy + 'static,
        area_column: impl sea_query::IntoIden + Copy + 'static,
        area: CustomerArea,
        id: sea_query::Value,
    ) -> Result<bool, StoreError> {
        let found: Option<(i64,)> = self
            .fetch_optional(
                &Query::select()
                    .expr(Expr::val(1i64))
                    .from(table)
                    .and_where(Expr::col(area_column).eq(area.id()))
                    .and_where(Expr::col(id_column).eq(id))
                    .to_owned(),
            )
            .await?;
        Ok(found.is_some())
    }

    pub async fn group_exists(&self, area: CustomerArea, id: i32) -> Result<bool, StoreError> {
        self.exists_in_area(
            Groups::Table,
            Groups::Id,
            Groups::CustomerId,
            area,
            id.into(),
        )
        .await
    }

    pub async fn participant_exists(
        &self,
        area: CustomerArea,
        id: i32,
    ) -> Result<bool, StoreError> {
        self.exists_in_area(
            Participants::Table,
            Participants::Id,
            Participants::CustomerId,
            area,
            id.into(),
        )
        .await
    }

    pub async fn assessment_exists(&self, area: CustomerArea, id: i64) -> Result<bool, StoreError> {
        self.exists_in_area(
            Assessments::Table,
            Assessments::Id,
            Assessments::CustomerId,
            area,
            id.into(),
        )
        .await
    }

    /// The assessment snapshot `id` of `area` is of; `None` when there is no such
    /// snapshot there.
    pub async fn snapshot_assessment(
        &self,
        area: CustomerArea,
        id: i32,
    ) -> Result<Option<i64>, StoreError> {
        let found: Option<(i64,)> = self
            .fetch_optional(
                &Query::select()
                    .column(AssessmentSnapshots::AssessmentId)
                    .from(AssessmentSnapshots::Table)
                    .and_where(Expr::col(AssessmentSnapshots::CustomerId).eq(area.id()))
                    .and_where(Expr::col(AssessmentSnapshots::Id).eq(id))
                    .to_owned(),
            )
            .await?;
        Ok(found.map(|(assessment,)| assessment))
    }
}

impl Tx {
    pub async fn insert_print_batch(
        &mut self,
        area: CustomerArea,
        batch: &NewPrintBatch<'_>,
    ) -> Result<i32, StoreError> {
        self.fetch_scalar(
            &Query::insert()
                .into_table(PrintBatches::Table)
                .columns([
                    PrintBatches::CustomerId,
                    PrintBatches::GroupId,
                    PrintBatches::SnapshotId,
                    PrintBatches::Name,
                    PrintBatches::CreatedAt,
                    PrintBatches::ModifiedAt,
                ])
                .values_panic([
                    area.id().into(),
                    batch.group_id.into(),
                    batch.snapshot_id.into(),
                    batch.name.into(),
                    batch.at.into(),
                    batch.at.into(),
                ])
                .returning_col(PrintBatches::Id)
                .to_owned(),
        )
        .await
    }

    /// A new attempt; a second one with the same `ExternalAttemptID` in the area is
    /// refused by the database's unique constraint (`StoreError::Conflict`).
    pub async fn insert_attempt(
        &mut self,
        area: CustomerArea,
        attempt: &NewAttempt<'_>,
    ) -> Result<i32, StoreError> {
        self.fetch_scalar(
            &Query::insert()
                .into_table(Attempts::Table)
                .columns([
                    Attempts::CustomerId,
                    Attempts::ParticipantId,
                    Attempts::AssessmentId,
                    Attempts::SnapshotId,
                    Attempts::ExternalAttemptId,
                    Attempts::LockStatus,
                    Attempts::LockRequired,
                    Attempts::LastModifiedAt,
                ])
                .values_panic([
                    area.id().into(),
                    attempt.participant_id.into(),
                    attempt.assessment_id.into(),
                    attempt.snapshot_id.into(),
                    attempt.external_attempt_id.into(),
                    false.into(),
                    false.into(),
                    attempt.at.into(),
                ])
                .returning_col(Attempts::Id)
                .to_owned(),
        )
        .await
    }
}
