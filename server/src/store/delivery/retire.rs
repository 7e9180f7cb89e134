//! Renaming and deleting what a coordinator made by mistake (issue 33): a print
//! batch's name, and a snapshot or a print batch that nothing uses yet. What uses
//! each is read in the deleting transaction; a snapshot is also held by the
//! database's foreign keys, so an attempt made for it at the same moment makes the
//! delete fail as a conflict rather than orphan the attempt.

use sea_query::{Expr, Query};

use crate::model::area::CustomerArea;
use crate::model::delivery_use::{BatchUse, SnapshotUse};
use crate::store::schema::{
    AssessmentSnapshots, Attempts, GroupParticipants, PrintBatches, SnapshotChoices,
    SnapshotQuestions,
};
use crate::store::{StoreError, Tx};

/// A print batch's stored values, as a MERGE compares them.
pub struct StoredPrintBatch {
    pub id: i32,
    pub created_at: i64,
    pub modified_at: i64,
    pub group_id: i32,
    pub snapshot_id: i32,
    pub last_uploaded_at: Option<i64>,
}

impl Tx {
    /// What refers to snapshot `id` of `area`; `None` when there is no such snapshot.
    pub async fn snapshot_use(
        &mut self,
        area: CustomerArea,
        id: i32,
    ) -> Result<Option<SnapshotUse>, StoreError> {
        let found: Option<(i32,)> = self
            .fetch_optional(
                &Query::select()
                    .column(AssessmentSnapshots::Id)
                    .from(AssessmentSnapshots::Table)
                    .and_where(Expr::col(AssessmentSnapshots::CustomerId).eq(area.id()))
                    .and_where(Expr::col(AssessmentSnapshots::Id).eq(id))
                    .to_owned(),
            )
            .await?;
        if found.is_none() {
            return Ok(None);
        }
        let batches: i64 = self
            .fetch_scalar(
                &Query::select()
                    .expr(Expr::col(PrintBatches::Id).count())
                    .from(PrintBatches::Table)
                    .and_where(Expr::col(PrintBatches::CustomerId).eq(area.id()))
                    .and_where(Expr::col(PrintBatches::SnapshotId).eq(id))
                    .to_owned(),
            )
            .await?;
        let attempts: i64 = self
            .fetch_scalar(
                &Query::select()
                    .expr(Expr::col(Attempts::Id).count())
                    .from(Attempts::Table)
                    .and_where(Expr::col(Attempts::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Attempts::SnapshotId).eq(id))
                    .to_owned(),
            )
            .await?;
        Ok(Some(SnapshotUse { batches, attempts }))
    }

    /// Deletes snapshot `id` with the contents it fixed; the rows deleted (0: none
    /// such). The caller has found it unused in this transaction.
    pub async fn delete_snapshot(
        &mut self,
        area: CustomerArea,
        id: i32,
    ) -> Result<u64, StoreError> {
        self.execute(
            &Query::delete()
                .from_table(SnapshotChoices::Table)
                .and_where(Expr::col(SnapshotChoices::CustomerId).eq(area.id()))
                .and_where(Expr::col(SnapshotChoices::SnapshotId).eq(id))
                .to_owned(),
        )
        .await?;
        self.execute(
            &Query::delete()
                .from_table(SnapshotQuestions::Table)
                .and_where(Expr::col(SnapshotQuestions::CustomerId).eq(area.id()))
                .and_where(Expr::col(SnapshotQuestions::SnapshotId).eq(id))
                .to_owned(),
        )
        .await?;
        self.execute(
            &Query::delete()
                .from_table(AssessmentSnapshots::Table)
                .and_where(Expr::col(AssessmentSnapshots::CustomerId).eq(area.id()))
                .and_where(Expr::col(AssessmentSnapshots::Id).eq(id))
                .to_owned(),
        )
        .await
    }

    /// Print batch `id` of `area` as stored; `None` when there is none.
    pub async fn print_batch(
        &mut self,
        area: CustomerArea,
        id: i32,
    ) -> Result<Option<StoredPrintBatch>, StoreError> {
        let row: Option<(i32, i64, i64, i32, i32, Option<i64>)> = self
            .fetch_optional(
                &Query::select()
                    .columns([
                        PrintBatches::Id,
                        PrintBatches::CreatedAt,
                        PrintBatches::ModifiedAt,
                        PrintBatches::GroupId,
                        PrintBatches::SnapshotId,
                        PrintBatches::LastUploadedAt,
                    ])
                    .from(PrintBatches::Table)
                    .and_where(Expr::col(PrintBatches::CustomerId).eq(area.id()))
                    .and_where(Expr::col(PrintBatches::Id).eq(id))
                    .to_owned(),
            )
            .await?;
        Ok(row.map(
            |(id, created_at, modified_at, group_id, snapshot_id, last_uploaded_at)| {
                StoredPrintBatch {
                    id,
                    created_at,
                    modified_at,
                    group_id,
                    snapshot_id,
                    last_uploaded_at,
                }
            },
        ))
    }

    /// What uses `batch`: the attempts its sheets are printed for (its group's
    /// members' attempts at its snapshot, as `Store::batch_sheets` lists them) and
    /// whether an upload named it.
    pub async fn print_batch_use(
        &mut self,
        area: CustomerArea,
        batch: &StoredPrintBatch,
    ) -> Result<BatchUse, StoreError> {
        let attempts: i64 = self
            .fetch_scalar(
                &Query::select()
                    .expr(Expr::col((Attempts::Table, Attempts::Id)).count())
                    .from(Attempts::Table)
                    .inner_join(
                        GroupParticipants::Table,
                        Expr::col((GroupParticipants::Table, GroupParticipants::ParticipantId))
                            .equals((Attempts::Table, Attempts::ParticipantId))
                            .and(
                                Expr::col((GroupParticipants::Table, GroupParticipants::GroupId))
                                    .eq(batch.group_id),
                            ),
                    )
                    .and_where(Expr::col((Attempts::Table, Attempts::CustomerId)).eq(area.id()))
                    .and_where(
                        Expr::col((Attempts::Table, Attempts::SnapshotId)).eq(batch.snapshot_id),
                    )
                    .to_owned(),
            )
            .await?;
        Ok(BatchUse {
            attempts,
            uploaded: batch.last_uploaded_at.is_some(),
        })
    }

    /// Renames print batch `id` (null: no name); the rows changed.
    pub async fn rename_print_batch(
        &mut self,
        area: CustomerArea,
        id: i32,
        name: Option<&str>,
        at: i64,
    ) -> Result<u64, StoreError> {
        self.execute(
            &Query::update()
                .table(PrintBatches::Table)
                .value(PrintBatches::Name, name)
                .value(PrintBatches::ModifiedAt, at)
                .and_where(Expr::col(PrintBatches::CustomerId).eq(area.id()))
                .and_where(Expr::col(PrintBatches::Id).eq(id))
                .to_owned(),
        )
        .await
    }

    /// Deletes print batch `id`; the rows deleted. The caller has found it unused.
    pub async fn delete_print_batch(
        &mut self,
        area: CustomerArea,
        id: i32,
    ) -> Result<u64, StoreError> {
        self.execute(
            &Query::delete()
                .from_table(PrintBatches::Table)
                .and_where(Expr::col(PrintBatches::CustomerId).eq(area.id()))
                .and_where(Expr::col(PrintBatches::Id).eq(id))
                .to_owned(),
        )
        .await
    }
}
