//! SQL for reading entity sets, planned from their declarations: property paths
//! become columns (joining a to-one navigation when a path crosses one), `$orderby`
//! gets the entity key appended so that the order is total, and continuation is by
//! keyset (`$skiptoken` holds the last row's order values), never by OFFSET.

use sea_query::{
    Alias, Expr, IntoIden, JoinType, Order, Query, SelectStatement, SimpleExpr, Value as SqlValue,
};

use super::edm::EdmType;
use super::filter::{Filter, PropertyPath};
use super::filter_sql::{to_condition, Resolver};
use super::model::{EntitySet, MediaType, Navigation, Property};
use super::orderby::OrderKey;
use super::skiptoken;
use super::value::Value;
use super::ApiError;

/// The alias of the entity set's own table in every query.
pub const BASE: &str = "t";

/// The column that carries the customer area in every table.
const AREA_COLUMN: &str = "customer_id";

pub type Lookup = fn(&str) -> Option<&'static EntitySet>;

/// `a AND b AND ...`; `1 = 1` only when there is nothing to join. Conditions are
/// built without constant terms because SQLite's planner does not see through them
/// (an OR of `1 = 1 AND id = ?` is a scan, an IN list is index lookups).
pub fn all_of(terms: impl IntoIterator<Item = SimpleExpr>) -> SimpleExpr {
    terms
        .into_iter()
        .reduce(SimpleExpr::and)
        .unwrap_or_else(|| Expr::cust("1 = 1"))
}

/// `a OR b OR ...`; `1 = 0` when there is nothing to join.
pub fn any_of(terms: impl IntoIterator<Item = SimpleExpr>) -> SimpleExpr {
    terms
        .into_iter()
        .reduce(SimpleExpr::or)
        .unwrap_or_else(|| Expr::cust("1 = 0"))
}

pub fn column(alias: &str, name: &str) -> SimpleExpr {
    Expr::col((Alias::new(alias), Alias::new(name))).into()
}

fn join_alias(navigation: &Navigation) -> String {
    format!("n_{}", navigation.name)
}

/// Resolves property paths of one entity set and remembers the joins they need.
pub struct Planner {
    set: &'static EntitySet,
    lookup: Lookup,
    joins: Vec<&'static Navigation>,
    /// A navigation whose table leads the FROM clause (see `leading_navigation`).
    lead: Option<&'static Navigation>,
}

impl Planner {
    pub fn new(set: &'static EntitySet, lookup: Lookup) -> Self {
        Self {
            set,
            lookup,
            joins: Vec::new(),
            lead: None,
        }
    }

    /// Every path `$filter` and `$orderby` accept on this set, for error messages.
    pub fn allowed_paths(&self) -> Vec<String> {
        let mut paths: Vec<String> = self
            .set
            .filterable
            .iter()
            .map(|p| (*p).to_owned())
            .collect();
        for navigation in self.to_one_navigations() {
            if let Some(target) = (self.lookup)(navigation.target) {
                paths.extend(
                    target
                        .filterable
                        .iter()
                        .map(|p| format!("{}/{p}", navigation.name)),
                );
            }
        }
        paths
    }

    fn to_one_navigations(&self) -> impl Iterator<Item = &'static Navigation> + '_ {
        self.set
            .navigations
            .iter()
            .filter(|n| !n.many && n.through.is_none())
    }

    fn refuse(&self, path: &PropertyPath) -> ApiError {
        ApiError::bad_request(format!(
            "'{path}' cannot be used in $filter or $orderby on {}; the properties allowed are {}",
            self.set.name,
            self.allowed_paths().join(", ")
        ))
    }

    fn add_join(&mut self, navigation: &'static Navigation) {
        if !self.joins.iter().any(|n| n.name == navigation.name) {
            self.joins.push(navigation);
        }
    }

