//! Read statements kept once built, by everything they are built from.
//!
//! Polling clients send the same read again and again: every scorer's desk asks for
//! its queue and its group's count every few seconds, integrations poll a feed.
//! Building the statement (sea-query's plan, its SQL text, its values) was a tenth
//! of the CPU of such a request (docs/benchmarks.md, "The statement of a read
//! built once"); a statement depends only on what the read asks for, so the text
//! and values built once serve every later read that asks the same. The database
//! still runs each read: nothing read is kept.
//!
//! The key is a fingerprint of the inputs: the entity set, scope, filter, area and
//! lookup. Catalogue entries (`&'static` sets, properties and navigations) are
//! fingerprinted by address, values by their bytes, so two reads share a statement
//! only when they would build the same one.

use std::sync::Arc;

use moka::sync::Cache;

use super::plan::ReadLayout;
use super::query::{Constraint, RowsQuery, Scope};
use crate::model::area::CustomerArea;
use crate::odata::model::{EntitySet, Navigation, Property};
use crate::odata::typed::{Condition, Lookup, PropertyRef};
use crate::odata::value::Value;
use crate::store::engine::Built;

/// How many statements are kept: far more than the shapes of reads a service's
/// clients poll; a miss costs what every read cost before.
const KEPT: u64 = 4_096;

/// The statements of one store (one database, so one dialect).
#[derive(Clone, Default)]
pub struct Statements {
    /// Counts (`$count`, `$inlinecount`).
    pub counts: Kept<Built>,
    /// Reads of rows, with where each part of a row is among the columns.
    pub rows: Kept<(Built, ReadLayout)>,
}

/// Statements of one kind kept by their inputs' fingerprints.
pub struct Kept<V: Send + Sync + 'static> {
    built: Cache<Vec<u8>, Arc<V>>,
}

// By hand: a derived Clone would ask V to be Clone; the cache is shared.
impl<V: Send + Sync + 'static> Clone for Kept<V> {
    fn clone(&self) -> Self {
        Self {
            built: self.built.clone(),
        }
    }
}

impl<V: Send + Sync + 'static> Default for Kept<V> {
    fn default() -> Self {
        Self {
            built: Cache::new(KEPT),
        }
    }
}

impl<V: Send + Sync + 'static> Kept<V> {
    /// The statement fingerprinted `key`, built by `build` the first time.
    pub fn get_or_build(&self, key: Vec<u8>, build: impl FnOnce() -> V) -> Arc<V> {
        if let Some(built) = self.built.get(&key) {
            return built;
        }
        let built = Arc::new(build());
        self.built.insert(key, built.clone());
        built
    }
}

/// The fingerprint of a count of `scope` in `area` filtered by `filter`.
pub fn count_key(
    area: CustomerArea,
    scope: &Scope,
    filter: Option<&Condition>,
    lookup: Lookup,
) -> Vec<u8> {
    let mut key = Fingerprint(Vec::with_capacity(128));
    key.tag(b'C');
    key.area_and_lookup(area, lookup);
    key.scope(scope);
    key.filter(filter);
    key.0
}

/// The fingerprint of a read of rows in `area` (`nulls_smallest`: the dialect's
/// order of nulls, which the plan follows).
pub fn rows_key(area: CustomerArea, query: &RowsQuery<'_>, nulls_smallest: bool) -> Vec<u8> {
    let mut key = Fingerprint(Vec::with_capacity(256));
    key.tag(b'R');
    key.tag(u8::from(nulls_smallest));
    key.area_and_lookup(area, query.lookup);
    key.scope(query.scope);
    key.filter(query.filter);
    key.number(query.order.len() as u64);
    for term in query.order {
        key.property_ref(&term.property);
        key.tag(u8::from(term.descending));
    }
    match query.after {
        None => key.tag(b'-'),
        Some(after) => {
            key.tag(b'>');
            key.values(after);
        }
    }
    key.number(query.limit);
    key.number(query.offset.map_or(u64::MAX, |offset| offset));
    key.number(query.extra.len() as u64);
    for (column, kind) in query.extra {
        key.text(column);
        key.tag(*kind as u8);
    }
    key.number(query.joined.len() as u64);
    for navigation in query.joined {
        key.navigation(navigation);
    }
    key.0
}

