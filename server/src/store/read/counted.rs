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
/// The set's own table, where the reader's seed copies are counted.
const OWN: &str = "own";

/// A table of counts of an entity set's rows, by some of its columns.
struct CountTable {
    set: &'static str,
    table: &'static str,
    /// The columns of the set's table the counts are kept by (same names here).
    by: &'static [&'static str],
    /// The set's table and the column naming whose seed copy a row is: the rows
    /// the counts leave out, of which the reader's own are counted apart
    /// (through a partial index, migration 34).
    copies: Option<(&'static str, &'static str)>,
}

const COUNT_TABLES: &[CountTable] = &[CountTable {
    set: "ScoringTasks",
    table: "scoring_task_counts",
    by: &["status", "group_id"],
    copies: Some(("scoring_tasks", "seed_for")),
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
    // that leaves out other readers' copies too; the reader's own copies, which
    // his list shows, are counted beside them (docs/marking-quality.md), or his
    // count would be one short while a copy waits for him and tell it apart.
    let mut reader = None;
    for constraint in &scope.constraints {
        match constraint {
            Constraint::NoSeedCopyOfOthers { reader: name, .. } => reader = Some(name),
            _ => return None,
        }
    }
    let counts = COUNT_TABLES.iter().find(|t| t.set == scope.set.name)?;
    let (mut kept, mut own) = (Vec::new(), Vec::new());
    if let Some(filter) = filter {
        equalities(filter, counts, COUNTS, planner, &mut kept)?;
        equalities(filter, counts, OWN, planner, &mut own)?;
    }
    let mut select = Query::select();
    select
        .from_as(Alias::new(counts.table), Alias::new(COUNTS))
        .and_where(Expr::expr(column(COUNTS, AREA_COLUMN)).eq(planner.area.id()));
    for term in kept {
        select.and_where(term);
    }
    // PostgreSQL sums BIGINTs into NUMERIC: cast back.
    let sum = r#"CAST(COALESCE(SUM("counts"."tasks"), 0) AS BIGINT)"#;
    match (reader, counts.copies) {
        (Some(reader), Some((table, reader_column))) => {
            let mut copies = Query::select();
            copies
                .from_as(Alias::new(table), Alias::new(OWN))
                .expr(Expr::cust("COUNT(*)"))
                .and_where(Expr::expr(column(OWN, AREA_COLUMN)).eq(planner.area.id()))
                .and_where(Expr::expr(column(OWN, reader_column)).eq(sql_value(reader)));
            for term in own {
                copies.and_where(term);
            }
            select.expr(Expr::cust(sum).add(SimpleExpr::SubQuery(
                None,
                Box::new(copies.into_sub_query_statement()),
            )));
        }
        _ => {
            select.expr(Expr::cust(sum));
        }
    }
    Some(select)
}

/// The filter's equalities as terms on `alias`'s columns (the count table's or
/// the set's own: the columns are named alike).
fn equalities(
    condition: &Condition,
    counts: &CountTable,
    alias: &str,
    planner: &Planner,
    terms: &mut Vec<SimpleExpr>,
) -> Option<()> {
    match condition {
        Condition::And(a, b) => {
            equalities(a, counts, alias, planner, terms)?;
            equalities(b, counts, alias, planner, terms)
        }
        Condition::Compare {
            property,
            op: CompareOp::Eq,
            value,
        } if *value != Value::Null => {
            let term = match property.via {
                None if counts.by.contains(&property.property.column) => {
                    Expr::expr(column(alias, property.property.column)).eq(sql_value(value))
                }
                Some(navigation)
                    if navigation.on.len() == 1 && counts.by.contains(&navigation.on[0].0) =>
                {
                    resolved_first(alias, property, CompareOp::Eq, value, planner)?
                }
                _ => return None,
            };
            terms.push(term);
            Some(())
        }
        _ => None,
    }
}
