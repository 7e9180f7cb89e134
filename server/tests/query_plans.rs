//! The query plans of the declared feeds: the SQL the store plans for the scoring
//! queue and for answers in result order, checked on its text (the benchmark checks
//! the same plans with SQLite's EXPLAIN on a million rows).

// A test binary: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used)]

use scoredesk_server::feeds::catalogue::by_name;
use scoredesk_server::feeds::content::ANSWERS;
use scoredesk_server::feeds::scoring::SCORING_TASKS;
use scoredesk_server::odata::filter::parse;
use scoredesk_server::odata::model::EntitySet;
use scoredesk_server::odata::orderby;
use scoredesk_server::odata::typed::Paths;
use scoredesk_server::store::read::{sqlite_sql, RowsQuery, Scope};

fn sql(set: &'static EntitySet, filter: &str, order: &str, nulls_smallest: bool) -> String {
    let paths = Paths::new(set, by_name);
    let filter = paths.condition(&parse(filter).unwrap()).unwrap();
    let order = paths.order(&orderby::parse(order).unwrap()).unwrap();
    let scope = Scope::all(set);
    let read = RowsQuery::first_page(&scope, Some(&filter), &order, 51, by_name);
    sqlite_sql(&read, nulls_smallest)
}

#[test]
fn the_queue_orders_tasks_by_the_copied_finish_time_without_a_join() {
    for nulls_smallest in [true, false] {
        let sql = sql(
            &SCORING_TASKS,
            "Status eq 0 and Group/Name eq 'G'",
            "Result/WhenFinished desc",
            nulls_smallest,
        );
        assert!(
            sql.contains(r#"FROM "scoring_tasks" AS "t""#) && !sql.contains("results"),
            "{sql}"
        );
        assert!(
            sql.contains(r#"ORDER BY "t"."result_finished_at" DESC, "t"."result_id" DESC, "t"."question_id" DESC"#),
            "{sql}"
        );
    }
}

#[test]
fn on_sqlite_answers_ordered_by_result_time_walk_results_first_with_a_fixed_join_order() {
    let sql = sql(&ANSWERS, "ResultID ge 0", "Result/WhenFinished desc", true);
    assert!(
        sql.contains(r#"FROM "results" AS "n_Result" CROSS JOIN "answers" AS "t""#),
        "{sql}"
    );
    assert!(
        sql.contains(r#"ORDER BY "n_Result"."when_finished" DESC, "n_Result"."id" DESC"#),
        "{sql}"
    );
}

#[test]
fn elsewhere_the_base_table_leads_and_the_planner_chooses() {
    let sql = sql(&ANSWERS, "ResultID ge 0", "Result/WhenFinished desc", false);
    assert!(
        sql.contains(r#"FROM "answers" AS "t""#) && !sql.contains("CROSS JOIN"),
        "{sql}"
    );
}
