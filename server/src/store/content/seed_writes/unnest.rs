//! The rows of results, answers, scoring tasks and topic scores written on
//! PostgreSQL as one `INSERT … SELECT FROM UNNEST` of a column array each: one
//! statement text per table whatever the number of rows, so that a connection
//! prepares it once (a multi-row `VALUES` differs with each group's size and was
//! parsed and planned again each time), and no statement of thousands of bound
//! values to build (docs/benchmarks.md, "Answer uploads on PostgreSQL").

use sqlx::PgConnection;

use super::{NewAnswer, NewResult, NewTopicScore};
use crate::model::finalise::NewScoringTask;
use crate::store::StoreError;

/// Inserts `results`; their generated IDs in input order.
pub(super) async fn results(
    conn: &mut PgConnection,
    results: &[NewResult],
) -> Result<Vec<i32>, StoreError> {
    let areas: Vec<i32> = column(results, |r| r.area.id());
    let mut ids: Vec<i32> = sqlx::query_scalar(
        "INSERT INTO results (customer_id, assessment_id, participant_id, participant_name, \
         first_name, last_name, group_id, group_name, status, max_score, total_score, \
         percentage_score, score_band_title, when_started, when_finished, time_taken, \
         still_going, language, schedule_name, test_center_name, attempt_id) \
         SELECT a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, FALSE, q, r, s, t \
         FROM UNNEST($1::int4[], $2::int8[], $3::int4[], $4::text[], $5::text[], $6::text[], \
         $7::int4[], $8::text[], $9::int2[], $10::int4[], $11::int4[], $12::int2[], $13::text[], \
         $14::int8[], $15::int8[], $16::int4[], $17::text[], $18::text[], $19::text[], $20::int4[]) \
         AS u(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r, s, t) \
         RETURNING id",
    )
    .bind(areas)
    .bind(column(results, |r| r.assessment_id))
    .bind(column(results, |r| r.participant_id))
    .bind(column(results, |r| r.participant_name.clone()))
    .bind(column(results, |r| r.first_name.clone()))
    .bind(column(results, |r| r.last_name.clone()))
    .bind(column(results, |r| r.group_id))
    .bind(column(results, |r| r.group_name.clone()))
    .bind(column(results, |r| r.status))
    .bind(column(results, |r| r.max_score))
    .bind(column(results, |r| r.total_score))
    .bind(column(results, |r| r.percentage_score))
    .bind(column(results, |r| r.score_band_title.clone()))
    .bind(column(results, |r| r.when_started))
    .bind(column(results, |r| r.when_finished))
    .bind(column(results, |r| r.time_taken))
    .bind(column(results, |r| r.language.clone()))
    .bind(column(results, |r| r.schedule_name.clone()))
    .bind(column(results, |r| r.test_center_name.clone()))
    .bind(column(results, |r| r.attempt_id))
    .fetch_all(conn)
    .await?;
    // The IDs come from one sequence in the order the rows are inserted, which is
    // the arrays' order; sorted, they are in input order whatever RETURNING's.
    ids.sort_unstable();
    Ok(ids)
}

pub(super) async fn answers(
    conn: &mut PgConnection,
    answers: &[NewAnswer],
) -> Result<(), StoreError> {
    let areas: Vec<i32> = column(answers, |a| a.area.id());
    sqlx::query(
        "INSERT INTO answers (customer_id, question_id, result_id, occurrence, block_number, \
         question_number, max_score, actual_score, revision, media_type, content, answer_key) \
         SELECT a, b, c, d, e, f, g, h, 1, i, j, k \
         FROM UNNEST($1::int4[], $2::int8[], $3::int4[], $4::int2[], $5::int2[], $6::int4[], \
         $7::int4[], $8::int4[], $9::text[], $10::bytea[], $11::text[]) \
         AS u(a, b, c, d, e, f, g, h, i, j, k)",
    )
    .bind(areas)
    .bind(column(answers, |a| a.question_id))
    .bind(column(answers, |a| a.result_id))
    .bind(column(answers, |a| a.occurrence))
    .bind(column(answers, |a| a.block_number))
    .bind(column(answers, |a| a.question_number))
    .bind(column(answers, |a| a.max_score))
    .bind(column(answers, |a| a.actual_score))
    .bind(column(answers, |a| a.media_type.clone()))
    .bind(column(answers, |a| a.content.clone()))
    .bind(column(answers, NewAnswer::group_key))
    .execute(conn)
    .await?;
    Ok(())
}

pub(super) async fn scoring_tasks(
    conn: &mut PgConnection,
    tasks: &[NewScoringTask],
) -> Result<(), StoreError> {
    let areas: Vec<i32> = column(tasks, |t| t.area.id());
    sqlx::query(
        "INSERT INTO scoring_tasks (customer_id, question_id, result_id, group_id, \
         assessment_id, status, created_at, modified_at, result_finished_at, answer_key) \
         SELECT a, b, c, d, e, f, g, g, h, i \
         FROM UNNEST($1::int4[], $2::int8[], $3::int4[], $4::int4[], $5::int8[], $6::int4[], \
         $7::int8[], $8::int8[], $9::text[]) AS u(a, b, c, d, e, f, g, h, i)",
    )
    .bind(areas)
    .bind(column(tasks, |t| t.key.question_id))
    .bind(column(tasks, |t| t.key.result_id))
    .bind(column(tasks, |t| t.group_id))
    .bind(column(tasks, |t| t.assessment_id))
    .bind(column(tasks, |t| t.status.code()))
    .bind(column(tasks, |t| t.at))
    .bind(column(tasks, |t| t.result_finished_at))
    .bind(column(tasks, |t| t.answer_key.clone()))
    .execute(conn)
    .await?;
    Ok(())
}

pub(super) async fn topic_scores(
    conn: &mut PgConnection,
    scores: &[NewTopicScore],
) -> Result<(), StoreError> {
    let areas: Vec<i32> = column(scores, |s| s.area.id());
    sqlx::query(
        "INSERT INTO topic_scores (customer_id, result_id, topic_id, percentage_score, \
         total_score, max_score, score_band_title, num_questions, topic_path) \
         SELECT * FROM UNNEST($1::int4[], $2::int4[], $3::int4[], $4::float8[], $5::int4[], \
         $6::int4[], $7::text[], $8::int4[], $9::text[])",
    )
    .bind(areas)
    .bind(column(scores, |s| s.result_id))
    .bind(column(scores, |s| s.topic_id))
    .bind(column(scores, |s| s.percentage_score))
    .bind(column(scores, |s| s.total_score))
    .bind(column(scores, |s| s.max_score))
    .bind(column(scores, |s| s.score_band_title.clone()))
    .bind(column(scores, |s| s.num_questions))
    .bind(column(scores, |s| s.topic_path.clone()))
    .execute(conn)
    .await?;
    Ok(())
}

/// One column of `rows`, as the array bound for it.
fn column<R, T>(rows: &[R], value: impl Fn(&R) -> T) -> Vec<T> {
    rows.iter().map(value).collect()
}
