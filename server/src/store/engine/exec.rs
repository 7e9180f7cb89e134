//! Running a sea-query statement on whichever backend a pool or transaction has.

use sea_query::{PostgresQueryBuilder, SqliteQueryBuilder};
use sea_query_binder::SqlxBinder;
use sqlx::postgres::PgRow;
use sqlx::sqlite::SqliteRow;
use sqlx::{FromRow, Postgres, Sqlite};

use crate::store::{Pool, Store, StoreError};

/// A row type that both backends can decode.
pub trait Record:
    for<'r> FromRow<'r, SqliteRow> + for<'r> FromRow<'r, PgRow> + Send + Unpin
{
}
impl<T> Record for T where
    T: for<'r> FromRow<'r, SqliteRow> + for<'r> FromRow<'r, PgRow> + Send + Unpin
{
}

/// A single value that both backends can decode (a count, an id).
pub trait Scalar:
    for<'r> sqlx::Decode<'r, Sqlite>
    + sqlx::Type<Sqlite>
    + for<'r> sqlx::Decode<'r, Postgres>
    + sqlx::Type<Postgres>
    + Send
    + Unpin
{
}
impl<T> Scalar for T where
    T: for<'r> sqlx::Decode<'r, Sqlite>
        + sqlx::Type<Sqlite>
        + for<'r> sqlx::Decode<'r, Postgres>
        + sqlx::Type<Postgres>
        + Send
        + Unpin
{
}

/// An open transaction on either backend.
pub enum Tx {
    /// With the process's SQLite write permit, held until the transaction ends.
    Sqlite(
        sqlx::Transaction<'static, Sqlite>,
        tokio::sync::OwnedSemaphorePermit,
    ),
    /// With one of the pool's writer permits, held until the transaction ends.
    Postgres(
        sqlx::Transaction<'static, Postgres>,
        tokio::sync::OwnedSemaphorePermit,
    ),
}

impl Tx {
    pub async fn commit(self) -> Result<(), StoreError> {
        match self {
            Tx::Sqlite(tx, _permit) => tx.commit().await?,
            Tx::Postgres(tx, _permit) => tx.commit().await?,
        }
        Ok(())
    }

    pub fn backend(&self) -> crate::store::Backend {
        match self {
            Tx::Sqlite(..) => crate::store::Backend::Sqlite,
            Tx::Postgres(..) => crate::store::Backend::Postgres,
        }
    }
}

/// Gives `Store` and `Tx` the same statement-running methods; `$sqlite` and
/// `$postgres` say how to reach each backend's executor from `self`.
macro_rules! statement_runner {
    ($target:ty, [$($receiver:tt)+], $self_:ident, $sqlite:pat => $sqlite_exec:expr, $postgres:pat => $postgres_exec:expr) => {
        impl $target {
            /// Runs an INSERT, UPDATE or DELETE; returns the number of rows touched.
            pub async fn execute($($receiver)+, statement: &impl SqlxBinder) -> Result<u64, StoreError> {
                Ok(match $self_.executor_parts() {
                    $sqlite => {
                        let (sql, values) = statement.build_sqlx(SqliteQueryBuilder);
                        sqlx::query_with(&sql, values).execute($sqlite_exec).await?.rows_affected()
                    }
                    $postgres => {
                        let (sql, values) = statement.build_sqlx(PostgresQueryBuilder);
                        sqlx::query_with(&sql, values).execute($postgres_exec).await?.rows_affected()
                    }
                })
            }

            pub async fn fetch_all<T: Record>($($receiver)+, statement: &impl SqlxBinder) -> Result<Vec<T>, StoreError> {
                Ok(match $self_.executor_parts() {
                    $sqlite => {
                        let (sql, values) = statement.build_sqlx(SqliteQueryBuilder);
                        sqlx::query_as_with::<_, T, _>(&sql, values).fetch_all($sqlite_exec).await?
                    }
                    $postgres => {
                        let (sql, values) = statement.build_sqlx(PostgresQueryBuilder);
                        sqlx::query_as_with::<_, T, _>(&sql, values).fetch_all($postgres_exec).await?
                    }
                })
            }

            pub async fn fetch_optional<T: Record>($($receiver)+, statement: &impl SqlxBinder) -> Result<Option<T>, StoreError> {
                Ok(match $self_.executor_parts() {
                    $sqlite => {
                        let (sql, values) = statement.build_sqlx(SqliteQueryBuilder);
                        sqlx::query_as_with::<_, T, _>(&sql, values).fetch_optional($sqlite_exec).await?
                    }
                    $postgres => {
                        let (sql, values) = statement.build_sqlx(PostgresQueryBuilder);
                        sqlx::query_as_with::<_, T, _>(&sql, values).fetch_optional($postgres_exec).await?
                    }
                })
            }

            /// The first column of the first row (`COUNT(*)`, `RETURNING id`).
            pub async fn fetch_scalar<T: Scalar>($($receiver)+, statement: &impl SqlxBinder) -> Result<T, StoreError> {
                Ok(match $self_.executor_parts() {
                    $sqlite => {
                        let (sql, values) = statement.build_sqlx(SqliteQueryBuilder);
                        sqlx::query_scalar_with::<_, T, _>(&sql, values).fetch_one($sqlite_exec).await?
                    }
                    $postgres => {
                        let (sql, values) = statement.build_sqlx(PostgresQueryBuilder);
                        sqlx::query_scalar_with::<_, T, _>(&sql, values).fetch_one($postgres_exec).await?
                    }
                })
            }
        }
    };
}

