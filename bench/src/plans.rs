//! ScoreDesk's own plans for the scoring feeds' read forms, on the benchmark's
//! tasks (1,000,000 unless `--scale`) with statistics, as the database chooses
//! them (the plan tests pin the same forms at 100,000 tasks:
//! tests/tests/api/query_plans.rs).

use std::fmt::Write;

use scoredesk_server::feeds::catalogue::by_name;
use scoredesk_server::feeds::scoring::SCORING_TASKS;
use scoredesk_server::model::area::CustomerArea;
use scoredesk_server::odata::filter::parse;
use scoredesk_server::odata::orderby;
use scoredesk_server::odata::typed::Paths;
use scoredesk_server::store::read::{RowsQuery, Scope};
use scoredesk_server::store::{AlikeTo, Store};

const FORMS: &[&str] = &[
    "Status eq 0",
    "Status eq 0 and Group/Name eq 'Group-042'",
    "Group/Name eq 'Group-042'",
    "Status eq 1 or Status eq 2",
];

/// Each form's page (ordered by `Result/WhenFinished desc`) and count plans, as Markdown.
pub async fn explain(store: &Store, customer: i32, database: &str) -> anyhow::Result<String> {
    let area = CustomerArea::new(customer).ok_or_else(|| anyhow::anyhow!("area {customer}"))?;
    let paths = Paths::new(&SCORING_TASKS, by_name);
    let order = orderby::parse("Result/WhenFinished desc").map_err(anyhow::Error::msg)?;
    let order = paths.order(&order).map_err(|e| anyhow::anyhow!("{e}"))?;
    let scope = Scope::all(&SCORING_TASKS);
    // The area's tasks (the kept counts, so instant at any size).
    let tasks = store.count(area, &scope, None, by_name).await?;
    let mut out = format!(
        "\n### ScoreDesk's plans on {database}, {} tasks\n",
        thousands(tasks)
    );
    for form in FORMS {
        let tree = parse(form).map_err(|e| anyhow::anyhow!("{e}"))?;
        let condition = paths.condition(&tree).map_err(|e| anyhow::anyhow!("{e}"))?;
        let read = RowsQuery::first_page(&scope, Some(&condition), &order, 101, by_name);
        let rows = store.plan_of_rows(area, &read).await?;
        let count = store
            .plan_of_count(area, &scope, Some(&condition), by_name)
            .await?;
        let _ = writeln!(out, "\n`{form}`, a page:\n```\n{}\n```", rows.join("\n"));
        let _ = writeln!(out, "its `$count`:\n```\n{}\n```", count.join("\n"));
    }
    out.push_str(&answer_groups(store, area).await?);
    Ok(out)
}

/// An open task's answer group (`AnswersAlike`, and the group a POST to
/// `AnswerGroupMarkings` marks): the benchmark's answers are one text, so the
/// group is every task of the question, the worst case; and the keying of old
/// answers at start (docs/marking-quality.md, "Answer groups").
async fn answer_groups(store: &Store, area: CustomerArea) -> anyhow::Result<String> {
    let Some((task, key)) = store.an_open_typed_task(area).await? else {
        return Ok("\nNo open typed task: no answer group to plan.\n".into());
    };
    let to = AlikeTo {
        task,
        key: &key,
        reader: "bench",
    };
    let [page, count, keying] = store.plans_of_answer_groups(area, &to).await?;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\nAn answer group's open tasks, a page of 500:\n```\n{}\n```",
        page.join("\n")
    );
    let _ = writeln!(out, "their count:\n```\n{}\n```", count.join("\n"));
    let _ = writeln!(
        out,
        "the keying of answers written before keys:\n```\n{}\n```",
        keying.join("\n")
    );
    Ok(out)
}

/// `n` with a comma every three digits (10,000,000).
fn thousands(n: i64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn thousands_are_separated_by_commas() {
        assert_eq!(super::thousands(7), "7");
        assert_eq!(super::thousands(100_000), "100,000");
        assert_eq!(super::thousands(1_000_000), "1,000,000");
        assert_eq!(super::thousands(10_000_000), "10,000,000");
    }
}
