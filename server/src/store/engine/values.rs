//! Reading rows whose shape is known only at run time (the OData feeds): each column
//! is decoded by the Edm type the entity set declares for it.

use sea_query::{PostgresQueryBuilder, SelectStatement, SqliteQueryBuilder};
use sea_query_binder::SqlxBinder;
use sqlx::Row;

use super::exec::StoreParts;
use crate::odata::edm::EdmType;
use crate::odata::value::Value;
use crate::store::{Built, Store, StoreError};

/// Decodes column `index` of a row of either backend as `kind`, without sqlx's
/// check of the column's type against `kind` before each value: that check was
/// 10 % of Q1's CPU on PostgreSQL (docs/benchmarks.md, "Session 22"). It is made
/// once per statement instead (`check_columns`), on PostgreSQL, whose decoders
/// assume the type (a `REAL` read as a double would panic); SQLite's coerce every
/// value and cannot.
macro_rules! decode_column {
    ($row:expr, $index:expr, $kind:expr) => {{
        let row = $row;
        let index = $index;
        match $kind {
            EdmType::Boolean => row
                .try_get_unchecked::<Option<bool>, _>(index)?
                .map(Value::Boolean),
            EdmType::Int16 => row
                .try_get_unchecked::<Option<i16>, _>(index)?
                .map(Value::Int16),
            EdmType::Int32 => row
                .try_get_unchecked::<Option<i32>, _>(index)?
                .map(Value::Int32),
            EdmType::Int64 => row
                .try_get_unchecked::<Option<i64>, _>(index)?
                .map(Value::Int64),
            EdmType::Double => row
                .try_get_unchecked::<Option<f64>, _>(index)?
                .map(Value::Double),
            EdmType::String => row
                .try_get_unchecked::<Option<String>, _>(index)?
                .map(Value::String),
            EdmType::DateTime => row
                .try_get_unchecked::<Option<i64>, _>(index)?
                .map(Value::DateTime),
        }
        .unwrap_or(Value::Null)
    }};
}

/// Whether each column of `row` (and so of every row of its statement) has a type
/// `kinds` can be decoded from.
fn check_columns(row: &sqlx::postgres::PgRow, kinds: &[EdmType]) -> Result<(), StoreError> {
    use sqlx::{Column, Postgres, Type};
    for (column, kind) in row.columns().iter().zip(kinds) {
        let found = column.type_info();
        let fits = match kind {
            EdmType::Boolean => <bool as Type<Postgres>>::compatible(found),
            EdmType::Int16 => <i16 as Type<Postgres>>::compatible(found),
            EdmType::Int32 => <i32 as Type<Postgres>>::compatible(found),
            EdmType::Int64 | EdmType::DateTime => <i64 as Type<Postgres>>::compatible(found),
            EdmType::Double => <f64 as Type<Postgres>>::compatible(found),
            EdmType::String => <String as Type<Postgres>>::compatible(found),
        };
        if !fits {
            return Err(StoreError::Corrupt(format!(
                "column {} is {found}, read as {kind:?}",
                column.name()
            )));
        }
    }
    Ok(())
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
        match self.connection().await? {
            StoreParts::Sqlite(mut conn) => {
                let ran = sqlx::query_with(sql, values).fetch_all(&mut *conn).await;
                for row in conn.settle(ran)? {
                    let mut decoded = Vec::with_capacity(kinds.len());
                    for (index, kind) in kinds.iter().enumerate() {
                        decoded.push(decode_column!(&row, index, *kind));
                    }
                    out.push(decoded);
                }
            }
            StoreParts::Postgres(mut conn) => {
                let ran = sqlx::query_with(sql, values).fetch_all(&mut *conn).await;
                let rows = conn.settle(ran)?;
                if let Some(first) = rows.first() {
                    check_columns(first, kinds)?;
                }
                for row in rows {
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
        Ok(match self.connection().await? {
            StoreParts::Sqlite(mut conn) => {
                let (sql, values) = select.build_sqlx(SqliteQueryBuilder);
                let ran = sqlx::query_with(&sql, values)
                    .fetch_optional(&mut *conn)
                    .await;
                let row = conn.settle(ran)?;
                match row {
                    None => None,
                    Some(row) if media.is_text => Some(row.try_get::<String, _>(0)?.into_bytes()),
                    Some(row) => Some(row.try_get::<Vec<u8>, _>(0)?),
                }
            }
            StoreParts::Postgres(mut conn) => {
                let (sql, values) = select.build_sqlx(PostgresQueryBuilder);
                let ran = sqlx::query_with(&sql, values)
                    .fetch_optional(&mut *conn)
                    .await;
                let row = conn.settle(ran)?;
                match row {
                    None => None,
                    Some(row) if media.is_text => Some(row.try_get::<String, _>(0)?.into_bytes()),
                    Some(row) => Some(row.try_get::<Vec<u8>, _>(0)?),
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use sea_query::{Expr, Query};

    use super::*;

    async fn postgres() -> Store {
        let url = std::env::var("SCOREDESK_TEST_PG_URL").unwrap_or_else(|_| {
            panic!("SCOREDESK_TEST_PG_URL is not set: run the tests with scripts/test, which starts a private PostgreSQL")
        });
        Store::connect(&url).await.expect("the test PostgreSQL")
    }

    fn select(expression: &str) -> SelectStatement {
        Query::select().expr(Expr::cust(expression)).to_owned()
    }

    #[tokio::test]
    async fn a_column_of_another_type_is_an_error_on_postgres_not_a_panic() {
        let store = postgres().await;
        // REAL is four bytes: decoded as a double unchecked, it would panic.
        let error = store
            .fetch_values(&select("CAST(1.5 AS REAL)"), &[EdmType::Double])
            .await
            .unwrap_err();
        assert!(matches!(error, StoreError::Corrupt(_)), "{error}");
        // The type is the column's, so a first row of NULL does not hide it.
        let error = store
            .fetch_values(
                &select("v FROM (VALUES (CAST(NULL AS REAL)), (CAST(2.5 AS REAL))) AS t(v)"),
                &[EdmType::Double],
            )
            .await
            .unwrap_err();
        assert!(matches!(error, StoreError::Corrupt(_)), "{error}");
        let error = store
            .fetch_values(&select("CAST(7 AS SMALLINT)"), &[EdmType::Boolean])
            .await
            .unwrap_err();
        assert!(matches!(error, StoreError::Corrupt(_)), "{error}");
        // What matches reads, every kind.
        let rows = store
            .fetch_values(
                &select(
                    "TRUE, CAST(2 AS SMALLINT), 3, CAST(4 AS BIGINT), CAST(5.5 AS DOUBLE PRECISION), \
                     'six', CAST(7 AS BIGINT), CAST(NULL AS TEXT)",
                ),
                &[
                    EdmType::Boolean,
                    EdmType::Int16,
                    EdmType::Int32,
                    EdmType::Int64,
                    EdmType::Double,
                    EdmType::String,
                    EdmType::DateTime,
                    EdmType::String,
                ],
            )
            .await
            .unwrap();
        assert_eq!(
            rows,
            [vec![
                Value::Boolean(true),
                Value::Int16(2),
                Value::Int32(3),
                Value::Int64(4),
                Value::Double(5.5),
                Value::String("six".into()),
                Value::DateTime(7),
                Value::Null,
            ]]
        );
    }
}