impl Store {
    /// The database's own plan for `statement`, one line per step: SQLite's
    /// `EXPLAIN QUERY PLAN` details, PostgreSQL's `EXPLAIN` text. For the plan tests
    /// and the benchmark, which check that each read is served by the index meant.
    pub async fn explain(&self, statement: &impl SqlxBinder) -> Result<Vec<String>, StoreError> {
        Ok(match self.executor_parts() {
            StoreParts::Sqlite(pool) => {
                let (sql, values) = statement.build_sqlx(SqliteQueryBuilder);
                let rows: Vec<(i64, i64, i64, String)> =
                    sqlx::query_as_with(&format!("EXPLAIN QUERY PLAN {sql}"), values)
                        .fetch_all(pool)
                        .await?;
                rows.into_iter().map(|(_, _, _, detail)| detail).collect()
            }
            StoreParts::Postgres(pool) => {
                let (sql, values) = statement.build_sqlx(PostgresQueryBuilder);
                sqlx::query_scalar_with(&format!("EXPLAIN {sql}"), values)
                    .fetch_all(pool)
                    .await?
            }
        })
    }

    fn executor_parts(&self) -> StoreParts<'_> {
        match &self.pool {
            Pool::Sqlite(pool, _) => StoreParts::Sqlite(pool),
            Pool::Postgres(pool, _) => StoreParts::Postgres(pool),
        }
    }
}

enum StoreParts<'a> {
    Sqlite(&'a sqlx::SqlitePool),
    Postgres(&'a sqlx::PgPool),
}

impl Tx {
    fn executor_parts(&mut self) -> TxParts<'_> {
        match self {
            Tx::Sqlite(tx, _) => TxParts::Sqlite(tx),
            Tx::Postgres(tx, _) => TxParts::Postgres(tx),
        }
    }
}

enum TxParts<'a> {
    Sqlite(&'a mut sqlx::SqliteConnection),
    Postgres(&'a mut sqlx::PgConnection),
}

statement_runner!(Store, [&self], self, StoreParts::Sqlite(pool) => pool, StoreParts::Postgres(pool) => pool);
statement_runner!(Tx, [&mut self], self, TxParts::Sqlite(conn) => conn, TxParts::Postgres(conn) => conn);

impl Tx {
    /// The PostgreSQL connection, for statements only it has (arrays, `UNNEST`);
    /// `None` on SQLite.
    pub(in crate::store) fn postgres(&mut self) -> Option<&mut sqlx::PgConnection> {
        match self.executor_parts() {
            TxParts::Postgres(conn) => Some(conn),
            TxParts::Sqlite(_) => None,
        }
    }

    /// Takes PostgreSQL's transaction-scoped advisory lock `key`, held until the
    /// transaction ends (SQLite's `BEGIN IMMEDIATE` already serialises writers).
    /// For work that must not run twice at once anywhere, such as content imports
    /// choosing new question IDs.
    pub(in crate::store) async fn advisory_lock(&mut self, key: i64) -> Result<(), StoreError> {
        if let TxParts::Postgres(conn) = self.executor_parts() {
            sqlx::query("SELECT pg_advisory_xact_lock($1)")
                .bind(key)
                .execute(conn)
                .await?;
        }
        Ok(())
    }
}