    fn join_condition(navigation: &Navigation) -> SimpleExpr {
        let alias = join_alias(navigation);
        all_of(navigation.on.iter().map(|(near, far)| {
            Expr::expr(column(&alias, far)).equals((Alias::new(BASE), Alias::new(*near)))
        }))
    }

    /// FROM the base table, or (see `leading_navigation`) FROM the navigation's
    /// table CROSS JOIN the base table, which fixes SQLite's join order.
    fn apply_from(&self, select: &mut SelectStatement) {
        match self.lead {
            None => {
                select.from_as(Alias::new(self.set.table), Alias::new(BASE));
            }
            Some(navigation) => {
                let target =
                    (self.lookup)(navigation.target).expect("navigation targets are declared");
                select.from_as(Alias::new(target.table), Alias::new(join_alias(navigation)));
                select.join_as(
                    JoinType::CrossJoin,
                    Alias::new(self.set.table),
                    Alias::new(BASE),
                    Self::join_condition(navigation),
                );
            }
        }
    }

    fn apply_joins(&self, select: &mut SelectStatement) {
        for navigation in self
            .joins
            .iter()
            .filter(|n| self.lead.is_none_or(|lead| lead.name != n.name))
        {
            let target = (self.lookup)(navigation.target).expect("navigation targets are declared");
            let alias = join_alias(navigation);
            let on = Self::join_condition(navigation);
            let kind = if navigation.required {
                JoinType::InnerJoin
            } else {
                JoinType::LeftJoin
            };
            select.join_as(kind, Alias::new(target.table), Alias::new(alias), on);
        }
    }
}

impl Resolver for Planner {
    fn resolve(&mut self, path: &PropertyPath) -> Result<(SimpleExpr, EdmType), ApiError> {
        match path.segments() {
            [name] if self.set.filterable.contains(&name.as_str()) => {
                let property = self
                    .set
                    .property(name)
                    .expect("filterable properties are declared");
                Ok((column(BASE, property.column), property.edm))
            }
            [navigation, name] => {
                let navigation = self
                    .to_one_navigations()
                    .find(|n| n.name == *navigation)
                    .ok_or_else(|| self.refuse(path))?;
                let target =
                    (self.lookup)(navigation.target).expect("navigation targets are declared");
                if !target.filterable.contains(&name.as_str()) {
                    return Err(self.refuse(path));
                }
                let property = target
                    .property(name)
                    .expect("filterable properties are declared");
                if let Some((_, local)) = navigation.copied.iter().find(|(p, _)| p == name) {
                    return Ok((column(BASE, local), property.edm));
                }
                self.add_join(navigation);
                Ok((
                    column(&join_alias(navigation), property.column),
                    property.edm,
                ))
            }
            _ => Err(self.refuse(path)),
        }
    }
}

/// A read of a collection, before planning.
pub struct CollectionRead<'a> {
    pub set: &'static EntitySet,
    pub area: i32,
    /// A condition from the path (a navigation from another entity).
    pub base: Option<SimpleExpr>,
    pub filter: Option<&'a Filter>,
    pub orderby: &'a [OrderKey],
    pub properties: &'a [&'static Property],
    pub skiptoken: Option<&'a str>,
    pub limit: u64,
    pub offset: Option<u64>,
    /// Whether the backend sorts NULL before every value in ascending order (SQLite)
    /// or after (PostgreSQL).
    pub nulls_smallest: bool,
    /// Further columns to select after the order values (join values for `$expand`).
    pub extra: &'a [(SimpleExpr, EdmType)],
}

/// A planned read: the statement and how to read its columns back.
pub struct PlannedRead {
    pub statement: SelectStatement,
    /// The kinds of every selected column, in order.
    pub kinds: Vec<EdmType>,
    /// Where the media type column is, for media-link entries.
    pub media_type_index: Option<usize>,
    /// Where the order values start (for the next page's token).
    pub order_start: usize,
    /// Where the extra columns start.
    pub extra_start: usize,
    pub fingerprint: String,
}

