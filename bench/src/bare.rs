//! The bare handler: axum + sqlx, the best single SQL statement per query, rows to
//! JSON, no protocol layer and no authentication. What the OData layer is measured
//! against, on the same database, SQLite or PostgreSQL.

use axum::extract::{Query, State};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{Map, Value};
use sqlx::postgres::{PgPool, PgPoolOptions, PgRow};
use sqlx::sqlite::{SqlitePool, SqlitePoolOptions, SqliteRow};
use sqlx::{Column, Row, TypeInfo, ValueRef};

const RESULT_COLUMNS: &str = "r.id, r.assessment_id, r.participant_name, r.group_name, r.test_center_name, r.participant_details, \
    r.status, r.max_score, r.total_score, r.score_band_title, r.percentage_score, r.when_finished, r.when_started, r.extra_time, \
    r.special1, r.special2, r.special3, r.special4, r.special5, r.special6, r.special7, r.special8, r.special9, r.special10, \
    r.still_going, r.time_taken, r.schedule_name, r.first_name, r.last_name, r.language, r.attempt_id, r.external_result_id, \
    r.external_result_info";

/// A pool on the benchmark's database. Statements are written with `$1`, `$2`, ...,
/// which both backends take (each parameter used once, in order).
#[derive(Clone)]
pub enum Database {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

impl Database {
    pub async fn connect(url: &str) -> anyhow::Result<Self> {
        // No ping before each use, as ScoreDesk's pools (store/mod.rs): sqlx's
        // default would give the bare handler a round trip per request that ours
        // does not make, and flatter the ratio.
        Ok(if url.starts_with("postgres") {
            Self::Postgres(
                PgPoolOptions::new()
                    .test_before_acquire(false)
                    .connect(url)
                    .await?,
            )
        } else {
            Self::Sqlite(
                SqlitePoolOptions::new()
                    .test_before_acquire(false)
                    .connect(url)
                    .await?,
            )
        })
    }

    async fn scalar(&self, sql: &str, binds: &[i64]) -> anyhow::Result<i64> {
        Ok(match self {
            Self::Sqlite(pool) => {
                let mut query = sqlx::query_scalar(sql);
                for value in binds {
                    query = query.bind(value);
                }
                query.fetch_one(pool).await?
            }
            Self::Postgres(pool) => {
                let mut query = sqlx::query_scalar(sql);
                for value in binds {
                    query = query.bind(value);
                }
                query.fetch_one(pool).await?
            }
        })
    }

    async fn rows(&self, sql: &str, binds: &[i64]) -> anyhow::Result<Vec<Value>> {
        Ok(match self {
            Self::Sqlite(pool) => {
                let mut query = sqlx::query(sql);
                for value in binds {
                    query = query.bind(value);
                }
                let rows = query.fetch_all(pool).await?;
                rows.iter()
                    .map(|row| Value::Object(sqlite_json(row)))
                    .collect()
            }
            Self::Postgres(pool) => {
                let mut query = sqlx::query(sql);
                for value in binds {
                    query = query.bind(value);
                }
                let rows = query.fetch_all(pool).await?;
                rows.iter()
                    .map(|row| Value::Object(postgres_json(row)))
                    .collect()
            }
        })
    }

