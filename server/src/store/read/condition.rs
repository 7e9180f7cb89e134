//! The SQL conditions of a read: `$filter` (typed by the protocol layer) and the
//! scope a path gives (a key, a navigation step, the parents of an expansion). Every
//! value is a bound parameter, never SQL text.

use sea_query::{Alias, Asterisk, Expr, IntoIden, Query, SelectStatement, SimpleExpr, ValueTuple};

use super::planner::Planner;
use super::query::{Constraint, Scope};
use super::sql::{all_of, column, sql_value, AREA_COLUMN, BASE};
use crate::odata::filter::CompareOp;
use crate::odata::model::Navigation;
use crate::odata::typed::{Condition, PropertyRef};
use crate::odata::value::Value;

/// `$filter` as SQL, its properties' columns (and joins) found by `planner`.
pub fn filter(condition: &Condition, planner: &mut Planner) -> SimpleExpr {
    sql_of(condition, planner, true)
}

/// `positive`: whether the condition is under an even number of `not`s.
fn sql_of(condition: &Condition, planner: &mut Planner, positive: bool) -> SimpleExpr {
    match condition {
        Condition::And(a, b) => sql_of(a, planner, positive).and(sql_of(b, planner, positive)),
        Condition::Or(a, b) => sql_of(a, planner, positive).or(sql_of(b, planner, positive)),
        Condition::Not(inner) => sql_of(inner, planner, !positive).not(),
        Condition::Compare {
            property,
            op,
            value,
        } => match resolved_first(BASE, property, *op, value, planner) {
            Some(resolved) if positive => resolved,
            _ => compare(planner.column_of(property), *op, value),
        },
        Condition::Exists(steps) => exists(steps, planner),
    }
}

/// `Group/Name eq 'G'`, where no two groups of an area share a name, as
/// `<from>.group_id = (SELECT u.id FROM groups AS u WHERE u.customer_id = ? AND u.name = ?)`
/// rather than through a join: the database reads the one group first and then
/// seeks the row's own index on `group_id`, which delivers a queue in order (a join
/// made PostgreSQL walk every open task of the area filtering by group; see
/// docs/benchmarks.md). Only where the comparison is not negated: when no group has
/// the name the subquery is null and the comparison unknown, which `not` keeps
/// unknown, where the join's false would become true.
pub(super) fn resolved_first(
    from: &str,
    property: &PropertyRef,
    op: CompareOp,
    value: &Value,
    planner: &Planner,
) -> Option<SimpleExpr> {
    let navigation = property.via?;
    let [(near, far)] = navigation.on else {
        return None;
    };
    let copied = navigation
        .copied
        .iter()
        .any(|(name, _)| *name == property.property.name);
    let applies = op == CompareOp::Eq
        && *value != Value::Null
        && property.property.unique_in_area
        && !navigation.many
        && navigation.through.is_none()
        && !copied;
    if !applies {
        return None;
    }
    let alias = "u";
    let target = Query::select()
        .expr(column(alias, far))
        .from_as(
            Alias::new(planner.target(navigation).table),
            Alias::new(alias),
        )
        .and_where(Expr::expr(column(alias, AREA_COLUMN)).eq(planner.area.id()))
        .and_where(Expr::expr(column(alias, property.property.column)).eq(sql_value(value)))
        .to_owned();
    Some(Expr::expr(column(from, near)).eq(SimpleExpr::SubQuery(
        None,
        Box::new(target.into_sub_query_statement()),
    )))
}

