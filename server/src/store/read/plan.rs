//! SQL for reading entity sets, planned from their declarations: a property reached
//! through a navigation becomes a join (or, for a copied property, the local
//! column), the order is made total by appending the entity key, and continuation is
//! by keyset (the last row's order values), never by OFFSET.

use sea_query::{Alias, Expr, JoinType, Order, Query, SelectStatement};

use super::condition;
use super::counted;
use super::keyset::{keyset_conditions, SortTerm};
use super::paged::PagedSelect;
use super::planner::Planner;
use super::query::{JoinedRow, RowsQuery, Scope};
use super::sql::{all_of, column, expansion_alias, join_alias, AREA_COLUMN, BASE};
use crate::model::area::CustomerArea;
use crate::odata::edm::EdmType;
use crate::odata::model::{EntitySet, MediaType, Navigation, Property};
use crate::odata::typed::{Condition, Lookup, OrderTerm};
use crate::odata::value::Value;

/// A planned read: the statement and how to read its columns back.
pub struct PlannedRead {
    pub statement: PagedSelect,
    pub layout: ReadLayout,
}

/// Where each part of a planned read's rows is among its columns.
pub struct ReadLayout {
    /// The kinds of every selected column, in order.
    pub kinds: Vec<EdmType>,
    /// Where the media type column is, for media-link entries.
    pub media_type_index: Option<usize>,
    /// Where the order values that are not properties of the row start.
    pub order_start: usize,
    /// Where each order value (for the next page's continuation) comes from.
    pub order: Vec<OrderValue>,
    /// Where the extra columns start.
    pub extra_start: usize,
    /// Where the joined targets' columns start, and each target's columns.
    pub joined_start: usize,
    pub joined: Vec<JoinedColumns>,
}

/// Where a row's order value is: one of its stored properties (a key part, an
/// `$orderby` property of the entity itself), which is not selected twice, or the
/// next of the columns from `order_start` (a navigation's property, a copied one).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum OrderValue {
    Property(usize),
    Selected,
}

/// One joined target's columns, in the order they follow `joined_start`.
pub struct JoinedColumns {
    /// Its stored properties' count.
    pub width: usize,
    /// Its key's first column among them: null when there is no target.
    pub key_index: usize,
    /// Its media type column, right after its properties, when stored per row.
    pub media_type: bool,
}

/// The kinds of the order values of a read (what a continuation carries), in the
/// order the plan sorts by: `$orderby`'s keys, then the entity key.
pub fn order_kinds(set: &'static EntitySet, order: &[OrderTerm]) -> Vec<EdmType> {
    order
        .iter()
        .map(|term| term.property.property.edm)
        .chain(key_order(set, order).iter().map(|p| p.edm))
        .collect()
}

