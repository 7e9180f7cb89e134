//! The bare handler: axum + sqlx, the best single SQL statement per query, rows to
//! JSON, no protocol layer and no authentication. What the OData layer is measured against.

use std::path::Path;

use axum::extract::{Query, State};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{Map, Value};
use sqlx::sqlite::{SqlitePool, SqliteRow};
use sqlx::{Column, Row, TypeInfo, ValueRef};

const RESULT_COLUMNS: &str = "r.id, r.assessment_id, r.participant_name, r.group_name, r.test_center_name, r.participant_details, \
    r.status, r.max_score, r.total_score, r.score_band_title, r.percentage_score, r.when_finished, r.when_started, r.extra_time, \
    r.special1, r.special2, r.special3, r.special4, r.special5, r.special6, r.special7, r.special8, r.special9, r.special10, \
    r.still_going, r.time_taken, r.schedule_name, r.first_name, r.last_name, r.language, r.attempt_id, r.external_result_id, \
    r.external_result_info";

#[derive(Clone)]
struct Bare {
    pool: SqlitePool,
    customer: i32,
}

async fn pool(database: &Path) -> anyhow::Result<SqlitePool> {
    Ok(SqlitePool::connect(&format!("sqlite:{}", database.display())).await?)
}

/// The area that `seed --scale` made (the newest one named "Scale ...").
pub async fn scale_customer(database: &Path) -> anyhow::Result<i32> {
    let pool = pool(database).await?;
    Ok(
        sqlx::query_scalar("SELECT MAX(id) FROM customers WHERE name LIKE 'Scale %'")
            .fetch_one(&pool)
            .await?,
    )
}

/// The ID of the result that ends the first `rows` results in ID order.
pub async fn last_id_before(database: &Path, customer: i32, rows: i64) -> anyhow::Result<i64> {
    let pool = pool(database).await?;
    Ok(sqlx::query_scalar(
        "SELECT id FROM results WHERE customer_id = ? ORDER BY id LIMIT 1 OFFSET ?",
    )
    .bind(customer)
    .bind(rows - 1)
    .fetch_one(&pool)
    .await?)
}

/// The query plans of the bare statements, as the bundled SQLite chooses them.
pub async fn explain(database: &Path, customer: i32) -> anyhow::Result<String> {
    let pool = pool(database).await?;
    let mut text = String::new();
    for (name, sql) in [("Q1", q1_sql()), ("results page", results_sql())] {
        let rows = sqlx::query(&format!("EXPLAIN QUERY PLAN {sql}"))
            .bind(customer)
            .bind(customer)
            .fetch_all(&pool)
            .await?;
        text.push_str(&format!("{name}:\n"));
        for row in rows {
            text.push_str(&format!("  {}\n", row.get::<String, _>(3)));
        }
    }
    Ok(text)
}

fn q1_sql() -> String {
    format!(
        "SELECT t.question_id AS task_question_id, t.result_id AS task_result_id, t.status AS task_status, {RESULT_COLUMNS} \
         FROM scoring_tasks t JOIN results r ON r.id = t.result_id \
         WHERE r.customer_id = ? AND t.customer_id = ? AND t.status = 0 \
         ORDER BY t.result_finished_at DESC, t.result_id DESC, t.question_id DESC LIMIT 50"
    )
}

fn results_sql() -> String {
    format!("SELECT {RESULT_COLUMNS} FROM results r WHERE r.customer_id = ? AND r.id > ? ORDER BY r.id LIMIT 100")
}

pub async fn serve(database: &Path, customer: i32) -> anyhow::Result<String> {
    let state = Bare {
        pool: pool(database).await?,
        customer,
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

fn row_json(row: &SqliteRow) -> Map<String, Value> {
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

async fn q1(State(bare): State<Bare>) -> Json<Value> {
    let rows = sqlx::query(&q1_sql())
        .bind(bare.customer)
        .bind(bare.customer)
        .fetch_all(&bare.pool)
        .await
        .expect("q1");
    Json(Value::Array(
        rows.iter()
            .map(|row| Value::Object(row_json(row)))
            .collect(),
    ))
}

async fn q2(State(bare): State<Bare>) -> String {
    let count: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM scoring_tasks t JOIN groups g ON g.id = t.group_id \
         WHERE t.customer_id = ? AND g.customer_id = ? AND g.name = 'Group-042' AND t.status = 0",
    )
    .bind(bare.customer)
    .bind(bare.customer)
    .fetch_one(&bare.pool)
    .await
    .expect("q2");
    count.to_string()
}

#[derive(serde::Deserialize)]
struct After {
    after: i64,
}

async fn results(State(bare): State<Bare>, Query(after): Query<After>) -> Json<Value> {
    let rows = sqlx::query(&results_sql())
        .bind(bare.customer)
        .bind(after.after)
        .fetch_all(&bare.pool)
        .await
        .expect("results");
    Json(Value::Array(
        rows.iter()
            .map(|row| Value::Object(row_json(row)))
            .collect(),
    ))
}
