//! The attempts an upload group claims: which are still free (locked on
//! PostgreSQL until the group commits), and setting their ResultIDs.

use std::collections::HashSet;

use sea_query::{CaseStatement, Cond, Expr, Order, Query};

use super::upload_arrays;
use super::uploads::CheckedUpload;
use crate::store::schema::Attempts;
use crate::store::{StoreError, Tx};

impl Tx {
    /// For each upload, whether its attempt is still without a result and no upload
    /// before it in `uploads` is for the same attempt. Takes the attempts' row locks
    /// (PostgreSQL), in ID order so that two processes never wait for each other.
    pub(super) async fn free_attempts(
        &mut self,
        uploads: &[CheckedUpload],
    ) -> Result<Vec<bool>, StoreError> {
        let rows = match self.postgres() {
            Some(conn) => {
                let ids: Vec<i32> = uploads.iter().map(|u| u.attempt_id).collect();
                upload_arrays::lock_attempts(conn, &ids).await?
            }
            None => self.attempts_of(uploads).await?,
        };
        let mut free: HashSet<(i32, i32)> = rows
            .into_iter()
            .filter(|(_, _, result)| result.is_none())
            .map(|(area, id, _)| (area, id))
            .collect();
        Ok(uploads
            .iter()
            .map(|upload| free.remove(&(upload.area.id(), upload.attempt_id)))
            .collect())
    }

    /// `(area, attempt, result)` of each upload's attempt.
    async fn attempts_of(
        &mut self,
        uploads: &[CheckedUpload],
    ) -> Result<Vec<(i32, i32, Option<i32>)>, StoreError> {
        let mut condition = Cond::any();
        for upload in uploads {
            condition = condition.add(
                Expr::col(Attempts::CustomerId)
                    .eq(upload.area.id())
                    .and(Expr::col(Attempts::Id).eq(upload.attempt_id)),
            );
        }
        self.fetch_all(
            &Query::select()
                .columns([Attempts::CustomerId, Attempts::Id, Attempts::ResultId])
                .from(Attempts::Table)
                .cond_where(condition)
                .order_by(Attempts::Id, Order::Asc)
                .lock(sea_query::LockType::Update)
                .to_owned(),
        )
        .await
    }

    /// Sets each claimed attempt's ResultID, in one statement.
    pub(super) async fn claim_attempts(
        &mut self,
        claiming: &[&CheckedUpload],
        result_ids: &[i32],
    ) -> Result<(), StoreError> {
        if let Some(conn) = self.postgres() {
            let areas: Vec<i32> = claiming.iter().map(|u| u.area.id()).collect();
            let ids: Vec<i32> = claiming.iter().map(|u| u.attempt_id).collect();
            let at: Vec<i64> = claiming.iter().map(|u| u.at).collect();
            return upload_arrays::claim_attempts(conn, &areas, &ids, result_ids, &at).await;
        }
        let mut result = CaseStatement::new();
        let mut modified = CaseStatement::new();
        let mut which = Cond::any();
        for (upload, result_id) in claiming.iter().zip(result_ids) {
            let this = Expr::col(Attempts::CustomerId)
                .eq(upload.area.id())
                .and(Expr::col(Attempts::Id).eq(upload.attempt_id));
            result = result.case(this.clone(), *result_id);
            modified = modified.case(this.clone(), upload.at);
            which = which.add(this);
        }
        self.execute(
            &Query::update()
                .table(Attempts::Table)
                .value(Attempts::ResultId, result)
                .value(Attempts::LastModifiedAt, modified)
                .cond_where(which)
                .to_owned(),
        )
        .await?;
        Ok(())
    }
}
