//! Typed reads of the entity sets the service declares: rows of a collection, a
//! count, a media resource, and the values a navigation joins on. Callers describe
//! *what* to read (a [`Scope`], a typed filter and order from `odata::typed`); every
//! statement, both dialects and the area condition are built here.

mod condition;
mod keyset;
pub(super) mod plan;

use sea_query::SqliteQueryBuilder;

use super::{Backend, MediaColumn, Store, StoreError};
use crate::model::area::CustomerArea;
use crate::odata::edm::EdmType;
use crate::odata::model::{EntitySet, MediaType, Navigation, Property};
use crate::odata::typed::{Condition, Lookup, OrderTerm};
use crate::odata::value::Value;

pub use plan::order_kinds;

/// Which rows of an entity set a read addresses, before `$filter`.
#[derive(Debug, Clone)]
pub struct Scope {
    pub set: &'static EntitySet,
    pub constraints: Vec<Constraint>,
}

impl Scope {
    /// Every row of `set` (in the area).
    pub fn all(set: &'static EntitySet) -> Self {
        Self {
            set,
            constraints: Vec::new(),
        }
    }
}

/// One condition on the rows of a scope.
#[derive(Debug, Clone)]
pub enum Constraint {
    /// A property equals a value (a key part from the URL).
    Equals(&'static Property, Value),
    /// The rows `navigation` reaches from a source row whose join columns hold `from`.
    Reached {
        navigation: &'static Navigation,
        from: Vec<Value>,
    },
    /// The rows `navigation` reaches from any of several source rows (an expansion).
    ReachedFromAny {
        navigation: &'static Navigation,
        from: Vec<Vec<Value>>,
    },
}

/// A read of rows: a scope, filtered, ordered, after a continuation, at most `limit`.
pub struct RowsQuery<'a> {
    pub scope: &'a Scope,
    pub filter: Option<&'a Condition>,
    pub order: &'a [OrderTerm],
    /// The order values of the last row already sent (see [`order_kinds`]).
    pub after: Option<&'a [Value]>,
    pub limit: u64,
    pub offset: Option<u64>,
    /// Columns of the set's own table to return beside each row (join values that
    /// expansions group by), with their kinds.
    pub extra: &'a [(&'static str, EdmType)],
    pub lookup: Lookup,
}

/// One row read.
pub struct Row {
    /// The set's stored properties, in declaration order
    /// ([`EntitySet::stored_properties`]).
    pub values: Vec<Value>,
    /// For media-link entries whose type is stored per row.
    pub media_type: Option<String>,
    /// The row's place in the read's total order, for a continuation.
    pub order_values: Vec<Value>,
    /// The `extra` columns asked for.
    pub extra: Vec<Value>,
}

/// A media resource as stored.
pub struct MediaContent {
    pub media_type: String,
    pub bytes: Vec<u8>,
}

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
        let planned = query.plan(area, self.nulls_smallest());
        let rows = self
            .fetch_values(&planned.statement, &planned.kinds)
            .await?;
        Ok(rows
            .into_iter()
            .map(|mut row| {
                let extra = row.split_off(planned.extra_start);
                let order_values = row.split_off(planned.order_start);
                let media_type = planned.media_type_index.and_then(|i| match row.remove(i) {
                    Value::String(s) => Some(s),
                    _ => None,
                });
                Row {
                    values: row,
                    media_type,
                    order_values,
                    extra,
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
        self.fetch_scalar(&plan::count(scope, area, filter, lookup))
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
