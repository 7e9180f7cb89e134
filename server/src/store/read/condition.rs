//! The SQL conditions of a read: `$filter` (typed by the protocol layer) and the
//! scope a path gives (a key, a navigation step, the parents of an expansion). Every
//! value is a bound parameter, never SQL text.

use sea_query::{Alias, Asterisk, Expr, IntoIden, Query, SimpleExpr, ValueTuple};

use super::planner::Planner;
use super::query::{Constraint, Scope};
use super::sql::{all_of, column, sql_value, BASE};
use crate::odata::filter::CompareOp;
use crate::odata::model::Navigation;
use crate::odata::typed::Condition;
use crate::odata::value::Value;

/// `$filter` as SQL, its properties' columns (and joins) found by `planner`.
pub fn filter(condition: &Condition, planner: &mut Planner) -> SimpleExpr {
    match condition {
        Condition::And(a, b) => filter(a, planner).and(filter(b, planner)),
        Condition::Or(a, b) => filter(a, planner).or(filter(b, planner)),
        Condition::Not(inner) => filter(inner, planner).not(),
        Condition::Compare {
            property,
            op,
            value,
        } => compare(planner.column_of(property), *op, value),
        Condition::Exists(steps) => exists(steps, planner),
    }
}

/// `Path/any()` as nested `EXISTS (SELECT 1 FROM target WHERE target.far = near ...)`,
/// one per step, each matched on the navigation's columns (keys or indexed foreign
/// keys, so each step is one index lookup). The steps stay within the row's area:
/// every navigation joins rows of one customer area.
fn exists(steps: &[&'static Navigation], planner: &Planner) -> SimpleExpr {
    let mut condition: Option<SimpleExpr> = None;
    for (index, navigation) in steps.iter().enumerate().rev() {
        let alias = format!("any_{index}");
        let near_alias = if index == 0 {
            BASE.to_owned()
        } else {
            format!("any_{}", index - 1)
        };
        let mut select = Query::select();
        select
            .expr(Expr::cust("1"))
            .from_as(
                Alias::new(planner.target(navigation).table),
                Alias::new(&alias),
            )
            .and_where(all_of(navigation.on.iter().map(|(near, far)| {
                Expr::expr(column(&alias, far)).equals((Alias::new(&near_alias), Alias::new(*near)))
            })));
        if let Some(inner) = condition.take() {
            select.and_where(inner);
        }
        condition = Some(Expr::exists(select.to_owned()));
    }
    condition.expect("an any() path has at least one step")
}

fn compare(column: SimpleExpr, op: CompareOp, value: &Value) -> SimpleExpr {
    let column = Expr::expr(column);
    if *value == Value::Null {
        return match op {
            CompareOp::Eq => column.is_null(),
            CompareOp::Ne => column.is_not_null(),
            // Any ordering against null is unknown, in OData as in SQL: matches nothing.
            _ => Expr::cust("1 = 0"),
        };
    }
    let v = sql_value(value);
    match op {
        CompareOp::Eq => column.eq(v),
        CompareOp::Ne => column.ne(v),
        CompareOp::Gt => column.gt(v),
        CompareOp::Ge => column.gte(v),
        CompareOp::Lt => column.lt(v),
        CompareOp::Le => column.lte(v),
    }
}

/// The rows of the scope's set that its constraints select.
pub fn scope(scope: &Scope) -> Option<SimpleExpr> {
    let terms: Vec<SimpleExpr> = scope.constraints.iter().map(constraint).collect();
    (!terms.is_empty()).then(|| all_of(terms))
}

fn constraint(constraint: &Constraint) -> SimpleExpr {
    match constraint {
        Constraint::Equals(property, value) => {
            Expr::expr(column(BASE, property.column)).eq(sql_value(value))
        }
        Constraint::Reached { navigation, from } => reached(navigation, from),
        Constraint::ReachedFromAny { navigation, from } => reached_from_any(navigation, from),
    }
}

/// The target rows of `navigation` from a source row whose `on` columns hold `source`
/// values (one per pair).
fn reached(navigation: &Navigation, source: &[Value]) -> SimpleExpr {
    all_of(navigation.on.iter().zip(source).map(|((_, far), value)| {
        let target_column = Expr::expr(column(BASE, far));
        match &navigation.through {
            None => target_column.eq(sql_value(value)),
            Some(through) => target_column.in_subquery(
                Query::select()
                    .column(Alias::new(through.far).into_iden())
                    .from(Alias::new(through.table))
                    .and_where(Expr::col(Alias::new(through.near)).eq(sql_value(value)))
                    .to_owned(),
            ),
        }
    }))
}

/// The target rows of `navigation` from any of the source rows whose join values are
/// `keys`: one flat IN list, never a chain of ORs whose depth would grow with them.
fn reached_from_any(navigation: &Navigation, keys: &[Vec<Value>]) -> SimpleExpr {
    match navigation.on {
        [(_, far)] => {
            Expr::expr(column(BASE, far)).is_in(keys.iter().map(|key| sql_value(&key[0])))
        }
        _ => Expr::tuple(navigation.on.iter().map(|(_, far)| column(BASE, far))).in_subquery(
            Query::select()
                .column(Asterisk)
                .from_values(
                    keys.iter()
                        .map(|key| ValueTuple::Many(key.iter().map(sql_value).collect())),
                    Alias::new("parent_keys"),
                )
                .to_owned(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use sea_query::{Alias, PostgresQueryBuilder, Query, SqliteQueryBuilder};

    use super::super::planner::Planner;
    use super::*;
    use crate::odata::edm::EdmType::{Boolean, DateTime, Double, Int32, Int64, String as Str};
    use crate::odata::filter::parse;
    use crate::odata::filter_properties::{filter as any_filter, non_null_literals};
    use crate::odata::model::{many, one, prop, EntitySet, READ_ONLY};
    use crate::odata::typed::Paths;

    /// A set with a property of every type the generators use, and `Result/WhenFinished`.
    static THINGS: EntitySet = EntitySet {
        name: "Things",
        type_name: "Thing",
        table: "things",
        key: &["QuestionID"],
        properties: &[
            prop("QuestionID", "question_id", Int64, false),
            prop("Status", "status", Int32, false),
            prop("ParticipantName", "participant_name", Str, true),
            prop("StillGoing", "still_going", Boolean, false),
            prop("PercentageScore", "percentage_score", Double, false),
        ],
        navigations: &[one("Result", "Results", &[("result_id", "id")], true)],
        concurrency: None,
        filterable: &[
            "QuestionID",
            "Status",
            "ParticipantName",
            "StillGoing",
            "PercentageScore",
        ],
        media: None,
        writes: READ_ONLY,
    };

    static RESULTS: EntitySet = EntitySet {
        name: "Results",
        type_name: "Result",
        table: "results",
        key: &["ID"],
        properties: &[
            prop("ID", "id", Int32, false),
            prop("WhenFinished", "when_finished", DateTime, true),
        ],
        navigations: &[many("Answers", "Answers", &[("id", "result_id")])],
        concurrency: None,
        filterable: &["ID", "WhenFinished"],
        media: None,
        writes: READ_ONLY,
    };

    static ANSWERS: EntitySet = EntitySet {
        name: "Answers",
        type_name: "Answer",
        table: "answers",
        key: &["ResultID"],
        properties: &[prop("ResultID", "result_id", Int32, false)],
        navigations: &[],
        concurrency: None,
        filterable: &["ResultID"],
        media: None,
        writes: READ_ONLY,
    };

    fn lookup(name: &str) -> Option<&'static EntitySet> {
        [&THINGS, &RESULTS, &ANSWERS]
            .into_iter()
            .find(|set| set.name == name)
    }

    fn sql(text: &str) -> (String, sea_query::Values) {
        let typed = Paths::new(&THINGS, lookup)
            .condition(&parse(text).unwrap())
            .unwrap();
        let mut planner = Planner::new(&THINGS, lookup);
        Query::select()
            .column(Alias::new("x"))
            .and_where(filter(&typed, &mut planner))
            .build(SqliteQueryBuilder)
    }

    #[test]
    fn literals_become_bound_values_never_sql_text() {
        let (text, values) = sql("Status eq 3 or QuestionID eq 98765432123L");
        assert!(
            !text.contains('3') && !text.contains("98765432123"),
            "{text}"
        );
        assert_eq!(values.0.len(), 2);
    }

    #[test]
    fn any_is_a_nested_exists_per_navigation_step() {
        let (text, values) = sql("Status eq 1 and not Result/Answers/any()");
        assert!(
            text.contains(r#"NOT EXISTS(SELECT 1 FROM "results" AS "any_0" WHERE "any_0"."id" = "t"."result_id" AND EXISTS(SELECT 1 FROM "answers" AS "any_1" WHERE "any_1"."result_id" = "any_0"."id"))"#),
            "{text}"
        );
        assert_eq!(values.0.len(), 1);
    }

    #[test]
    fn null_comparisons_become_is_null() {
        let (text, _) = sql("Status eq null");
        assert!(text.contains("IS NULL"), "{text}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn every_literal_of_a_generated_filter_is_a_bound_parameter(generated in any_filter()) {
            let typed = Paths::new(&THINGS, lookup)
                .condition(&generated)
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            let mut planner = Planner::new(&THINGS, lookup);
            let condition = filter(&typed, &mut planner);
            let select = Query::select()
                .column(Alias::new("x"))
                .from(Alias::new("t"))
                .and_where(condition)
                .to_owned();
            for (sql, values) in [select.build(SqliteQueryBuilder), select.build(PostgresQueryBuilder)] {
                prop_assert_eq!(values.0.len(), non_null_literals(&generated), "in {}", sql);
                prop_assert!(!sql.contains('\''), "a quoted literal in the SQL text: {}", sql);
            }
        }
    }
}