/// The key properties in the order they sort: key parts that the first order key's
/// navigation joins on come first, so that the target's index delivers (value, join
/// column) order without a sort.
fn key_order(set: &'static EntitySet, order: &[OrderTerm]) -> Vec<&'static Property> {
    let joined: Vec<&str> = order
        .first()
        .and_then(|term| term.property.via)
        .map(|n| n.on.iter().map(|(near, _)| *near).collect())
        .unwrap_or_default();
    let mut keys = stored_key_order(set);
    keys.sort_by_key(|p| !joined.contains(&p.column));
    keys
}

/// The key properties in the order the table's primary key stores them, which is
/// the order a page is read in without a sort. Answers are keyed result-first
/// (migration 13: an upload writes a result's answers together), though their key
/// is written question-first in URLs.
fn stored_key_order(set: &'static EntitySet) -> Vec<&'static Property> {
    let mut keys: Vec<&'static Property> = set.key_properties().collect();
    if set.table == "answers" {
        keys.sort_by_key(|p| p.column != "result_id");
    }
    keys
}

impl RowsQuery<'_> {
    /// Plans the read for `area`; `nulls_smallest` says whether the backend sorts NULL
    /// before every value in ascending order (SQLite) or after (PostgreSQL).
    pub fn plan(&self, area: CustomerArea, nulls_smallest: bool) -> PlannedRead {
        let set = self.scope.set;
        let mut planner = Planner::new(set, self.lookup, area);
        if nulls_smallest {
            planner.lead = leading_navigation(self.order);
        }
        let mut select = Query::select();
        select.and_where(Expr::expr(column(BASE, AREA_COLUMN)).eq(area.id()));
        if let Some(lead) = planner.lead {
            // The leading table is walked through its (customer_id, ...) index.
            select.and_where(Expr::expr(column(&join_alias(lead), AREA_COLUMN)).eq(area.id()));
        }
        if let Some(scope) = condition::scope(self.scope) {
            select.and_where(scope);
        }
        if let Some(filter) = self.filter {
            select.and_where(condition::filter(filter, &mut planner));
        }
        let terms = self.sort_terms(&mut planner);
        let mut kinds = Vec::new();
        let mut property_columns = Vec::new();
        for property in set.stored_properties() {
            let expr = column(BASE, property.column);
            select.expr(expr.clone());
            property_columns.push(expr);
            kinds.push(property.edm);
        }
        let mut media_type_index = None;
        if let Some(media) = &set.media {
            if let MediaType::Column(name) = media.media_type {
                media_type_index = Some(kinds.len());
                select.expr(column(BASE, name));
                kinds.push(EdmType::String);
            }
        }
        let order_start = kinds.len();
        let mut order = Vec::with_capacity(terms.len());
        for term in &terms {
            match property_columns.iter().position(|c| *c == term.expr) {
                Some(index) => order.push(OrderValue::Property(index)),
                None => {
                    select.expr(term.expr.clone());
                    kinds.push(term.edm);
                    order.push(OrderValue::Selected);
                }
            }
            select.order_by_expr(
                term.expr.clone(),
                if term.descending {
                    Order::Desc
                } else {
                    Order::Asc
                },
            );
        }
        let extra_start = kinds.len();
        for (name, kind) in self.extra {
            select.expr(column(BASE, name));
            kinds.push(*kind);
        }
        if let Some(after) = self.after {
            for condition in keyset_conditions(&terms, after, nulls_smallest) {
                select.and_where(condition);
            }
        }
        planner.apply_from(&mut select);
        planner.apply_joins(&mut select);
        let joined_start = kinds.len();
        let joined = self
            .joined
            .iter()
            .map(|navigation| {
                let target = planner.target(navigation);
                join_target(&mut select, area, navigation, target, &mut kinds)
            })
            .collect();
        PlannedRead {
            statement: PagedSelect {
                select,
                limit: self.limit,
                offset: self.offset.filter(|_| self.after.is_none()),
            },
            layout: ReadLayout {
                kinds,
                media_type_index,
                order_start,
                order,
                extra_start,
                joined_start,
                joined,
            },
        }
    }

    /// `$orderby`'s keys, then the entity key in the last key's direction.
    fn sort_terms(&self, planner: &mut Planner) -> Vec<SortTerm> {
        let mut terms: Vec<SortTerm> = self
            .order
            .iter()
            .map(|term| SortTerm {
                expr: planner.column_of(&term.property),
                edm: term.property.property.edm,
                nullable: term.property.nullable(),
                descending: term.descending,
            })
            .collect();
        let descending = self.order.last().is_some_and(|t| t.descending);
        let lead = planner.lead;
        for property in key_order(self.scope.set, self.order) {
            // A key part equal to the leading table's column is ordered through that
            // column, so that the leading table's index supplies the order.
            let expr =
                match lead.and_then(|n| n.on.iter().find(|(near, _)| *near == property.column)) {
                    Some((_, far)) => column(&join_alias(lead.expect("found through lead")), far),
                    None => column(BASE, property.column),
                };
            terms.push(SortTerm {
                expr,
                edm: property.edm,
                nullable: false,
                descending,
            });
        }
        terms
    }
}

impl JoinedColumns {
    /// The target in the next of a row's joined columns (taken in order); `None`
    /// when the join found none.
    pub fn read(&self, values: &mut impl Iterator<Item = Value>) -> Option<JoinedRow> {
        let own: Vec<Value> = values.by_ref().take(self.width).collect();
        let media_type = match self.media_type.then(|| values.next()).flatten() {
            Some(Value::String(media_type)) => Some(media_type),
            _ => None,
        };
        (own.get(self.key_index) != Some(&Value::Null)).then_some(JoinedRow {
            values: own,
            media_type,
        })
    }
}

/// LEFT JOINs `navigation`'s target (in the area) and selects its stored
/// properties, and its media type where stored per row, after `kinds`' columns.
fn join_target(
    select: &mut SelectStatement,
    area: CustomerArea,
    navigation: &'static Navigation,
    target: &'static EntitySet,
    kinds: &mut Vec<EdmType>,
) -> JoinedColumns {
    let alias = expansion_alias(navigation);
    let on = navigation.on.iter().map(|(near, far)| {
        Expr::expr(column(&alias, far)).equals((Alias::new(BASE), Alias::new(*near)))
    });
    let in_area = Expr::expr(column(&alias, AREA_COLUMN)).eq(area.id());
    select.join_as(
        JoinType::LeftJoin,
        Alias::new(target.table),
        Alias::new(alias.as_str()),
        all_of(on.chain([in_area])),
    );
    let stored = target.stored_properties();
    let key_index = stored
        .iter()
        .position(|p| p.name == target.key[0])
        .expect("a key is stored");
    for property in &stored {
        select.expr(column(&alias, property.column));
        kinds.push(property.edm);
    }
    let media_type = match target.media.map(|m| m.media_type) {
        Some(MediaType::Column(name)) => {
            select.expr(column(&alias, name));
            kinds.push(EdmType::String);
            true
        }
        _ => false,
    };
    JoinedColumns {
        width: stored.len(),
        key_index,
        media_type,
    }
}

/// On SQLite, ordering by a property of a required to-one navigation (such as
/// `Result/WhenFinished` on Answers) is fast only when the query walks the
/// navigation's table in that order and probes the base table for each row. SQLite
/// keeps that plan only if the join order is fixed, which `CROSS JOIN` does.
fn leading_navigation(order: &[OrderTerm]) -> Option<&'static Navigation> {
    let first = order.first()?;
    let navigation = first.property.via?;
    let leads = !navigation.many
        && navigation.required
        && navigation.through.is_none()
        // A copied property is ordered by the local column: no need to lead.
        && !navigation
            .copied
            .iter()
            .any(|(name, _)| *name == first.property.property.name);
    leads.then_some(navigation)
}

