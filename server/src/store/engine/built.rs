//! A statement rendered once in the store's dialect, to be run again as it is
//! (the read statements kept in `read/memo.rs`).

use sea_query::{PostgresQueryBuilder, SqliteQueryBuilder};
use sea_query_binder::{SqlxBinder, SqlxValues};

use super::exec::{Scalar, StoreParts};
use crate::store::{Pool, Store, StoreError};

/// A statement's text and values, in the dialect of the store that built it.
pub struct Built {
    pub sql: String,
    pub values: SqlxValues,
}

impl Store {
    /// `statement` rendered in this store's dialect.
    pub(in crate::store) fn build(&self, statement: &impl SqlxBinder) -> Built {
        let (sql, values) = match &self.pool {
            Pool::Sqlite(..) => statement.build_sqlx(SqliteQueryBuilder),
            Pool::Postgres(..) => statement.build_sqlx(PostgresQueryBuilder),
        };
        Built { sql, values }
    }

    /// The first column of the first row of a statement this store built.
    pub(in crate::store) async fn fetch_scalar_built<T: Scalar>(
        &self,
        built: &Built,
    ) -> Result<T, StoreError> {
        let values = built.values.clone();
        match self.connection().await? {
            StoreParts::Sqlite(mut conn) => {
                let ran = sqlx::query_scalar_with::<_, T, _>(&built.sql, values)
                    .fetch_one(&mut *conn)
                    .await;
                conn.settle(ran)
            }
            StoreParts::Postgres(mut conn) => {
                let ran = sqlx::query_scalar_with::<_, T, _>(&built.sql, values)
                    .fetch_one(&mut *conn)
                    .await;
                conn.settle(ran)
            }
        }
    }
}
