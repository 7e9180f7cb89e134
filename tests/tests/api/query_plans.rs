//! The database's own plans for the scoring feeds' read forms, on both backends, at a
//! realistic size with statistics: 100,000 tasks over 100 groups, nine in ten of them
//! scored, `ANALYZE` run. Each form a scoring tool sends (spec, Endpoints / Scoring)
//! must be read through the index meant for it, and an ordered queue must come out
//! of that index in order, never sorted, so that a poll reads a page whatever the
//! table's size and however many tasks have been scored; a count by status and
//! group sums the counts the database keeps (docs/benchmarks.md).

use scoredesk_e2e::{on_both_backends, Backend, TestApp};
use scoredesk_server::feeds::catalogue::by_name;
use scoredesk_server::feeds::scoring::SCORING_TASKS;
use scoredesk_server::model::area::CustomerArea;
use scoredesk_server::model::scoring::TaskKey;
use scoredesk_server::odata::filter::parse;
use scoredesk_server::odata::model::Navigation;
use scoredesk_server::odata::orderby;
use scoredesk_server::odata::typed::{Condition, OrderTerm, Paths};
use scoredesk_server::seed::scale::seed_scale;
use scoredesk_server::store::read::{RowsQuery, Scope};
use scoredesk_server::store::AlikeTo;

on_both_backends! {
    the_scoring_feeds_read_forms_use_their_indexes_and_queues_come_out_in_order_planned_once => read_forms;
    a_key_lookup_on_a_table_still_empty_after_analyze_is_kept_as_an_index_scan => empty_table_lookup;
    an_answer_groups_open_tasks_are_one_range_of_their_index_however_far_the_marking_has_got => answer_groups;
    every_statement_of_a_purge_group_finds_its_rows_through_an_index => purge_groups;
}

const TASKS: usize = 100_000;

/// A read form: its `$filter`, the index its ordered page must come from, whether
/// that page may be sorted, and the index its `$count` must use (`COUNTS`: the sum
/// of the counts the database keeps, migration 10).
struct Form {
    filter: &'static str,
    rows_index: &'static str,
    sorted: bool,
    count_indexes: &'static [&'static str],
}

const COUNTS: &[&str] = &["scoring_task_counts"];

const FORMS: &[Form] = &[
    Form {
        filter: "Status eq 0",
        rows_index: "scoring_tasks_by_status",
        sorted: false,
        count_indexes: COUNTS,
    },
    Form {
        filter: "Status eq 0 and Group/Name eq 'Group-042'",
        rows_index: "scoring_tasks_by_group",
        sorted: false,
        count_indexes: COUNTS,
    },
    Form {
        filter: "Group/Name eq 'Group-042' and Status eq 0",
        rows_index: "scoring_tasks_by_group",
        sorted: false,
        count_indexes: COUNTS,
    },
    Form {
        filter: "Group/Name eq 'Group-042'",
        rows_index: "scoring_tasks_by_group_and_time",
        sorted: false,
        count_indexes: COUNTS,
    },
    // Tasks being scored are few: their page is sorted after the index finds them.
    Form {
        filter: "Status eq 1 or Status eq 2",
        rows_index: "scoring_tasks_by_status",
        sorted: true,
        count_indexes: &["scoring_tasks_by_status"],
    },
];

/// A scorer's queue: the tasks `filter` selects, latest finished first.
struct Queue {
    scope: Scope,
    condition: Condition,
    order: Vec<OrderTerm>,
}

impl Queue {
    fn new(filter: &str) -> Self {
        let paths = Paths::new(&SCORING_TASKS, by_name);
        Self {
            scope: Scope::all(&SCORING_TASKS),
            condition: paths.condition(&parse(filter).unwrap()).unwrap(),
            order: paths
                .order(&orderby::parse("Result/WhenFinished desc").unwrap())
                .unwrap(),
        }
    }

    /// Its first page of 50 (51 read, to know whether there is more), with
    /// `joined` read in the same statement.
    fn page<'a>(&'a self, joined: &'a [&'static Navigation]) -> RowsQuery<'a> {
        let mut read =
            RowsQuery::first_page(&self.scope, Some(&self.condition), &self.order, 51, by_name);
        read.joined = joined;
        read
    }
}

