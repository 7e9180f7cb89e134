//! Which rows are seed copies (docs/marking-quality.md, "Seeds"): a seed served to
//! a marker is a result of its own (`results.seed_for` names him) with its task,
//! answers, scores and events, and every read of those sets by anyone else leaves
//! it out, in the statement, as it leaves out another area's rows. The statements
//! that count, export or compute figures leave every copy out
//! ([`real_results_only`]).

use sea_query::{Alias, Expr, Query, SelectStatement, SimpleExpr};

use super::query::Constraint;
use crate::odata::value::Value;
use crate::store::engine::schema::Results;

/// The tables that hold rows of seed copies, and the column naming the result.
const TABLES: &[(&str, &str)] = &[
    ("results", "id"),
    ("scoring_tasks", "result_id"),
    ("answers", "result_id"),
    ("scoring_results", "result_id"),
    ("dimension_scores", "result_id"),
    ("topic_scores", "result_id"),
    ("scoring_events", "result_id"),
];

/// The constraint that keeps other readers' seed copies out of a read of
/// `table` by `reader` (a user name), if the table holds any.
pub fn hidden_from(table: &str, reader: &str) -> Option<Constraint> {
    TABLES
        .iter()
        .find(|(name, _)| *name == table)
        .map(|(_, result_column)| Constraint::NoSeedCopyOfOthers {
            result_column,
            reader: Value::String(reader.to_owned()),
        })
}

/// The results that are seed copies served to anyone but `reader`: few, read
/// through their partial index (`results_seed_copies`, migration 32) once per
/// statement.
pub(super) fn copies_of_others(reader: impl Into<SimpleExpr>) -> SelectStatement {
    Query::select()
        .column(Results::Id)
        .from(Results::Table)
        .and_where(Expr::col(Results::SeedFor).is_not_null())
        .and_where(Expr::col(Results::SeedFor).ne(reader))
        .to_owned()
}

/// `<alias>.<result_column>` is the ID of a result that is not a seed copy: for
/// the statements every reader shares (counts, figures, exports, purges).
pub fn real_results_only(alias: &str, result_column: &str) -> SimpleExpr {
    Expr::col((Alias::new(alias), Alias::new(result_column))).not_in_subquery(
        Query::select()
            .column(Results::Id)
            .from(Results::Table)
            .and_where(Expr::col(Results::SeedFor).is_not_null())
            .to_owned(),
    )
}