struct Fingerprint(Vec<u8>);

impl Fingerprint {
    fn tag(&mut self, tag: u8) {
        self.0.push(tag);
    }

    fn number(&mut self, n: u64) {
        self.0.extend_from_slice(&n.to_le_bytes());
    }

    fn address<T>(&mut self, item: &'static T) {
        self.number(std::ptr::from_ref(item) as usize as u64);
    }

    fn area_and_lookup(&mut self, area: CustomerArea, lookup: Lookup) {
        self.number(u64::from(area.id() as u32));
        self.number(lookup as usize as u64);
    }

    fn set(&mut self, set: &'static EntitySet) {
        self.address(set);
    }

    fn scope(&mut self, scope: &Scope) {
        self.set(scope.set);
        self.number(scope.constraints.len() as u64);
        for constraint in &scope.constraints {
            match constraint {
                Constraint::Equals(property, value) => {
                    self.tag(b'=');
                    self.property(property);
                    self.value(value);
                }
                Constraint::Reached { navigation, from } => {
                    self.tag(b'R');
                    self.navigation(navigation);
                    self.values(from);
                }
                Constraint::ReachedFromAny { navigation, from } => {
                    self.tag(b'A');
                    self.navigation(navigation);
                    self.number(from.len() as u64);
                    for values in from {
                        self.values(values);
                    }
                }
                Constraint::Null(column) => {
                    self.tag(b'N');
                    self.text(column);
                }
                Constraint::NotEqual(column, value) => {
                    self.tag(b'!');
                    self.text(column);
                    self.value(value);
                }
                Constraint::NoSeedCopyOfOthers {
                    result_column,
                    reader,
                } => {
                    self.tag(b'S');
                    self.text(result_column);
                    self.value(reader);
                }
                Constraint::NoOpenTaskOf(questions) => {
                    self.tag(b'P');
                    self.values(questions);
                }
                Constraint::NotOfQuestions(questions) => {
                    self.tag(b'Q');
                    self.values(questions);
                }
            }
        }
    }

    fn filter(&mut self, filter: Option<&Condition>) {
        match filter {
            None => self.tag(b'-'),
            Some(condition) => self.condition(condition),
        }
    }

    fn condition(&mut self, condition: &Condition) {
        match condition {
            Condition::Compare {
                property,
                op,
                value,
            } => {
                self.tag(b'c');
                self.property_ref(property);
                self.number(*op as u64);
                self.value(value);
            }
            Condition::And(a, b) => {
                self.tag(b'&');
                self.condition(a);
                self.condition(b);
            }
            Condition::Or(a, b) => {
                self.tag(b'|');
                self.condition(a);
                self.condition(b);
            }
            Condition::Not(a) => {
                self.tag(b'!');
                self.condition(a);
            }
            Condition::Exists(steps) => {
                self.tag(b'E');
                self.number(steps.len() as u64);
                for step in steps {
                    self.navigation(step);
                }
            }
        }
    }

    fn property(&mut self, property: &'static Property) {
        self.address(property);
    }

    fn navigation(&mut self, navigation: &'static Navigation) {
        self.address(navigation);
    }

    fn property_ref(&mut self, property: &PropertyRef) {
        match property.via {
            None => self.tag(b'.'),
            Some(navigation) => {
                self.tag(b'/');
                self.navigation(navigation);
            }
        }
        self.property(property.property);
    }

    fn text(&mut self, text: &str) {
        self.number(text.len() as u64);
        self.0.extend_from_slice(text.as_bytes());
    }

    fn values(&mut self, values: &[Value]) {
        self.number(values.len() as u64);
        for value in values {
            self.value(value);
        }
    }

