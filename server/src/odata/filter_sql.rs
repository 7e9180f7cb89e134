//! Turning a parsed `$filter` into a SQL condition: property paths resolve to
//! columns through a [`Resolver`], and every literal becomes a bound value.

use sea_query::{Expr, SimpleExpr, Value};

use super::edm::EdmType;
use super::filter::{CompareOp, Filter, Literal, Operand, PropertyPath};
use super::ApiError;

/// Finds the column behind a property path, or says why it may not be used.
pub trait Resolver {
    fn resolve(&mut self, path: &PropertyPath) -> Result<(SimpleExpr, EdmType), ApiError>;
}

/// Translates `filter`, resolving properties with `resolver`.
pub fn to_condition(filter: &Filter, resolver: &mut dyn Resolver) -> Result<SimpleExpr, ApiError> {
    Ok(match filter {
        Filter::And(a, b) => to_condition(a, resolver)?.and(to_condition(b, resolver)?),
        Filter::Or(a, b) => to_condition(a, resolver)?.or(to_condition(b, resolver)?),
        Filter::Not(inner) => to_condition(inner, resolver)?.not(),
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
            let (column, edm) = resolver.resolve(path)?;
            compare(column, op, bound_value(path, edm, literal)?)
        }
    })
}

fn compare(column: SimpleExpr, op: CompareOp, value: Option<Value>) -> SimpleExpr {
    let column = Expr::expr(column);
    match (op, value) {
        (CompareOp::Eq, None) => column.is_null(),
        (CompareOp::Ne, None) => column.is_not_null(),
        // Any ordering against null is unknown, in OData as in SQL: matches nothing.
        (_, None) => Expr::cust("1 = 0"),
        (CompareOp::Eq, Some(v)) => column.eq(v),
        (CompareOp::Ne, Some(v)) => column.ne(v),
        (CompareOp::Gt, Some(v)) => column.gt(v),
        (CompareOp::Ge, Some(v)) => column.gte(v),
        (CompareOp::Lt, Some(v)) => column.lt(v),
        (CompareOp::Le, Some(v)) => column.lte(v),
    }
}

/// The literal as a value of the property's type; `None` for `null`.
pub fn bound_value(
    path: &PropertyPath,
    edm: EdmType,
    literal: &Literal,
) -> Result<Option<Value>, ApiError> {
    let mismatch = || {
        let hint = match (edm, literal) {
            (EdmType::Int64, Literal::Int32(n)) => format!(" (write {n}L)"),
            _ => String::new(),
        };
        ApiError::bad_request(format!(
            "$filter compares '{path}' ({edm}) with {literal}, which is not of that type{hint}"
        ))
    };
    Ok(Some(match (edm, literal) {
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

    struct TwoColumns;

    impl Resolver for TwoColumns {
        fn resolve(&mut self, path: &PropertyPath) -> Result<(SimpleExpr, EdmType), ApiError> {
            match path.to_string().as_str() {
                "Status" => Ok((Expr::col(Alias::new("status")).into(), EdmType::Int32)),
                "QuestionID" => Ok((Expr::col(Alias::new("question_id")).into(), EdmType::Int64)),
                other => Err(ApiError::bad_request(format!(
                    "'{other}' is not allowed; use Status, QuestionID"
                ))),
            }
        }
    }

    fn sql(filter: &str) -> Result<(String, sea_query::Values), ApiError> {
        let condition = to_condition(&parse(filter).unwrap(), &mut TwoColumns)?;
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
    fn an_int64_property_compared_with_an_int32_literal_asks_for_the_suffix() {
        let Err(ApiError::BadRequest(message)) = sql("QuestionID eq 5") else {
            panic!()
        };
        assert!(message.contains("5L"), "{message}");
    }

    #[test]
    fn null_comparisons_become_is_null() {
        let (text, _) = sql("Status eq null").unwrap();
        assert!(text.contains("IS NULL"), "{text}");
    }
}
