//! Continuation by keyset: the rows after the last one sent, in the read's total
//! order, so that page 1,000 seeks straight to its place as page 1 does.

use sea_query::{Expr, SimpleExpr};

use super::sql::sql_value;
use crate::odata::edm::EdmType;
use crate::odata::value::Value;

/// One term of the total order of a read.
pub struct SortTerm {
    pub expr: SimpleExpr,
    pub edm: EdmType,
    pub nullable: bool,
    pub descending: bool,
}

/// The conditions that select the rows after `after` in the order of `terms`:
/// `k1 > v1 OR (k1 = v1 AND (k2 > v2 OR ...))`, plus a plain range on the first key
/// where it is exact, so that the database can seek instead of scanning.
pub fn keyset_conditions(
    terms: &[SortTerm],
    after: &[Value],
    nulls_smallest: bool,
) -> Vec<SimpleExpr> {
    let mut chained: Option<SimpleExpr> = None;
    for (term, value) in terms.iter().zip(after).rev() {
        let (beyond, equal) = beyond_and_equal(term, value, nulls_smallest);
        chained = Some(match chained {
            None => beyond,
            Some(rest) => beyond.or(equal.and(rest)),
        });
    }
    let mut conditions: Vec<SimpleExpr> = chained.into_iter().collect();
    if let (Some(first), Some(value)) = (terms.first(), after.first()) {
        // NULLs sort before every value when ascending on SQLite and when descending on
        // PostgreSQL; only then (or for a non-null key) may the range exclude them.
        let nulls_come_first = nulls_smallest != first.descending;
        if *value != Value::Null && (!first.nullable || nulls_come_first) {
            let column = Expr::expr(first.expr.clone());
            conditions.push(if first.descending {
                column.lte(sql_value(value))
            } else {
                column.gte(sql_value(value))
            });
        }
    }
    conditions
}

/// For one order term: rows strictly beyond `value`, and rows equal to it.
fn beyond_and_equal(
    term: &SortTerm,
    value: &Value,
    nulls_smallest: bool,
) -> (SimpleExpr, SimpleExpr) {
    let column = || Expr::expr(term.expr.clone());
    // In the direction of travel, do NULLs come after every value?
    let nulls_come_last = nulls_smallest == term.descending;
    if *value == Value::Null {
        let beyond = if nulls_come_last {
            Expr::cust("1 = 0")
        } else {
            column().is_not_null()
        };
        return (beyond, column().is_null());
    }
    let strictly = if term.descending {
        column().lt(sql_value(value))
    } else {
        column().gt(sql_value(value))
    };
    let beyond = if term.nullable && nulls_come_last {
        strictly.or(column().is_null())
    } else {
        strictly
    };
    (beyond, column().eq(sql_value(value)))
}