/// `Path/any()` as nested `IN` subqueries on each navigation's join columns:
/// `t.question_id IN (SELECT any_0.id FROM questions AS any_0 WHERE any_0.id IN
/// (SELECT any_1.question_id FROM rubrics AS any_1))`. Not a correlated `EXISTS`:
/// the planner reads the (small) list once and tests each row's column against it,
/// which on SQLite counts 1,000,000 open tasks in a third of the time (see
/// docs/benchmarks.md), and it may also walk the list through an index. The steps
/// stay within the row's area: every navigation joins rows of one customer area.
fn exists(steps: &[&'static Navigation], planner: &Planner) -> SimpleExpr {
    let (first, rest) = steps.split_first().expect("an any() path has a step");
    columns_in(BASE, first, reached_keys(0, first, rest, planner))
}

/// The rows of `from` whose `navigation.on` near columns are among `subquery`'s.
/// Two-valued, so that `not` is exact: a null near column (an optional to-one
/// navigation not set) reaches nothing, and the subquery never lists a null.
fn columns_in(from: &str, navigation: &Navigation, subquery: SelectStatement) -> SimpleExpr {
    let member = match navigation.on {
        [(near, _)] => Expr::expr(column(from, near)).in_subquery(subquery),
        pairs => {
            Expr::tuple(pairs.iter().map(|(near, _)| column(from, near))).in_subquery(subquery)
        }
    };
    if navigation.many || navigation.required {
        return member;
    }
    all_of(
        navigation
            .on
            .iter()
            .map(|(near, _)| Expr::expr(column(from, near)).is_not_null())
            .chain([member]),
    )
}

/// The far columns of `navigation`'s target rows from which the `rest` of the path
/// reaches something.
fn reached_keys(
    depth: usize,
    navigation: &Navigation,
    rest: &[&'static Navigation],
    planner: &Planner,
) -> SelectStatement {
    let alias = format!("any_{depth}");
    let mut select = Query::select();
    for (_, far) in navigation.on {
        select.expr(column(&alias, far));
    }
    select.from_as(
        Alias::new(planner.target(navigation).table),
        Alias::new(&alias),
    );
    for (_, far) in navigation.on {
        select.and_where(Expr::expr(column(&alias, far)).is_not_null());
    }
    if let Some(current) = navigation.current {
        select.and_where(Expr::expr(column(&alias, current)).is_null());
    }
    if let Some((next, further)) = rest.split_first() {
        select.and_where(columns_in(
            &alias,
            next,
            reached_keys(depth + 1, next, further, planner),
        ));
    }
    select.to_owned()
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
        Constraint::Null(name) => Expr::expr(column(BASE, name)).is_null(),
        Constraint::NotEqual(name, value) => Expr::expr(column(BASE, name))
            .is_null()
            .or(Expr::expr(column(BASE, name)).ne(sql_value(value))),
        Constraint::NoSeedCopyOfOthers {
            result_column,
            reader,
        } => Expr::expr(column(BASE, result_column))
            .not_in_subquery(super::seed_copies::copies_of_others(sql_value(reader))),
        Constraint::NoOpenTaskOf(questions) => Expr::expr(column(BASE, "status"))
            .ne(0)
            .or(Expr::expr(column(BASE, "question_id")).is_not_in(questions.iter().map(sql_value))),
        Constraint::NotOfQuestions(questions) => {
            Expr::expr(column(BASE, "question_id")).is_not_in(questions.iter().map(sql_value))
        }
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
    use super::super::test_sets::{lookup, THINGS};
    use super::*;
    use crate::model::area::CustomerArea;
    use crate::odata::filter::parse;
    use crate::odata::filter_properties::{filter as any_filter, non_null_literals};
    use crate::odata::typed::Paths;

    fn sql(text: &str) -> (String, sea_query::Values) {
        let typed = Paths::new(&THINGS, lookup)
            .condition(&parse(text).unwrap())
            .unwrap();
        let mut planner = Planner::new(&THINGS, lookup, CustomerArea::new(1).unwrap());
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
    fn any_is_a_nested_in_per_navigation_step() {
        let (text, values) = sql("Status eq 1 and not Result/Answers/any()");
        assert!(
            text.contains(r#"NOT "t"."result_id" IN (SELECT "any_0"."id" FROM "results" AS "any_0" WHERE "any_0"."id" IS NOT NULL AND "any_0"."id" IN (SELECT "any_1"."result_id" FROM "answers" AS "any_1" WHERE "any_1"."result_id" IS NOT NULL))"#),
            "{text}"
        );
        assert_eq!(values.0.len(), 1);
        // An optional to-one step not set reaches nothing: `not` then matches the row.
        let (text, _) = sql("not Reviewed/Answers/any()");
        assert!(
            text.contains(r#"NOT ("t"."reviewed_id" IS NOT NULL AND "t"."reviewed_id" IN (SELECT"#),
            "{text}"
        );
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
            let mut planner = Planner::new(&THINGS, lookup, CustomerArea::new(1).unwrap());
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
