//! Where imported content came from (`content_sources`): what earlier imports of
//! the same keys left, looked up for a whole package at once, and what this one
//! records, a few statements however many questions it has.

use std::collections::HashMap;

use sea_query::{Expr, Query};

use super::import_rows::ROWS;
use crate::model::area::CustomerArea;
use crate::model::content::ImportedBefore;
use crate::store::schema::{ContentSources, Questions};
use crate::store::{StoreError, Tx};

/// Keys a lookup's `IN` list takes.
const KEYS: usize = 500;

/// Where a question or an assessment came from, as an import records it.
pub(super) struct SourceRow<'a> {
    pub key: &'a str,
    pub target: i64,
    pub fingerprint: String,
}

impl Tx {
    /// What earlier imports left for the question `keys` of `area`: the question
    /// each became last, its revision and fingerprint, by key.
    pub(super) async fn imported_questions(
        &mut self,
        area: CustomerArea,
        kind: &str,
        keys: &[&str],
    ) -> Result<HashMap<String, ImportedBefore>, StoreError> {
        let mut found = HashMap::with_capacity(keys.len());
        for chunk in keys.chunks(KEYS) {
            let rows: Vec<(String, i64, String, i32)> = self
                .fetch_all(
                    &Query::select()
                        .column((ContentSources::Table, ContentSources::SourceKey))
                        .column((ContentSources::Table, ContentSources::TargetId))
                        .column((ContentSources::Table, ContentSources::Fingerprint))
                        .column((Questions::Table, Questions::Revision))
                        .from(ContentSources::Table)
                        .inner_join(
                            Questions::Table,
                            Expr::col((Questions::Table, Questions::CustomerId))
                                .equals((ContentSources::Table, ContentSources::CustomerId))
                                .and(
                                    Expr::col((Questions::Table, Questions::Id))
                                        .equals((ContentSources::Table, ContentSources::TargetId)),
                                ),
                        )
                        .and_where(
                            Expr::col((ContentSources::Table, ContentSources::CustomerId))
                                .eq(area.id()),
                        )
                        .and_where(
                            Expr::col((ContentSources::Table, ContentSources::Kind)).eq(kind),
                        )
                        .and_where(
                            Expr::col((ContentSources::Table, ContentSources::SourceKey))
                                .is_in(chunk.iter().copied()),
                        )
                        .to_owned(),
                )
                .await?;
            for (key, id, fingerprint, revision) in rows {
                found.insert(
                    key,
                    ImportedBefore {
                        id,
                        revision,
                        fingerprint,
                    },
                );
            }
        }
        Ok(found)
    }

    /// Records where `sources` came from, replacing what earlier imports recorded
    /// for their keys.
    pub(super) async fn record_sources(
        &mut self,
        area: CustomerArea,
        kind: &str,
        sources: &[SourceRow<'_>],
        at: i64,
    ) -> Result<(), StoreError> {
        for chunk in sources.chunks(KEYS) {
            self.execute(
                &Query::delete()
                    .from_table(ContentSources::Table)
                    .and_where(Expr::col(ContentSources::CustomerId).eq(area.id()))
                    .and_where(Expr::col(ContentSources::Kind).eq(kind))
                    .and_where(
                        Expr::col(ContentSources::SourceKey).is_in(chunk.iter().map(|s| s.key)),
                    )
                    .to_owned(),
            )
            .await?;
        }
        let rows = sources
            .iter()
            .map(|source| {
                [
                    area.id().into(),
                    kind.into(),
                    source.key.into(),
                    source.target.into(),
                    source.fingerprint.as_str().into(),
                    at.into(),
                ]
            })
            .collect();
        self.insert_many(
            ContentSources::Table,
            [
                ContentSources::CustomerId,
                ContentSources::Kind,
                ContentSources::SourceKey,
                ContentSources::TargetId,
                ContentSources::Fingerprint,
                ContentSources::ImportedAt,
            ],
            rows,
            ROWS,
        )
        .await
    }
}