    fn value(&mut self, value: &Value) {
        match value {
            Value::Null => self.tag(0),
            Value::Boolean(b) => {
                self.tag(1);
                self.tag(u8::from(*b));
            }
            Value::Int16(n) => {
                self.tag(2);
                self.number(*n as u64);
            }
            Value::Int32(n) => {
                self.tag(3);
                self.number(*n as u64);
            }
            Value::Int64(n) => {
                self.tag(4);
                self.number(*n as u64);
            }
            Value::Double(x) => {
                self.tag(5);
                self.number(x.to_bits());
            }
            Value::String(s) => {
                self.tag(6);
                self.text(s);
            }
            Value::DateTime(ms) => {
                self.tag(7);
                self.number(*ms as u64);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use sea_query::SqliteQueryBuilder;
    use sea_query_binder::{SqlxBinder, SqlxValues};

    use super::super::plan;
    use super::super::test_sets::{lookup, THINGS};
    use super::*;
    use crate::odata::filter::parse;
    use crate::odata::filter_properties::filter as any_filter;
    use crate::odata::typed::Paths;

    fn typed(text: &str) -> Condition {
        Paths::new(&THINGS, lookup)
            .condition(&parse(text).unwrap())
            .unwrap()
    }

    fn key(area: i32, filter: Option<&Condition>) -> Vec<u8> {
        let area = CustomerArea::new(area).unwrap();
        count_key(area, &Scope::all(&THINGS), filter, lookup)
    }

    fn statement(area: i32, filter: Option<&Condition>) -> (String, SqlxValues) {
        let area = CustomerArea::new(area).unwrap();
        plan::count(&Scope::all(&THINGS), area, filter, lookup).build_sqlx(SqliteQueryBuilder)
    }

    #[test]
    fn reads_that_build_different_statements_have_different_keys() {
        let pairs = [
            ("Status eq 1", "Status eq 2"),
            ("Status eq 1", "Status ne 1"),
            ("Status eq 1", "Status eq null"),
            ("QuestionID eq 1L", "Status eq 1"),
            ("ParticipantName eq 'ab'", "ParticipantName eq 'a'"),
            (
                "ParticipantName eq 'a' and Status eq 1",
                "Status eq 1 and ParticipantName eq 'a'",
            ),
            ("Status eq 1 or Status eq 2", "Status eq 1 and Status eq 2"),
            ("Status eq 1", "not (Status eq 1)"),
            ("PercentageScore eq 0.5", "PercentageScore eq 0.25"),
            (
                "Result/WhenFinished eq datetime'2026-01-01T00:00:00'",
                "Result/WhenFinished eq datetime'2026-01-02T00:00:00'",
            ),
        ];
        for (a, b) in pairs {
            let (a, b) = (typed(a), typed(b));
            assert_ne!(statement(1, Some(&a)), statement(1, Some(&b)));
            assert_ne!(key(1, Some(&a)), key(1, Some(&b)), "{a:?} and {b:?}");
        }
        let status = typed("Status eq 1");
        assert_ne!(key(1, Some(&status)), key(2, Some(&status)), "the area");
        assert_ne!(key(1, Some(&status)), key(1, None), "no filter");
        let mut scoped = Scope::all(&THINGS);
        scoped
            .constraints
            .push(Constraint::Equals(&THINGS.properties[1], Value::Int32(3)));
        let area = CustomerArea::new(1).unwrap();
        assert_ne!(
            count_key(area, &scoped, None, lookup),
            key(1, None),
            "a constraint"
        );
    }

    #[test]
    fn a_statement_kept_is_the_one_its_key_was_built_from() {
        let statements = Statements::default();
        let store_build = |filter: &Condition| {
            let (sql, values) = statement(1, Some(filter));
            Built { sql, values }
        };
        for text in ["Status eq 1", "Status eq 2", "Status eq 1"] {
            let filter = typed(text);
            let kept = statements
                .counts
                .get_or_build(key(1, Some(&filter)), || store_build(&filter));
            let (sql, values) = statement(1, Some(&filter));
            assert_eq!((&kept.sql, &kept.values), (&sql, &values), "{text}");
        }
    }

    #[test]
    fn reads_of_rows_that_build_different_statements_have_different_keys() {
        let scope = Scope::all(&THINGS);
        let status = typed("Status eq 0");
        let paths = Paths::new(&THINGS, lookup);
        let order = |text: &str| {
            paths
                .order(&crate::odata::orderby::parse(text).unwrap())
                .unwrap()
        };
        let (asc, desc) = (
            order("Result/WhenFinished"),
            order("Result/WhenFinished desc"),
        );
        let after = [Value::DateTime(5), Value::Int64(7)];
        let later = [Value::DateTime(5), Value::Int64(8)];
        let result = &THINGS.navigations[0];
        let extra = [("result_id", crate::odata::edm::EdmType::Int32)];
        let base = RowsQuery::first_page(&scope, Some(&status), &asc, 50, lookup);
        let variants: Vec<RowsQuery> = vec![
            RowsQuery::first_page(&scope, Some(&status), &asc, 50, lookup),
            RowsQuery::first_page(&scope, None, &asc, 50, lookup),
            RowsQuery::first_page(&scope, Some(&status), &desc, 50, lookup),
            RowsQuery::first_page(&scope, Some(&status), &asc, 51, lookup),
            RowsQuery {
                after: Some(&after),
                ..RowsQuery::first_page(&scope, Some(&status), &asc, 50, lookup)
            },
            RowsQuery {
                after: Some(&later),
                ..RowsQuery::first_page(&scope, Some(&status), &asc, 50, lookup)
            },
            RowsQuery {
                offset: Some(100),
                ..RowsQuery::first_page(&scope, Some(&status), &asc, 50, lookup)
            },
            RowsQuery {
                extra: &extra,
                ..RowsQuery::first_page(&scope, Some(&status), &asc, 50, lookup)
            },
            RowsQuery {
                joined: std::slice::from_ref(&result),
                ..RowsQuery::first_page(&scope, Some(&status), &asc, 50, lookup)
            },
        ];
        let area = CustomerArea::new(1).unwrap();
        let built = |query: &RowsQuery, nulls_smallest: bool| {
            query
                .plan(area, nulls_smallest)
                .statement
                .build_sqlx(SqliteQueryBuilder)
        };
        for (i, a) in variants.iter().enumerate() {
            assert_eq!(rows_key(area, a, true), rows_key(area, a, true));
            for b in &variants[i + 1..] {
                if built(a, true) != built(b, true) {
                    assert_ne!(rows_key(area, a, true), rows_key(area, b, true));
                }
            }
        }
        assert_eq!(
            rows_key(area, &base, true),
            rows_key(area, &variants[0], true)
        );
        assert_ne!(
            built(&base, true),
            built(&base, false),
            "the dialect's nulls"
        );
        assert_ne!(rows_key(area, &base, true), rows_key(area, &base, false));
        let other = CustomerArea::new(2).unwrap();
        assert_ne!(rows_key(area, &base, true), rows_key(other, &base, true));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// The same read asked twice has one key; two generated reads with one key
        /// build one statement (text and values).
        #[test]
        fn one_key_one_statement(a in any_filter(), b in any_filter()) {
            let paths = Paths::new(&THINGS, lookup);
            let (Ok(a), Ok(b), Ok(again)) = (paths.condition(&a), paths.condition(&b), paths.condition(&a)) else {
                return Ok(());
            };
            prop_assert_eq!(key(1, Some(&a)), key(1, Some(&again)));
            // (Different keys for one statement only cost a build: -0.0 and 0.0.)
            if key(1, Some(&a)) == key(1, Some(&b)) {
                prop_assert_eq!(statement(1, Some(&a)), statement(1, Some(&b)));
            }
        }
    }
}
