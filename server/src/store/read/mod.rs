//! Typed reads of the entity sets the service declares: rows of a collection, a
//! count, a media resource, and the values a navigation joins on. Callers describe
//! *what* to read (a [`Scope`], a typed filter and order from `odata::typed`); every
//! statement, both dialects and the area condition are built here.

mod condition;
mod counted;
mod keyset;
pub(super) mod memo;
mod paged;
pub(super) mod plan;
mod planner;
mod query;
pub mod seed_copies;
mod sql;
#[cfg(test)]
mod test_sets;

use sea_query::SqliteQueryBuilder;

use super::{Backend, MediaColumn, Store, StoreError};
use crate::model::area::CustomerArea;
use crate::odata::edm::EdmType;
use crate::odata::model::{MediaType, Navigation};
use crate::odata::typed::{Condition, Lookup};
use crate::odata::value::Value;

pub use plan::order_kinds;
use plan::OrderValue;
pub use query::{Constraint, JoinedRow, MediaContent, Row, RowsQuery, Scope};

impl Store {
    fn nulls_smallest(&self) -> bool {
        self.backend() == Backend::Sqlite
    }

    /// The rows `query` selects in `area`.
    pub async fn rows(
        &self,
        area: CustomerArea,
        query: &RowsQuery<'_>,
    ) -> Result<Vec<Row>, StoreError> {
        let build = || {
            let planned = query.plan(area, self.nulls_smallest());
            (self.build(&planned.statement), planned.layout)
        };
        // A page after a continuation is read once as a client walks a feed: kept,
        // thousands of them would only push out the reads that are polled.
        let kept = match query.after {
            Some(_) => std::sync::Arc::new(build()),
            None => {
                let key = memo::rows_key(area, query, self.nulls_smallest());
                self.statements.rows.get_or_build(key, build)
            }
        };
        let (built, planned) = &*kept;
        let rows = self.fetch_values_built(built, &planned.kinds).await?;
        Ok(rows
            .into_iter()
            .map(|mut row| {
                let joined_values = row.split_off(planned.joined_start);
                let extra = row.split_off(planned.extra_start);
                let mut selected = row.split_off(planned.order_start).into_iter();
                let order_values = planned
                    .order
                    .iter()
                    .map(|source| match source {
                        OrderValue::Property(index) => row[*index].clone(),
                        OrderValue::Selected => selected.next().unwrap_or(Value::Null),
                    })
                    .collect();
                let media_type = planned.media_type_index.and_then(|i| match row.remove(i) {
                    Value::String(s) => Some(s),
                    _ => None,
                });
                Row {
                    values: row,
                    media_type,
                    order_values,
                    extra,
                    joined: {
                        let mut values = joined_values.into_iter();
                        let joined = &planned.joined;
                        joined.iter().map(|c| c.read(&mut values)).collect()
                    },
                }
            })
            .collect())
    }

    /// How many rows of `scope` in `area` pass `filter`.
    pub async fn count(
        &self,
        area: CustomerArea,
        scope: &Scope,
        filter: Option<&Condition>,
        lookup: Lookup,
    ) -> Result<i64, StoreError> {
        let key = memo::count_key(area, scope, filter, lookup);
        let built = self.statements.counts.get_or_build(key, || {
            self.build(&plan::count(scope, area, filter, lookup))
        });
        self.fetch_scalar_built(&built).await
    }

    /// The database's plan of the read `query` (see [`Store::explain`]).
    pub async fn plan_of_rows(
        &self,
        area: CustomerArea,
        query: &RowsQuery<'_>,
    ) -> Result<Vec<String>, StoreError> {
        self.explain(&query.plan(area, self.nulls_smallest()).statement)
            .await
    }

    /// How PostgreSQL planned `runs` executions of the read `query` on one
    /// connection (see [`Store::plans_made`]); `None` on SQLite.
    pub async fn plans_made_for_rows(
        &self,
        area: CustomerArea,
        query: &RowsQuery<'_>,
        runs: usize,
    ) -> Result<Option<super::PlansMade>, StoreError> {
        self.plans_made(&query.plan(area, self.nulls_smallest()).statement, runs)
            .await
    }

    /// The database's plan of the count of `scope` filtered by `filter`.
    pub async fn plan_of_count(
        &self,
        area: CustomerArea,
        scope: &Scope,
        filter: Option<&Condition>,
        lookup: Lookup,
    ) -> Result<Vec<String>, StoreError> {
        self.explain(&plan::count(scope, area, filter, lookup))
            .await
    }

    /// The media resource of the first entity of `scope`, if there is one.
    pub async fn media(
        &self,
        area: CustomerArea,
        scope: &Scope,
    ) -> Result<Option<MediaContent>, StoreError> {
        let media = scope
            .set
            .media
            .expect("media is read only from media-link entries");
        let (media_type, is_text) = match media.media_type {
            MediaType::Fixed(fixed) => (fixed.to_owned(), true),
            MediaType::Column(name) => {
                let select = plan::first_row(scope, area, &[name]);
                let rows = self.fetch_values(&select, &[EdmType::String]).await?;
                match rows
                    .into_iter()
                    .next()
                    .and_then(|row| row.into_iter().next())
                {
                    Some(Value::String(media_type)) => (media_type, false),
                    _ => return Ok(None),
                }
            }
        };
        let select = plan::first_row(scope, area, &[media.content_column]);
        let bytes = self.fetch_media(&select, MediaColumn { is_text }).await?;
        Ok(bytes.map(|bytes| MediaContent { media_type, bytes }))
    }

    /// The values of the join columns `navigation` leaves from, on the first row of
    /// `scope` (`None` when there is no such row). `kinds` are the columns' kinds.
    pub async fn join_values(
        &self,
        area: CustomerArea,
        scope: &Scope,
        navigation: &Navigation,
        kinds: &[EdmType],
    ) -> Result<Option<Vec<Value>>, StoreError> {
        let near: Vec<&str> = navigation.on.iter().map(|(near, _)| *near).collect();
        let select = plan::first_row(scope, area, &near);
        Ok(self.fetch_values(&select, kinds).await?.into_iter().next())
    }
}

/// The SQL a read runs on SQLite, for tests of its plan.
pub fn sqlite_sql(query: &RowsQuery<'_>, nulls_smallest: bool) -> String {
    let area = CustomerArea::new(1).expect("1 is an area");
    query
        .plan(area, nulls_smallest)
        .statement
        .to_string(SqliteQueryBuilder)
}
