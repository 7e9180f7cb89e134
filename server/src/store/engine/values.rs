//! Reading rows whose shape is known only at run time (the OData feeds): each column
//! is decoded by the Edm type the entity set declares for it.

use sea_query::{PostgresQueryBuilder, SelectStatement, SqliteQueryBuilder};
use sea_query_binder::SqlxBinder;
use sqlx::Row;

use crate::odata::edm::EdmType;
use crate::odata::value::Value;
use crate::store::{Built, Pool, Store, StoreError};

/// Decodes column `index` of a row of either backend as `kind`.
macro_rules! decode_column {
    ($row:expr, $index:expr, $kind:expr) => {{
        let row = $row;
        let index = $index;
        match $kind {
            EdmType::Boolean => row.try_get::<Option<bool>, _>(index)?.map(Value::Boolean),
            EdmType::Int16 => row.try_get::<Option<i16>, _>(index)?.map(Value::Int16),
            EdmType::Int32 => row.try_get::<Option<i32>, _>(index)?.map(Value::Int32),
            EdmType::Int64 => row.try_get::<Option<i64>, _>(index)?.map(Value::Int64),
            EdmType::Double => row.try_get::<Option<f64>, _>(index)?.map(Value::Double),
            EdmType::String => row.try_get::<Option<String>, _>(index)?.map(Value::String),
            EdmType::DateTime => row.try_get::<Option<i64>, _>(index)?.map(Value::DateTime),
        }
        .unwrap_or(Value::Null)
    }};
}

/// Where a media resource is and how it is stored.
pub struct MediaColumn {
    /// Text columns (markup, XML) rather than bytes.
    pub is_text: bool,
}

impl Store {
    /// Runs `select` and decodes each row's columns as `kinds`.
    pub(in crate::store) async fn fetch_values(
        &self,
        select: &SelectStatement,
        kinds: &[EdmType],
    ) -> Result<Vec<Vec<Value>>, StoreError> {
        self.fetch_values_built(&self.build(select), kinds).await
    }

    /// Runs a statement this store built and decodes each row's columns as `kinds`.
    pub(in crate::store) async fn fetch_values_built(
        &self,
        built: &Built,
        kinds: &[EdmType],
    ) -> Result<Vec<Vec<Value>>, StoreError> {
        let mut out = Vec::new();
        let (sql, values) = (built.sql.as_str(), built.values.clone());
        match &self.pool {
            Pool::Sqlite(pool, _) => {
                for row in sqlx::query_with(sql, values).fetch_all(pool).await? {
                    let mut decoded = Vec::with_capacity(kinds.len());
                    for (index, kind) in kinds.iter().enumerate() {
                        decoded.push(decode_column!(&row, index, *kind));
                    }
                    out.push(decoded);
                }
            }
            Pool::Postgres(pool, _) => {
                for row in sqlx::query_with(sql, values).fetch_all(pool).await? {
                    let mut decoded = Vec::with_capacity(kinds.len());
                    for (index, kind) in kinds.iter().enumerate() {
                        decoded.push(decode_column!(&row, index, *kind));
                    }
                    out.push(decoded);
                }
            }
        }
        Ok(out)
    }

    /// Runs `select`, whose first column is a media resource, and returns its bytes.
    pub(in crate::store) async fn fetch_media(
        &self,
        select: &SelectStatement,
        media: MediaColumn,
    ) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(match &self.pool {
            Pool::Sqlite(pool, _) => {
                let (sql, values) = select.build_sqlx(SqliteQueryBuilder);
                let row = sqlx::query_with(&sql, values).fetch_optional(pool).await?;
                match row {
                    None => None,
                    Some(row) if media.is_text => Some(row.try_get::<String, _>(0)?.into_bytes()),
                    Some(row) => Some(row.try_get::<Vec<u8>, _>(0)?),
                }
            }
            Pool::Postgres(pool, _) => {
                let (sql, values) = select.build_sqlx(PostgresQueryBuilder);
                let row = sqlx::query_with(&sql, values).fetch_optional(pool).await?;
                match row {
                    None => None,
                    Some(row) if media.is_text => Some(row.try_get::<String, _>(0)?.into_bytes()),
                    Some(row) => Some(row.try_get::<Vec<u8>, _>(0)?),
                }
            }
        })
    }
}
