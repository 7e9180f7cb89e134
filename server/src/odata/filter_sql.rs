//! Turning a parsed `$filter` into a SQL condition: properties map to columns the
//! feed declares, and every literal becomes a bound value, never SQL text.

use sea_query::{Expr, SimpleExpr, Value};

use super::edm::EdmType;
use super::filter::{CompareOp, Filter, Literal, Operand};
use super::ApiError;

/// A property a feed lets clients filter on, and the column behind it.
pub struct FilterableProperty {
    /// As written in the URL: `Status`, `Group/Name`.
    pub path: &'static str,
    pub edm: EdmType,
    pub column: fn() -> SimpleExpr,
}

/// Translates `filter` against the feed's `properties`.
pub fn to_condition(
    filter: &Filter,
    properties: &[FilterableProperty],
) -> Result<SimpleExpr, ApiError> {
    Ok(match filter {
        Filter::And(a, b) => to_condition(a, properties)?.and(to_condition(b, properties)?),
        Filter::Or(a, b) => to_condition(a, properties)?.or(to_condition(b, properties)?),
        Filter::Not(inner) => to_condition(inner, properties)?.not(),
        Filter::Compare { left, op, right } => {
            let (path, op, literal) = match (left, right) {
                (Operand::Property(path), Operand::Literal(literal)) => (path, *op, literal),
                (Operand::Literal(literal), Operand::Property(path)) => {
                    (path, op.flipped(), literal)
                }
                _ => {
                    return Err(ApiError::bad_request(format!(
                        "$filter comparisons take a property and a literal: '{filter}'"
                    )))
                }
            };
            let name = path.to_string();
            let property = properties.iter().find(|p| p.path == name).ok_or_else(|| {
                let allowed: Vec<&str> = properties.iter().map(|p| p.path).collect();
                ApiError::bad_request(format!(
                    "$filter cannot use '{name}'; the properties allowed are {}",
                    allowed.join(", ")
                ))
            })?;
            compare((property.column)(), op, bound_value(property, literal)?)
        }
    })
}

fn compare(column: SimpleExpr, op: CompareOp, value: Option<Value>) -> SimpleExpr {
    let column = Expr::expr(column);
    match (op, value) {
        (CompareOp::Eq, None) => column.is_null(),
        (CompareOp::Ne, None) => column.is_not_null(),
        // Any ordering against null is unknown in OData as in SQL: matches nothing.
        (_, None) => Expr::val(1).eq(0),
        (CompareOp::Eq, Some(v)) => column.eq(v),
        (CompareOp::Ne, Some(v)) => column.ne(v),
        (CompareOp::Gt, Some(v)) => column.gt(v),
        (CompareOp::Ge, Some(v)) => column.gte(v),
        (CompareOp::Lt, Some(v)) => column.lt(v),
        (CompareOp::Le, Some(v)) => column.lte(v),
    }
}

/// The literal as a value of the property's type; `None` for `null`.
fn bound_value(
    property: &FilterableProperty,
    literal: &Literal,
) -> Result<Option<Value>, ApiError> {
    let mismatch = || {
        let hint = match (property.edm, literal) {
            (EdmType::Int64, Literal::Int32(n)) => format!(" (write {n}L)"),
            _ => String::new(),
        };
        ApiError::bad_request(format!(
            "$filter compares '{}' ({}) with {literal}, which is not of that type{hint}",
            property.path, property.edm
        ))
    };
    Ok(Some(match (property.edm, literal) {
        (_, Literal::Null) => return Ok(None),
        (EdmType::Boolean, Literal::Boolean(b)) => Value::from(*b),
        (EdmType::Int16, Literal::Int32(n)) => {
            Value::from(i16::try_from(*n).map_err(|_| mismatch())?)
        }
        (EdmType::Int32, Literal::Int32(n)) => Value::from(*n),
        (EdmType::Int64, Literal::Int64(n)) => Value::from(*n),
        (EdmType::Double, Literal::Double(x)) => Value::from(*x),
        (EdmType::Double, Literal::Int32(n)) => Value::from(f64::from(*n)),
        (EdmType::String, Literal::String(s)) => Value::from(s.clone()),
        (EdmType::DateTime, Literal::DateTime(ms)) => Value::from(*ms),
        _ => return Err(mismatch()),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::odata::filter::parse;
    use sea_query::{Alias, Query, SqliteQueryBuilder};

    fn properties() -> Vec<FilterableProperty> {
        vec![
            FilterableProperty {
                path: "Status",
                edm: EdmType::Int32,
                column: || Expr::col(Alias::new("status")).into(),
            },
            FilterableProperty {
                path: "QuestionID",
                edm: EdmType::Int64,
                column: || Expr::col(Alias::new("question_id")).into(),
            },
        ]
    }

    fn sql(filter: &str) -> Result<(String, sea_query::Values), ApiError> {
        let condition = to_condition(&parse(filter).unwrap(), &properties())?;
        Ok(Query::select()
            .column(Alias::new("x"))
            .and_where(condition)
            .build(SqliteQueryBuilder))
    }

    #[test]
    fn literals_become_bound_values_never_sql_text() {
        let (text, values) = sql("Status eq 3 or QuestionID eq 98765432123L").unwrap();
        assert!(
            !text.contains('3') && !text.contains("98765432123"),
            "{text}"
        );
        assert_eq!(values.0.len(), 2);
    }

    #[test]
    fn an_unknown_property_names_the_allowed_ones() {
        let Err(ApiError::BadRequest(message)) = sql("Secret eq 1") else {
            panic!()
        };
        assert!(message.contains("Status, QuestionID"), "{message}");
    }

    #[test]
    fn an_int64_property_compared_with_an_int32_literal_asks_for_the_suffix() {
        let Err(ApiError::BadRequest(message)) = sql("QuestionID eq 5") else {
            panic!()
        };
        assert!(message.contains("5L"), "{message}");
    }
}
