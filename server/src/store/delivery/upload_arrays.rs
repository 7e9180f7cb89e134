//! The statements of an upload group on PostgreSQL whose text would otherwise
//! differ with the group's size (an OR per attempt, a CASE per attempt, a VALUES
//! row per file): as arrays through `UNNEST`, one text each, so that a connection
//! prepares it once however uploads group (docs/benchmarks.md, "Answer uploads
//! on PostgreSQL"). Each argument is one column, a value per upload.

use sqlx::PgConnection;

use crate::store::StoreError;

/// `(area, attempt, result)` of the attempts with `ids`, locked for update in ID
/// order (so that two writers never wait for each other). IDs are unique across
/// areas: the caller matches each row's area with its upload's. `id = ANY` is read
/// through the primary key whatever the planner knows of the table (a semi-join
/// with `UNNEST` was planned as a scan of a table whose rows were just written).
pub(super) async fn lock_attempts(
    conn: &mut PgConnection,
    ids: &[i32],
) -> Result<Vec<(i32, i32, Option<i32>)>, StoreError> {
    Ok(sqlx::query_as(
        "SELECT customer_id, id, result_id FROM attempts WHERE id = ANY($1) ORDER BY id FOR UPDATE",
    )
    .bind(ids)
    .fetch_all(conn)
    .await?)
}

/// Sets the attempts' ResultIDs and modification times.
pub(super) async fn claim_attempts(
    conn: &mut PgConnection,
    areas: &[i32],
    ids: &[i32],
    result_ids: &[i32],
    at: &[i64],
) -> Result<(), StoreError> {
    sqlx::query(
        "UPDATE attempts SET result_id = u.result_id, last_modified_at = u.at \
         FROM UNNEST($1::int4[], $2::int4[], $3::int4[], $4::int8[]) AS u(area, id, result_id, at) \
         WHERE attempts.customer_id = u.area AND attempts.id = u.id",
    )
    .bind(areas)
    .bind(ids)
    .bind(result_ids)
    .bind(at)
    .execute(conn)
    .await?;
    Ok(())
}

/// Stores upload files as they came.
pub(super) async fn insert_files(
    conn: &mut PgConnection,
    attempt_ids: &[i32],
    areas: &[i32],
    content_types: &[&str],
    at: &[i64],
    contents: &[&[u8]],
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO answer_uploads (attempt_id, customer_id, content_type, uploaded_at, content) \
         SELECT * FROM UNNEST($1::int4[], $2::int4[], $3::text[], $4::int8[], $5::bytea[])",
    )
    .bind(attempt_ids)
    .bind(areas)
    .bind(content_types)
    .bind(at)
    .bind(contents)
    .execute(conn)
    .await?;
    Ok(())
}
