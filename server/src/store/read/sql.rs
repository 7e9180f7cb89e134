//! The SQL vocabulary every read shares: the table aliases, column references, and
//! values as bound parameters.

use sea_query::{Alias, Expr, SimpleExpr, Value as SqlValue};

use crate::odata::model::Navigation;
use crate::odata::value::Value;

/// The alias of the entity set's own table in every query.
pub const BASE: &str = "t";

/// The column that carries the customer area in every table.
pub const AREA_COLUMN: &str = "customer_id";

pub fn column(alias: &str, name: &str) -> SimpleExpr {
    Expr::col((Alias::new(alias), Alias::new(name))).into()
}

/// The alias of a navigation's table when it is joined.
pub fn join_alias(navigation: &Navigation) -> String {
    format!("n_{}", navigation.name)
}

/// The alias of a navigation's table when its target is read with the row (an
/// expansion, [`super::query::RowsQuery::joined`]); apart from [`join_alias`], so
/// that a filter's inner join through the same navigation is left as it is.
pub fn expansion_alias(navigation: &Navigation) -> String {
    format!("x_{}", navigation.name)
}

/// `a AND b AND ...`; `1 = 1` only when there is nothing to join. Conditions are
/// built without constant terms because SQLite's planner does not see through them
/// (an OR of `1 = 1 AND id = ?` is a scan, an IN list is index lookups).
pub fn all_of(terms: impl IntoIterator<Item = SimpleExpr>) -> SimpleExpr {
    terms
        .into_iter()
        .reduce(SimpleExpr::and)
        .unwrap_or_else(|| Expr::cust("1 = 1"))
}

pub fn sql_value(value: &Value) -> SqlValue {
    match value {
        Value::Null => SqlValue::Int(None),
        Value::Boolean(b) => (*b).into(),
        Value::Int16(n) => (*n).into(),
        Value::Int32(n) => (*n).into(),
        Value::Int64(n) | Value::DateTime(n) => (*n).into(),
        Value::Double(x) => (*x).into(),
        Value::String(s) => s.clone().into(),
    }
}