struct OrderTerm {
    expr: SimpleExpr,
    edm: EdmType,
    nullable: bool,
    descending: bool,
}

impl CollectionRead<'_> {
    pub fn plan(&self, lookup: Lookup) -> Result<PlannedRead, ApiError> {
        let mut planner = Planner::new(self.set, lookup);
        if self.nulls_smallest {
            planner.lead = leading_navigation(self.set, self.orderby);
        }
        let mut select = Query::select();
        select.and_where(Expr::expr(column(BASE, AREA_COLUMN)).eq(self.area));
        if let Some(lead) = planner.lead {
            // The leading table is walked through its (customer_id, ...) index.
            select.and_where(Expr::expr(column(&join_alias(lead), AREA_COLUMN)).eq(self.area));
        }
        if let Some(base) = &self.base {
            select.and_where(base.clone());
        }
        if let Some(filter) = self.filter {
            select.and_where(to_condition(filter, &mut planner)?);
        }
        let terms = self.order_terms(&mut planner)?;
        let mut kinds = Vec::new();
        for property in self.properties {
            select.expr(column(BASE, property.column));
            kinds.push(property.edm);
        }
        let mut media_type_index = None;
        if let Some(media) = &self.set.media {
            if let MediaType::Column(name) = media.media_type {
                media_type_index = Some(kinds.len());
                select.expr(column(BASE, name));
                kinds.push(EdmType::String);
            }
        }
        let order_start = kinds.len();
        for term in &terms {
            select.expr(term.expr.clone());
            kinds.push(term.edm);
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
        for (expr, kind) in self.extra {
            select.expr(expr.clone());
            kinds.push(*kind);
        }
        let fingerprint = skiptoken::fingerprint(self.set.name, self.filter, self.orderby);
        if let Some(token) = self.skiptoken {
            let kinds: Vec<EdmType> = terms.iter().map(|t| t.edm).collect();
            let after = skiptoken::decode(token, &fingerprint, &kinds)?;
            for condition in keyset_conditions(&terms, &after, self.nulls_smallest) {
                select.and_where(condition);
            }
        }
        planner.apply_from(&mut select);
        planner.apply_joins(&mut select);
        select.limit(self.limit);
        if let Some(offset) = self.offset.filter(|_| self.skiptoken.is_none()) {
            select.offset(offset);
        }
        Ok(PlannedRead {
            statement: select,
            kinds,
            media_type_index,
            order_start,
            extra_start,
            fingerprint,
        })
    }

    /// `$orderby`'s keys, then the entity key in the last key's direction.
    fn order_terms(&self, planner: &mut Planner) -> Result<Vec<OrderTerm>, ApiError> {
        let mut terms = Vec::new();
        for key in self.orderby {
            let (expr, edm) = planner.resolve(&key.path)?;
            let nullable = nullable_path(self.set, planner.lookup, &key.path);
            terms.push(OrderTerm {
                expr,
                edm,
                nullable,
                descending: key.descending,
            });
        }
        let descending = self.orderby.last().is_some_and(|k| k.descending);
        // Key parts that the first order key's navigation joins on come first: the
        // target's index then delivers (value, join column) order without a sort.
        let joined: Vec<&str> = self
            .orderby
            .first()
            .and_then(|k| {
                k.path
                    .segments()
                    .first()
                    .and_then(|n| self.set.navigation(n))
            })
            .map(|n| n.on.iter().map(|(near, _)| *near).collect())
            .unwrap_or_default();
        let mut keys: Vec<&'static Property> = self.set.key_properties().collect();
        keys.sort_by_key(|p| !joined.contains(&p.column));
        let lead = if self.nulls_smallest {
            leading_navigation(self.set, self.orderby)
        } else {
            None
        };
        for property in keys {
            // A key part equal to the leading table's column is ordered through that
            // column, so that the leading table's index supplies the order.
            if let Some((_, far)) =
                lead.and_then(|n| n.on.iter().find(|(near, _)| *near == property.column))
            {
                let expr = column(&join_alias(lead.expect("found through lead")), far);
                terms.push(OrderTerm {
                    expr,
                    edm: property.edm,
                    nullable: false,
                    descending,
                });
                continue;
            }
            terms.push(OrderTerm {
                expr: column(BASE, property.column),
                edm: property.edm,
                nullable: false,
                descending,
            });
        }
        Ok(terms)
    }
}