/// The plan's lines, joined, for messages and matching; `joined` read with each
/// task in the same statement (an expansion, `Navigation::joinable`).
async fn plans(
    app: &TestApp,
    area: CustomerArea,
    filter: &str,
    joined: &[&'static Navigation],
) -> (String, String) {
    let queue = Queue::new(filter);
    let rows = app
        .store
        .plan_of_rows(area, &queue.page(joined))
        .await
        .unwrap();
    let count = app
        .store
        .plan_of_count(area, &queue.scope, Some(&queue.condition), by_name)
        .await
        .unwrap();
    (rows.join("\n"), count.join("\n"))
}

/// Whether `plan` reads the whole table rather than seeking an index.
fn scans_the_table(plan: &str) -> bool {
    plan.contains("Seq Scan on scoring_tasks") || plan.lines().any(|l| l.trim() == "SCAN t")
}

fn sorts(plan: &str) -> bool {
    plan.contains("Sort") || plan.contains("TEMP B-TREE")
}

/// Whether `plan` reads scoring tasks through `index` (not one whose name it
/// prefixes), or reads the count table (by its key, or whole: it is small).
fn uses(plan: &str, index: &str) -> bool {
    if index == COUNTS[0] {
        // SQLite names the table by its alias in the statement, `counts`.
        let reads_counts = plan.contains("scoring_task_counts")
            || plan.lines().any(|l| {
                l.trim().starts_with("SCAN counts") || l.trim().starts_with("SEARCH counts")
            });
        return reads_counts && !plan.contains("scoring_tasks_by");
    }
    plan.contains(&format!("INDEX {index} "))
        || plan.contains(&format!("using {index} on"))
        || plan.contains(&format!("Index Scan on {index} "))
}

async fn read_forms(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let area = CustomerArea::new(seed_scale(&app.store, TASKS, false).await.unwrap()).unwrap();
    // As on a service in use: most tasks scored, a few being scored.
    app.sql_execute("UPDATE scoring_tasks SET status = 3 WHERE result_id % 10 <> 0")
        .await;
    app.sql_execute("UPDATE scoring_tasks SET status = 1 WHERE result_id % 1000 = 0")
        .await;
    app.store.analyze().await.unwrap();
    for form in FORMS {
        let (rows, count) = plans(&app, area, form.filter, &[]).await;
        let filter = form.filter;
        assert!(uses(&rows, form.rows_index), "{filter}: {rows}");
        assert!(!scans_the_table(&rows), "{filter}: {rows}");
        assert_eq!(sorts(&rows), form.sorted, "{filter}: {rows}");
        assert!(
            form.count_indexes.iter().any(|index| uses(&count, index)),
            "{filter} counted: {count}"
        );
        assert!(!scans_the_table(&count), "{filter} counted: {count}");
    }
    // The queue with `$expand=Result` (the scorer's poll): each task's result is
    // read in the same statement, by its key, and the page still comes from the
    // queue's index in order.
    let result = SCORING_TASKS
        .navigations
        .iter()
        .find(|n| n.name == "Result")
        .unwrap();
    let (rows, _) = plans(&app, area, "Status eq 0", &[result]).await;
    assert!(uses(&rows, "scoring_tasks_by_status"), "expanded: {rows}");
    assert!(!scans_the_table(&rows) && !sorts(&rows), "expanded: {rows}");
    let by_key = rows.contains("SEARCH x_Result USING INTEGER PRIMARY KEY")
        || (rows
            .lines()
            .any(|l| l.contains("Index Scan using") && l.contains("\"x_Result\""))
            && rows.contains("id = t.result_id"));
    assert!(by_key, "each result by its key: {rows}");
    // The sorted form is left to PostgreSQL: its statuses are rare, and a plan
    // made for their values (which the statistics know) is the better one there.
    for form in FORMS.iter().filter(|form| !form.sorted) {
        planned_once(&app, area, form.filter, &[]).await;
    }
    planned_once(&app, area, "Status eq 0", &[result]).await;
}

/// A queue's page read again and again (a scorer's poll) is planned once on PostgreSQL, not
/// at every execution: its LIMIT is in the statement's text, so the plan kept is as
/// cheap as one made for the values (store/read/paged.rs). Eight executions on one
/// connection: PostgreSQL plans the first five for their values, then keeps one.
async fn planned_once(
    app: &TestApp,
    area: CustomerArea,
    filter: &str,
    joined: &[&'static Navigation],
) {
    let queue = Queue::new(filter);
    let made = app
        .store
        .plans_made_for_rows(area, &queue.page(joined), 8)
        .await
        .unwrap();
    match app.backend {
        Backend::Sqlite => assert_eq!(made, None),
        Backend::Postgres => {
            let made = made.expect("PostgreSQL says how it planned");
            assert!(
                made.generic >= 3 && made.custom <= 5,
                "{filter} (joined {}): planned at every execution: {made:?}",
                joined.len()
            );
        }
    }
}

/// A new database after ScoreDesk's ANALYZE (migrations run it): `scoring_results`
/// has no rows yet. A lookup by its key, prepared and run as a scorer's requests
/// run it, must be kept as an index scan. PostgreSQL kept it as a sequential scan
/// when the empty table had been analysed (0 rows recorded), and that plan stayed
/// while the table filled, until an autovacuum analysed it: the first minute of
/// marking on a new database read the whole table at every lookup
/// (docs/benchmarks.md, "Why PostgreSQL's scoring round trips dip").
async fn empty_table_lookup(backend: Backend) {
    use sqlx::Connection;
    let app = TestApp::spawn(backend).await;
    app.store.analyze().await.unwrap();
    let lookup = "SELECT score FROM scoring_results WHERE customer_id = 1 AND question_id = 1 AND result_id = 1";
    let plan = match backend {
        Backend::Sqlite => {
            use sqlx::Row;
            let mut connection = sqlx::SqliteConnection::connect(app.database_url())
                .await
                .unwrap();
            let rows = sqlx::query(&format!("EXPLAIN QUERY PLAN {lookup}"))
                .fetch_all(&mut connection)
                .await
                .unwrap();
            let details: Vec<String> = rows.iter().map(|row| row.get(3)).collect();
            details.join("\n")
        }
        Backend::Postgres => {
            let mut connection = sqlx::PgConnection::connect(app.database_url())
                .await
                .unwrap();
            let prepared = "PREPARE lookup(int, bigint, int) AS SELECT score FROM scoring_results \
                 WHERE customer_id = $1 AND question_id = $2 AND result_id = $3";
            sqlx::raw_sql(prepared)
                .execute(&mut connection)
                .await
                .unwrap();
            // PostgreSQL plans the first five executions for their values, then
            // keeps one plan if it is no dearer.
            for _ in 0..6 {
                sqlx::raw_sql("EXECUTE lookup(1, 1, 1)")
                    .execute(&mut connection)
                    .await
                    .unwrap();
            }
            let lines: Vec<String> = sqlx::query_scalar("EXPLAIN EXECUTE lookup(1, 1, 1)")
                .fetch_all(&mut connection)
                .await
                .unwrap();
            let (generic, _): (i64, i64) = sqlx::query_as(
                "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = 'lookup'",
            )
            .fetch_one(&mut connection)
            .await
            .unwrap();
            assert!(generic > 0, "the plan is kept: {lines:?}");
            lines.join("\n")
        }
    };
    let whole_table =
        plan.contains("Seq Scan") || plan.lines().any(|l| l.trim().starts_with("SCAN "));
    assert!(!whole_table, "{plan}");
    assert!(
        plan.contains("Index Scan using scoring_results_pkey")
            || plan.contains("SEARCH scoring_results USING"),
        "{plan}"
    );
}

/// The benchmark's answers are one text, so each question's tasks are one answer
/// group of 100,000 / questions: the worst case. With nine in ten scored, the
/// group's open tasks are read through `scoring_tasks_by_answer_key` in
/// ResultID order (never sorted, never a scan of the tasks); the keying of old
/// answers reads its empty partial index.
async fn answer_groups(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let area = CustomerArea::new(seed_scale(&app.store, TASKS, false).await.unwrap()).unwrap();
    app.sql_execute("UPDATE scoring_tasks SET status = 3 WHERE result_id % 10 <> 0")
        .await;
    app.store.analyze().await.unwrap();
    let question = app
        .sql_i64("SELECT CAST(MIN(question_id) AS BIGINT) FROM scoring_tasks")
        .await;
    let result = app
        .sql_i64(&format!(
            "SELECT CAST(MIN(result_id) AS BIGINT) FROM scoring_tasks WHERE question_id = {question}"
        ))
        .await;
    let task = TaskKey {
        question_id: question,
        result_id: result as i32,
    };
    let key = app.store.answer_key(area, task).await.unwrap();
    let key = key.expect("a typed answer has a key");
    let group = app
        .sql_i64(&format!(
            "SELECT COUNT(*) FROM scoring_tasks WHERE question_id = {question} AND answer_key = '{key}'"
        ))
        .await;
    assert!(group > 10_000, "one large group: {group}");
    {
        let to = AlikeTo {
            task,
            key: &key,
            reader: "bench",
        };
        let [page, count, keying] = app.store.plans_of_answer_groups(area, &to).await.unwrap();
        let (page, count, keying) = (page.join("\n"), count.join("\n"), keying.join("\n"));
        for plan in [&page, &count] {
            assert!(uses(plan, "scoring_tasks_by_answer_key"), "{plan}");
            assert!(
                !plan.contains("Seq Scan on scoring_tasks")
                    && !plan.lines().any(|l| l.trim() == "SCAN scoring_tasks"),
                "{plan}"
            );
        }
        assert!(!sorts(&page), "in order: {page}");
        assert!(
            keying.contains("USING INDEX answers_awaiting_key")
                || keying.contains("using answers_awaiting_key on")
                || keying.contains("Bitmap Index Scan on answers_awaiting_key"),
            "keying: {keying}"
        );
    }
}

/// A purge's group of 100 results at 100,000 tasks, analysed: every statement
/// of it finds its rows through an index by result (or by key), never a scan
/// of a table that has rows, so the pace of a purge does not depend on the
/// size of the tables. The first form with seeds (`IN (list) OR IN
/// (subquery)`) scanned every table on PostgreSQL at each group.
async fn purge_groups(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let area = CustomerArea::new(seed_scale(&app.store, TASKS, false).await.unwrap()).unwrap();
    app.store.analyze().await.unwrap();
    let results: Vec<i32> = app
        .sql_strings("SELECT CAST(id AS TEXT) FROM results ORDER BY id LIMIT 100")
        .await
        .iter()
        .map(|id| id.parse().unwrap())
        .collect();
    assert_eq!(results.len(), 100);
    let mut filled = Vec::new();
    for table in [
        "results",
        "answers",
        "scoring_tasks",
        "scoring_results",
        "scoring_events",
        "dimension_scores",
        "topic_scores",
        "attempts",
        "answer_uploads",
    ] {
        if app.sql_i64(&format!("SELECT COUNT(*) FROM {table}")).await > 1_000 {
            filled.push(table);
        }
    }
    assert!(
        filled.contains(&"answers") && filled.contains(&"scoring_tasks"),
        "{filled:?}"
    );
    let plans = app.store.plans_of_a_purge(area, &results).await.unwrap();
    assert!(plans.len() > 15, "every table of a result: {}", plans.len());
    for (statement, plan) in plans {
        let plan = plan.join("\n");
        for table in &filled {
            let scanned = plan.contains(&format!("Seq Scan on {table} "))
                || plan.lines().any(|line| {
                    let line = line.trim();
                    line == format!("SCAN {table}") || line.starts_with(&format!("SCAN {table} "))
                });
            assert!(!scanned, "{statement}\n{plan}");
        }
    }
}
