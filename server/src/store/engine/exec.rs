//! Running a sea-query statement on whichever backend a store's read lane or a
//! transaction has.

use sea_query::{PostgresQueryBuilder, SqliteQueryBuilder};
use sea_query_binder::SqlxBinder;
use sqlx::postgres::PgRow;
use sqlx::sqlite::SqliteRow;
use sqlx::{FromRow, Postgres, Sqlite};

use super::read_lane::LaneConnection;
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
    /// With the store's SQLite write permit, held until the transaction ends.
    Sqlite(sqlx::Transaction<'static, Sqlite>, super::WritePermit),
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
/// `$postgres` bind `$conn`, the connection each backend's statements run on, from
/// what `self.connection()` gives.
macro_rules! statement_runner {
    ($target:ty, [$($receiver:tt)+], $self_:ident, $conn:ident, $sqlite:pat, $postgres:pat) => {
        impl $target {
            /// Runs an INSERT, UPDATE or DELETE; returns the number of rows touched.
            pub async fn execute($($receiver)+, statement: &impl SqlxBinder) -> Result<u64, StoreError> {
                Ok(match $self_.connection().await? {
                    $sqlite => {
                        let (sql, values) = statement.build_sqlx(SqliteQueryBuilder);
                        let ran = sqlx::query_with(&sql, values).execute(&mut *$conn).await;
                        $conn.settle(ran)?.rows_affected()
                    }
                    $postgres => {
                        let (sql, values) = statement.build_sqlx(PostgresQueryBuilder);
                        let ran = sqlx::query_with(&sql, values).execute(&mut *$conn).await;
                        $conn.settle(ran)?.rows_affected()
                    }
                })
            }

            pub async fn fetch_all<T: Record>($($receiver)+, statement: &impl SqlxBinder) -> Result<Vec<T>, StoreError> {
                match $self_.connection().await? {
                    $sqlite => {
                        let (sql, values) = statement.build_sqlx(SqliteQueryBuilder);
                        let ran = sqlx::query_as_with::<_, T, _>(&sql, values).fetch_all(&mut *$conn).await;
                        $conn.settle(ran)
                    }
                    $postgres => {
                        let (sql, values) = statement.build_sqlx(PostgresQueryBuilder);
                        let ran = sqlx::query_as_with::<_, T, _>(&sql, values).fetch_all(&mut *$conn).await;
                        $conn.settle(ran)
                    }
                }
            }

            pub async fn fetch_optional<T: Record>($($receiver)+, statement: &impl SqlxBinder) -> Result<Option<T>, StoreError> {
                match $self_.connection().await? {
                    $sqlite => {
                        let (sql, values) = statement.build_sqlx(SqliteQueryBuilder);
                        let ran = sqlx::query_as_with::<_, T, _>(&sql, values).fetch_optional(&mut *$conn).await;
                        $conn.settle(ran)
                    }
                    $postgres => {
                        let (sql, values) = statement.build_sqlx(PostgresQueryBuilder);
                        let ran = sqlx::query_as_with::<_, T, _>(&sql, values).fetch_optional(&mut *$conn).await;
                        $conn.settle(ran)
                    }
                }
            }

            /// The first column of the first row (`COUNT(*)`, `RETURNING id`).
            pub async fn fetch_scalar<T: Scalar>($($receiver)+, statement: &impl SqlxBinder) -> Result<T, StoreError> {
                match $self_.connection().await? {
                    $sqlite => {
                        let (sql, values) = statement.build_sqlx(SqliteQueryBuilder);
                        let ran = sqlx::query_scalar_with::<_, T, _>(&sql, values).fetch_one(&mut *$conn).await;
                        $conn.settle(ran)
                    }
                    $postgres => {
                        let (sql, values) = statement.build_sqlx(PostgresQueryBuilder);
                        let ran = sqlx::query_scalar_with::<_, T, _>(&sql, values).fetch_one(&mut *$conn).await;
                        $conn.settle(ran)
                    }
                }
            }
        }
    };
}

impl Store {
    /// The database's own plan for `statement`, one line per step: SQLite's
    /// `EXPLAIN QUERY PLAN` details, PostgreSQL's `EXPLAIN` text. For the plan tests
    /// and the benchmark, which check that each read is served by the index meant.
    pub async fn explain(&self, statement: &impl SqlxBinder) -> Result<Vec<String>, StoreError> {
        match self.connection().await? {
            StoreParts::Sqlite(mut conn) => {
                let (sql, values) = statement.build_sqlx(SqliteQueryBuilder);
                let ran: Result<Vec<(i64, i64, i64, String)>, _> =
                    sqlx::query_as_with(&format!("EXPLAIN QUERY PLAN {sql}"), values)
                        .fetch_all(&mut *conn)
                        .await;
                let rows = conn.settle(ran)?;
                Ok(rows.into_iter().map(|(_, _, _, detail)| detail).collect())
            }
            StoreParts::Postgres(mut conn) => {
                let (sql, values) = statement.build_sqlx(PostgresQueryBuilder);
                let ran = sqlx::query_scalar_with(&format!("EXPLAIN {sql}"), values)
                    .fetch_all(&mut *conn)
                    .await;
                conn.settle(ran)
            }
        }
    }

    /// A connection of the read lane, for a statement outside a transaction.
    pub(in crate::store) async fn connection(&self) -> Result<StoreParts, StoreError> {
        Ok(match &self.pool {
            Pool::Sqlite(_, _, reads) => StoreParts::Sqlite(reads.take().await?),
            Pool::Postgres(_, _, reads) => StoreParts::Postgres(reads.take().await?),
        })
    }
}

pub(in crate::store) enum StoreParts {
    Sqlite(LaneConnection<sqlx::SqliteConnection>),
    Postgres(LaneConnection<sqlx::PgConnection>),
}

impl Tx {
    async fn connection(&mut self) -> Result<TxParts<'_>, StoreError> {
        Ok(self.executor_parts())
    }

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

/// What a statement gave, as the store's error. A read lane's connection that
/// the database went away from is dropped (engine/read_lane.rs); a transaction's
/// goes back to sqlx's pool, which checks it.
pub(in crate::store) trait Settle {
    fn settle<T>(self, outcome: Result<T, sqlx::Error>) -> Result<T, StoreError>;
}

impl<C: sqlx::Connection> Settle for LaneConnection<C> {
    fn settle<T>(self, outcome: Result<T, sqlx::Error>) -> Result<T, StoreError> {
        LaneConnection::settle(self, outcome)
    }
}

impl<C> Settle for &mut C {
    fn settle<T>(self, outcome: Result<T, sqlx::Error>) -> Result<T, StoreError> {
        Ok(outcome?)
    }
}

statement_runner!(
    Store,
    [&self],
    self,
    conn,
    StoreParts::Sqlite(mut conn),
    StoreParts::Postgres(mut conn)
);
statement_runner!(
    Tx,
    [&mut self],
    self,
    conn,
    TxParts::Sqlite(conn),
    TxParts::Postgres(conn)
);

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