/// `SELECT COUNT(*)` over what a read of `scope` filtered by `filter` returns,
/// ignoring paging; or the sum of counts the database keeps for it (`counted`).
pub fn count(
    scope: &Scope,
    area: CustomerArea,
    filter: Option<&Condition>,
    lookup: Lookup,
) -> SelectStatement {
    let mut planner = Planner::new(scope.set, lookup, area);
    if let Some(sum) = counted::count(scope, filter, &planner) {
        return sum;
    }
    let mut select = Query::select();
    select
        .from_as(Alias::new(scope.set.table), Alias::new(BASE))
        .expr(Expr::cust("COUNT(*)"));
    select.and_where(Expr::expr(column(BASE, AREA_COLUMN)).eq(area.id()));
    if let Some(condition) = condition::scope(scope) {
        select.and_where(condition);
    }
    if let Some(filter) = filter {
        select.and_where(condition::filter(filter, &mut planner));
    }
    planner.apply_joins(&mut select);
    select
}

/// `SELECT <columns> ... LIMIT 1` of the first row `scope` selects.
pub fn first_row(scope: &Scope, area: CustomerArea, columns: &[&str]) -> SelectStatement {
    let mut select = Query::select();
    select.from_as(Alias::new(scope.set.table), Alias::new(BASE));
    select.and_where(Expr::expr(column(BASE, AREA_COLUMN)).eq(area.id()));
    if let Some(condition) = condition::scope(scope) {
        select.and_where(condition);
    }
    for name in columns {
        select.expr(column(BASE, name));
    }
    select.limit(1);
    select
}

#[cfg(test)]
mod tests {
    use sea_query::SqliteQueryBuilder;

    use super::super::test_sets::{lookup, THINGS};
    use super::*;
    use crate::odata::typed::Paths;

    /// The layout and SQL of a first page of THINGS in `orderby`'s order.
    fn planned(orderby: &str, nulls_smallest: bool) -> (ReadLayout, String) {
        let order = Paths::new(&THINGS, lookup)
            .order(&crate::odata::orderby::parse(orderby).unwrap())
            .unwrap();
        let scope = Scope::all(&THINGS);
        let query = RowsQuery::first_page(&scope, None, &order, 50, lookup);
        let planned = query.plan(CustomerArea::new(1).unwrap(), nulls_smallest);
        let sql = planned.statement.to_string(SqliteQueryBuilder);
        (planned.layout, sql)
    }

    /// The select list of `sql` (what comes before FROM).
    fn selected(sql: &str) -> &str {
        sql.split(" FROM ").next().unwrap()
    }

    #[test]
    fn order_values_that_are_properties_of_the_row_are_taken_from_it_not_selected_again() {
        let properties = THINGS.stored_properties().len();
        // `Status desc`, then the key: both are the row's own properties.
        let (layout, sql) = planned("Status desc", false);
        assert_eq!(
            layout.order,
            [OrderValue::Property(1), OrderValue::Property(0)]
        );
        assert_eq!(layout.order_start, properties);
        assert_eq!(layout.kinds.len(), properties, "no column selected twice");
        assert_eq!(
            selected(&sql).matches(r#""t"."status""#).count(),
            1,
            "{sql}"
        );
        assert_eq!(
            selected(&sql).matches(r#""t"."question_id""#).count(),
            1,
            "{sql}"
        );
        assert!(
            sql.contains(r#"ORDER BY "t"."status" DESC, "t"."question_id" DESC"#),
            "{sql}"
        );
    }

    #[test]
    fn an_order_value_of_a_navigation_is_selected_after_the_properties() {
        let properties = THINGS.stored_properties().len();
        for nulls_smallest in [false, true] {
            let (layout, sql) = planned("Result/WhenFinished desc", nulls_smallest);
            assert_eq!(
                layout.order,
                [OrderValue::Selected, OrderValue::Property(0)],
                "{sql}"
            );
            assert_eq!(layout.order_start, properties);
            assert_eq!(layout.kinds[properties..], [EdmType::DateTime], "{sql}");
            assert!(selected(&sql).contains(r#""when_finished""#), "{sql}");
        }
    }
}
