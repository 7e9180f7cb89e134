//! Counts the database keeps (migration 10): `ScoringTasks/$count` filtered by
//! nothing but `Status eq n` and `Group/Name eq '...'` sums a few rows of
//! `scoring_task_counts`, which triggers keep equal to the tasks, instead of counting
//! thousands of index entries (docs/benchmarks.md, "Both databases").

use sea_query::{Alias, Expr, Query, SelectStatement, SimpleExpr};

use super::condition::resolved_first;
use super::planner::Planner;
use super::query::{Constraint, Scope};
use super::sql::{column, sql_value, AREA_COLUMN};
use crate::odata::filter::CompareOp;
use crate::odata::typed::Condition;
use crate::odata::value::Value;

/// The count table's name in the statement (its plan then says which table it read).
const COUNTS: &str = "counts";

/// A table of counts of an entity set's rows, by some of its columns.
struct CountTable {
    set: &'static str,
    table: &'static str,
    /// The columns of the set's table the counts are kept by (same names here).
    by: &'static [&'static str],
}

const COUNT_TABLES: &[CountTable] = &[CountTable {
    set: "ScoringTasks",
    table: "scoring_task_counts",
    by: &["status", "group_id"],
}];

/// The count as a sum over a count table, when there is one for the set and the
/// filter is only equalities on the columns it counts by (and `Group/Name`, which
/// names one `group_id`); `None` otherwise.
pub fn count(
    scope: &Scope,
    filter: Option<&Condition>,
    planner: &Planner,
) -> Option<SelectStatement> {
    // The counts leave out every seed copy (migration 32), so they answer a read
    // that leaves out other readers' copies too; a marker's own copy waiting for
    // him is the one task his count does not have (docs/marking-quality.md).
    let only_seed_rule = scope
        .constraints
        .iter()
        .all(|c| matches!(c, Constraint::NoSeedCopyOfOthers { .. }));
    if !only_seed_rule {
        return None;
    }
    let counts = COUNT_TABLES.iter().find(|t| t.set == scope.set.name)?;
    let mut terms = Vec::new();
    if let Some(filter) = filter {
        equalities(filter, counts, planner, &mut terms)?;
    }
    let mut select = Query::select();
    select
        .from_as(Alias::new(counts.table), Alias::new(COUNTS))
        // PostgreSQL sums BIGINTs into NUMERIC: cast back.
        .expr(Expr::cust(
            r#"CAST(COALESCE(SUM("counts"."tasks"), 0) AS BIGINT)"#,
        ))
        .and_where(Expr::expr(column(COUNTS, AREA_COLUMN)).eq(planner.area.id()));
    for term in terms {
        select.and_where(term);
    }
    Some(select)
}

fn equalities(
    condition: &Condition,
    counts: &CountTable,
    planner: &Planner,
    terms: &mut Vec<SimpleExpr>,
) -> Option<()> {
    match condition {
        Condition::And(a, b) => {
            equalities(a, counts, planner, terms)?;
            equalities(b, counts, planner, terms)
        }
        Condition::Compare {
            property,
            op: CompareOp::Eq,
            value,
        } if *value != Value::Null => {
            let term = match property.via {
                None if counts.by.contains(&property.property.column) => {
                    Expr::expr(column(COUNTS, property.property.column)).eq(sql_value(value))
                }
                Some(navigation)
                    if navigation.on.len() == 1 && counts.by.contains(&navigation.on[0].0) =>
                {
                    resolved_first(COUNTS, property, CompareOp::Eq, value, planner)?
                }
                _ => return None,
            };
            terms.push(term);
            Some(())
        }
        _ => None,
    }
}
