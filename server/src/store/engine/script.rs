//! A transaction sent to the database as one script: each statement rendered with
//! its values written in (sea-query escapes them), the whole run in one round trip
//! (`sqlx::raw_sql`), between BEGIN and COMMIT. For work done many thousand times
//! over, a statement at a time: a purge's dozen statements for each result cost a
//! dozen round trips, and on SQLite each is a wake-up of the connection's thread
//! (docs/purges.md, "Speed").

use sea_query::{PostgresQueryBuilder, QueryStatementWriter, SqliteQueryBuilder};
use sqlx::Executor;

use crate::store::{Backend, Pool, Store, StoreError};

pub(in crate::store) struct Script {
    backend: Backend,
    statements: Vec<String>,
}

impl Script {
    pub fn new(backend: Backend) -> Self {
        Self {
            backend,
            statements: Vec::new(),
        }
    }

    pub fn push(&mut self, statement: &impl QueryStatementWriter) {
        self.statements.push(match self.backend {
            Backend::Sqlite => statement.to_string(SqliteQueryBuilder),
            Backend::Postgres => statement.to_string(PostgresQueryBuilder),
        });
    }

    fn text(&self, begin: &str) -> String {
        format!("{begin};\n{};\nCOMMIT;", self.statements.join(";\n"))
    }
}

impl Store {
    /// Runs `script` as one transaction, under the same write permit as
    /// [`Store::begin`]. A failing statement rolls the whole script back.
    pub(in crate::store) async fn run_script(&self, script: &Script) -> Result<(), StoreError> {
        match &self.pool {
            Pool::Sqlite(pool, writes, _) => {
                let _permit = writes.permit().await;
                run_on(pool, &script.text("BEGIN IMMEDIATE")).await
            }
            Pool::Postgres(pool, writers, _) => {
                let _permit = writers.acquire().await.expect("never closed");
                run_on(pool, &script.text("BEGIN")).await
            }
        }
    }
}

/// Runs a script's `text` on one connection of `pool`. A failure rolls it back;
/// a connection that cannot even roll back is closed, never returned to the pool
/// inside a transaction.
async fn run_on<DB>(pool: &sqlx::Pool<DB>, text: &str) -> Result<(), StoreError>
where
    DB: sqlx::Database,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
{
    let mut connection = pool.acquire().await?;
    let ran = (&mut *connection).execute(sqlx::raw_sql(text)).await;
    if let Err(error) = ran {
        if (&mut *connection)
            .execute(sqlx::raw_sql("ROLLBACK"))
            .await
            .is_err()
        {
            connection.close_on_drop();
        }
        return Err(error.into());
    }
    Ok(())
}