    /// The database's plan of `sql`, one line per step.
    async fn explain(&self, sql: &str, binds: &[i64]) -> anyhow::Result<Vec<String>> {
        Ok(match self {
            Self::Sqlite(pool) => {
                let explained = format!("EXPLAIN QUERY PLAN {sql}");
                let mut query = sqlx::query(&explained);
                for value in binds {
                    query = query.bind(value);
                }
                let rows = query.fetch_all(pool).await?;
                rows.iter().map(|row| row.get::<String, _>(3)).collect()
            }
            Self::Postgres(pool) => {
                let explained = format!("EXPLAIN {sql}");
                let mut query = sqlx::query_scalar(&explained);
                for value in binds {
                    query = query.bind(value);
                }
                query.fetch_all(pool).await?
            }
        })
    }
}

#[derive(Clone)]
struct Bare {
    database: Database,
    customer: i64,
}

/// The area that `seed --scale` made (the newest one named "Scale ...").
pub async fn scale_customer(database: &Database) -> anyhow::Result<i32> {
    let id = database
        .scalar(
            "SELECT CAST(MAX(id) AS BIGINT) FROM customers WHERE name LIKE 'Scale %'",
            &[],
        )
        .await?;
    Ok(i32::try_from(id)?)
}

/// The ID of the result that ends the first `rows` results in ID order.
pub async fn last_id_before(database: &Database, customer: i32, rows: i64) -> anyhow::Result<i64> {
    database
        .scalar(
            "SELECT CAST(id AS BIGINT) FROM results WHERE customer_id = $1 ORDER BY id LIMIT 1 OFFSET $2",
            &[i64::from(customer), rows - 1],
        )
        .await
}

/// The query plans of the bare statements, as the database chooses them.
pub async fn explain(database: &Database, customer: i32) -> anyhow::Result<String> {
    let customer = i64::from(customer);
    let mut text = String::new();
    for (name, sql, binds) in [
        ("Q1", Q1, vec![customer, customer]),
        ("Q2", Q2, vec![customer, customer]),
        ("results page", RESULTS, vec![customer, 0]),
    ] {
        text.push_str(&format!("{name}:\n"));
        for line in database.explain(&sql_of(sql), &binds).await? {
            text.push_str(&format!("  {line}\n"));
        }
    }
    Ok(text)
}

const Q1: &str = "SELECT t.question_id AS task_question_id, t.result_id AS task_result_id, t.status AS task_status, {RESULT_COLUMNS} \
     FROM scoring_tasks t JOIN results r ON r.id = t.result_id \
     WHERE r.customer_id = $1 AND t.customer_id = $2 AND t.status = 0 \
     ORDER BY t.result_finished_at DESC, t.result_id DESC, t.question_id DESC LIMIT 50";

/// The counts the database keeps, summed for the group resolved first, as ScoreDesk
/// does (store/read/counted.rs).
const Q2: &str = "SELECT CAST(COALESCE(SUM(c.tasks), 0) AS BIGINT) FROM scoring_task_counts c \
     WHERE c.customer_id = $1 AND c.status = 0 \
     AND c.group_id = (SELECT g.id FROM groups g WHERE g.customer_id = $2 AND g.name = 'Group-042')";

const RESULTS: &str =
    "SELECT {RESULT_COLUMNS} FROM results r WHERE r.customer_id = $1 AND r.id > $2 ORDER BY r.id LIMIT 100";

fn sql_of(template: &str) -> String {
    template.replace("{RESULT_COLUMNS}", RESULT_COLUMNS)
}

pub async fn serve(database: Database, customer: i32) -> anyhow::Result<String> {
    let state = Bare {
        database,
        customer: i64::from(customer),
    };
    let router = Router::new()
        .route("/q1", get(q1))
        .route("/q2", get(q2))
        .route("/results", get(results))
        .with_state(state);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let address = format!("http://{}", listener.local_addr()?);
    tokio::spawn(async move { axum::serve(listener, router).await });
    Ok(address)
}

fn sqlite_json(row: &SqliteRow) -> Map<String, Value> {
    let mut object = Map::new();
    for (index, column) in row.columns().iter().enumerate() {
        let raw = row.try_get_raw(index).expect("column exists");
        let value = if raw.is_null() {
            Value::Null
        } else {
            match raw.type_info().name() {
                "INTEGER" => Value::from(row.get::<i64, _>(index)),
                "REAL" => Value::from(row.get::<f64, _>(index)),
                _ => Value::from(row.get::<String, _>(index)),
            }
        };
        object.insert(column.name().to_owned(), value);
    }
    object
}

fn postgres_json(row: &PgRow) -> Map<String, Value> {
    let mut object = Map::new();
    for (index, column) in row.columns().iter().enumerate() {
        let raw = row.try_get_raw(index).expect("column exists");
        let value = if raw.is_null() {
            Value::Null
        } else {
            match raw.type_info().name() {
                "INT2" => Value::from(row.get::<i16, _>(index)),
                "INT4" => Value::from(row.get::<i32, _>(index)),
                "INT8" => Value::from(row.get::<i64, _>(index)),
                "FLOAT8" => Value::from(row.get::<f64, _>(index)),
                "BOOL" => Value::from(row.get::<bool, _>(index)),
                _ => Value::from(row.get::<String, _>(index)),
            }
        };
        object.insert(column.name().to_owned(), value);
    }
    object
}

async fn q1(State(bare): State<Bare>) -> Json<Value> {
    let rows = bare
        .database
        .rows(&sql_of(Q1), &[bare.customer, bare.customer])
        .await
        .expect("q1");
    Json(Value::Array(rows))
}

async fn q2(State(bare): State<Bare>) -> String {
    let count = bare
        .database
        .scalar(Q2, &[bare.customer, bare.customer])
        .await
        .expect("q2");
    count.to_string()
}

#[derive(serde::Deserialize)]
struct After {
    after: i64,
}

async fn results(State(bare): State<Bare>, Query(after): Query<After>) -> Json<Value> {
    let rows = bare
        .database
        .rows(&sql_of(RESULTS), &[bare.customer, after.after])
        .await
        .expect("results");
    Json(Value::Array(rows))
}
