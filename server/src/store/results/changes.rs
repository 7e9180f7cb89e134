//! What an administrator changes on a Result: its Status and ExtraTime.

use sea_query::{Expr, Query};

use crate::model::area::CustomerArea;
use crate::store::schema::Results;
use crate::store::{Store, StoreError, Tx};

impl Tx {
    /// Result `id`'s Status, its row locked for the rest of the transaction
    /// (PostgreSQL; SQLite's transaction holds the write lock already).
    pub async fn result_status_for_update(
        &mut self,
        area: CustomerArea,
        id: i32,
    ) -> Result<Option<i16>, StoreError> {
        let row: Option<(i16,)> = self
            .fetch_optional(
                &Query::select()
                    .column(Results::Status)
                    .from(Results::Table)
                    .and_where(Expr::col(Results::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Results::Id).eq(id))
                    // A seed copy is no administrator's to change.
                    .and_where(Expr::col(Results::SeedFor).is_null())
                    .lock(sea_query::LockType::Update)
                    .to_owned(),
            )
            .await?;
        Ok(row.map(|(status,)| status))
    }

    /// Sets what is given of Status and ExtraTime.
    pub async fn change_result(
        &mut self,
        area: CustomerArea,
        id: i32,
        status: Option<i16>,
        extra_time: Option<i32>,
    ) -> Result<(), StoreError> {
        let mut update = Query::update();
        update
            .table(Results::Table)
            .and_where(Expr::col(Results::CustomerId).eq(area.id()))
            .and_where(Expr::col(Results::Id).eq(id));
        if let Some(status) = status {
            update.value(Results::Status, status);
        }
        if let Some(seconds) = extra_time {
            update.value(Results::ExtraTime, seconds);
        }
        if status.is_none() && extra_time.is_none() {
            return Ok(());
        }
        self.execute(&update).await?;
        Ok(())
    }
}

impl Store {
    pub async fn result_exists(&self, area: CustomerArea, id: i32) -> Result<bool, StoreError> {
        let row: Option<(i32,)> = self
            .fetch_optional(
                &Query::select()
                    .column(Results::Id)
                    .from(Results::Table)
                    .and_where(Expr::col(Results::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Results::Id).eq(id))
                    // A seed copy is its marker's task, no result to purge
                    // (docs/marking-quality.md, "Seeds").
                    .and_where(Expr::col(Results::SeedFor).is_null())
                    .to_owned(),
            )
            .await?;
        Ok(row.is_some())
    }
}
