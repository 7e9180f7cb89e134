//! What a print batch's answer sheets are printed from (docs/paper-sheets.md): its
//! snapshot, and its attempts (those of the batch's group's members at the batch's
//! snapshot) with their participants' names, by name.

use sea_query::{Expr, Order, Query};

use crate::model::area::CustomerArea;
use crate::store::schema::{Attempts, GroupParticipants, Participants, PrintBatches};
use crate::store::{Store, StoreError};

/// A batch's sheets' sources.
pub struct BatchSheets {
    pub snapshot_id: i32,
    /// `(attempt ID, the participant's name as printed)`.
    pub attempts: Vec<(i32, String)>,
}

impl Store {
    /// The sheets of batch `batch` of `area`; `None` when there is no such batch.
    pub async fn batch_sheets(
        &self,
        area: CustomerArea,
        batch: i32,
    ) -> Result<Option<BatchSheets>, StoreError> {
        let found: Option<(i32, i32)> = self
            .fetch_optional(
                &Query::select()
                    .columns([PrintBatches::SnapshotId, PrintBatches::GroupId])
                    .from(PrintBatches::Table)
                    .and_where(Expr::col(PrintBatches::CustomerId).eq(area.id()))
                    .and_where(Expr::col(PrintBatches::Id).eq(batch))
                    .to_owned(),
            )
            .await?;
        let Some((snapshot_id, group_id)) = found else {
            return Ok(None);
        };
        let rows: Vec<(i32, String, Option<String>, Option<String>)> = self
            .fetch_all(
                &Query::select()
                    .column((Attempts::Table, Attempts::Id))
                    .column((Participants::Table, Participants::Name))
                    .column((Participants::Table, Participants::FirstName))
                    .column((Participants::Table, Participants::LastName))
                    .from(Attempts::Table)
                    .inner_join(
                        Participants::Table,
                        Expr::col((Participants::Table, Participants::Id))
                            .equals((Attempts::Table, Attempts::ParticipantId)),
                    )
                    .inner_join(
                        GroupParticipants::Table,
                        Expr::col((GroupParticipants::Table, GroupParticipants::ParticipantId))
                            .equals((Attempts::Table, Attempts::ParticipantId))
                            .and(
                                Expr::col((GroupParticipants::Table, GroupParticipants::GroupId))
                                    .eq(group_id),
                            ),
                    )
                    .and_where(Expr::col((Attempts::Table, Attempts::CustomerId)).eq(area.id()))
                    .and_where(Expr::col((Attempts::Table, Attempts::SnapshotId)).eq(snapshot_id))
                    .order_by((Participants::Table, Participants::Name), Order::Asc)
                    .order_by((Attempts::Table, Attempts::Id), Order::Asc)
                    .to_owned(),
            )
            .await?;
        let attempts = rows
            .into_iter()
            .map(|(id, name, first, last)| {
                let full = [first, last]
                    .into_iter()
                    .flatten()
                    .filter(|part| !part.trim().is_empty())
                    .collect::<Vec<_>>()
                    .join(" ");
                (
                    id,
                    if full.is_empty() {
                        name
                    } else {
                        format!("{full} ({name})")
                    },
                )
            })
            .collect();
        Ok(Some(BatchSheets {
            snapshot_id,
            attempts,
        }))
    }
}