/// On SQLite, ordering by a property of a required to-one navigation (such as
/// `Result/WhenFinished` on ScoringTasks) is fast only when the query walks the
/// navigation's table in that order and probes the base table for each row. SQLite
/// keeps that plan only if the join order is fixed, which `CROSS JOIN` does.
fn leading_navigation(set: &EntitySet, orderby: &[OrderKey]) -> Option<&'static Navigation> {
    let first = orderby.first()?;
    let [navigation, property] = first.path.segments() else {
        return None;
    };
    set.navigations.iter().find(|n| {
        n.name == *navigation
            && !n.many
            && n.required
            && n.through.is_none()
            // A copied property is ordered by the local column: no need to lead.
            && !n.copied.iter().any(|(p, _)| p == property)
    })
}

fn nullable_path(set: &EntitySet, lookup: Lookup, path: &PropertyPath) -> bool {
    match path.segments() {
        [name] => set.property(name).is_none_or(|p| p.nullable),
        [navigation, name] => {
            let Some(navigation) = set.navigation(navigation) else {
                return true;
            };
            !navigation.required
                || lookup(navigation.target)
                    .and_then(|t| t.property(name))
                    .is_none_or(|p| p.nullable)
        }
        _ => true,
    }
}

/// The conditions that select the rows after `after` in the order of `terms`:
/// `k1 > v1 OR (k1 = v1 AND (k2 > v2 OR ...))`, plus a plain range on the first key
/// where it is exact, so that the database can seek instead of scanning.
fn keyset_conditions(
    terms: &[OrderTerm],
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
    term: &OrderTerm,
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

/// `SELECT COUNT(*)` over what a collection read would return, ignoring paging.
pub fn plan_count(
    set: &'static EntitySet,
    area: i32,
    base: Option<SimpleExpr>,
    filter: Option<&Filter>,
    lookup: Lookup,
) -> Result<SelectStatement, ApiError> {
    let mut planner = Planner::new(set, lookup);
    let mut select = Query::select();
    select
        .from_as(Alias::new(set.table), Alias::new(BASE))
        .expr(Expr::cust("COUNT(*)"));
    select.and_where(Expr::expr(column(BASE, AREA_COLUMN)).eq(area));
    if let Some(base) = base {
        select.and_where(base);
    }
    if let Some(filter) = filter {
        select.and_where(to_condition(filter, &mut planner)?);
    }
    planner.apply_joins(&mut select);
    Ok(select)
}

/// The condition selecting the target rows of `navigation` from a source row whose
/// `on` columns hold `source` values (one per pair).
pub fn navigation_condition(navigation: &Navigation, source: &[Value]) -> SimpleExpr {
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

/// The condition selecting one entity by its key.
pub fn key_condition(
    key: &[(&'static Property, super::filter::Literal)],
) -> Result<SimpleExpr, ApiError> {
    let mut terms = Vec::with_capacity(key.len());
    for (property, literal) in key {
        let path = PropertyPath::new(vec![property.name.to_owned()]);
        let value =
            super::filter_sql::bound_value(&path, property.edm, literal)?.ok_or_else(|| {
                ApiError::bad_request(format!("the key '{}' cannot be null", property.name))
            })?;
        terms.push(Expr::expr(column(BASE, property.column)).eq(value));
    }
    Ok(all_of(terms))
}
