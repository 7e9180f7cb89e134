//! Reading entities into [`EntityOut`]s, with `$expand` done as one query per
//! expanded navigation (never one per entity), at most two levels deep.

use std::collections::HashMap;

use sea_query::{Expr, SimpleExpr};

use super::resolve::join_kinds;
use crate::feeds::entities;
use crate::odata::edm::EdmType;
use crate::odata::filter::Filter;
use crate::odata::json::{EntityOut, Expanded};
use crate::odata::model::{EntitySet, Navigation, Property};
use crate::odata::orderby::OrderKey;
use crate::odata::sql::{all_of, any_of, column, sql_value, CollectionRead, BASE};
use crate::odata::value::Value;
use crate::odata::ApiError;
use crate::store::Backend;
use crate::AppState;

/// The most entities an expanded collection holds, per parent.
pub const EXPANDED_COLLECTION_LIMIT: usize = 100;

/// An entity read from the store, with the order values of its row.
pub struct Fetched {
    pub entity: EntityOut,
    pub order_values: Vec<Value>,
    hidden: Vec<Value>,
}

/// What to read: the entity set's rows under `base`, filtered, ordered and paged.
pub struct Read<'a> {
    pub set: &'static EntitySet,
    pub base: Option<SimpleExpr>,
    pub filter: Option<&'a Filter>,
    pub orderby: &'a [OrderKey],
    pub skiptoken: Option<&'a str>,
    pub limit: u64,
    pub offset: Option<u64>,
    pub expand: &'a [Vec<String>],
}

/// The stored (not computed) properties of a set, in declaration order.
fn stored_properties(set: &'static EntitySet) -> Vec<&'static Property> {
    set.properties
        .iter()
        .filter(|p| !p.column.is_empty())
        .collect()
}

/// Validates `$expand` paths against `set`; returns the navigations of the first level.
fn expand_navigations(
    set: &'static EntitySet,
    expand: &[Vec<String>],
) -> Result<Vec<&'static Navigation>, ApiError> {
    let mut navigations: Vec<&'static Navigation> = Vec::new();
    for path in expand {
        let mut from = set;
        for (depth, name) in path.iter().enumerate() {
            let navigation = from.navigation(name).ok_or_else(|| {
                let names: Vec<&str> = from.navigations.iter().map(|n| n.name).collect();
                ApiError::bad_request(format!(
                    "$expand: {} has no navigation property '{name}'; it has {}",
                    from.type_name,
                    if names.is_empty() {
                        "none".to_owned()
                    } else {
                        names.join(", ")
                    }
                ))
            })?;
            if navigation.through.is_some() {
                return Err(ApiError::bad_request(format!(
                    "$expand: '{name}' cannot be expanded; read it by navigation"
                )));
            }
            if depth == 0 && !navigations.iter().any(|n| n.name == navigation.name) {
                navigations.push(navigation);
            }
            from = entities::by_name(navigation.target).expect("navigation targets are declared");
        }
    }
    Ok(navigations)
}

/// Reads `read`'s rows. `prefix` columns are selected first among the hidden ones:
/// expansions use them to group children under their parents.
pub async fn read(
    state: &AppState,
    area: i32,
    read: Read<'_>,
    prefix: &[(SimpleExpr, EdmType)],
) -> Result<(Vec<Fetched>, String), ApiError> {
    let navigations = expand_navigations(read.set, read.expand)?;
    let properties = stored_properties(read.set);
    let mut hidden: Vec<(SimpleExpr, EdmType)> = prefix.to_vec();
    for navigation in &navigations {
        for ((near, _), kind) in navigation.on.iter().zip(join_kinds(read.set, navigation)) {
            hidden.push((column(BASE, near), kind));
        }
    }
    let collection = CollectionRead {
        set: read.set,
        area,
        base: read.base,
        filter: read.filter,
        orderby: read.orderby,
        properties: &properties,
        skiptoken: read.skiptoken,
        limit: read.limit,
        offset: read.offset,
        nulls_smallest: state.store.backend() == Backend::Sqlite,
        extra: &hidden,
    };
    let planned = collection.plan(entities::by_name)?;
    let rows = state
        .store
        .fetch_values(&planned.statement, &planned.kinds)
        .await?;
    let mut fetched: Vec<Fetched> = rows
        .into_iter()
        .map(|row| {
            let media_type = planned.media_type_index.and_then(|i| match &row[i] {
                Value::String(s) => Some(s.clone()),
                _ => None,
            });
            Fetched {
                entity: entity_out(read.set, &properties, &row, media_type),
                order_values: row[planned.order_start..planned.extra_start].to_vec(),
                hidden: row[planned.extra_start..].to_vec(),
            }
        })
        .collect();
    let mut offset = prefix.len();
    for navigation in navigations {
        let width = navigation.on.len();
        let nested: Vec<Vec<String>> = read
            .expand
            .iter()
            .filter(|p| p.len() == 2 && p[0] == navigation.name)
            .map(|p| vec![p[1].clone()])
            .collect();
        let keys: Vec<Vec<Value>> = fetched
            .iter()
            .map(|f| f.hidden[offset..offset + width].to_vec())
            .collect();
        let children = Box::pin(expand_one(
            state, area, read.set, navigation, &keys, &nested,
        ))
        .await?;
        for (parent, key) in fetched.iter_mut().zip(&keys) {
            let mine = children.get(&group_key(key)).cloned().unwrap_or_default();
            let value = if navigation.many {
                Expanded::Many(mine.into_iter().take(EXPANDED_COLLECTION_LIMIT).collect())
            } else {
                Expanded::One(mine.into_iter().next().map(Box::new))
            };
            parent.entity.expanded.push((navigation.name, value));
        }
        offset += width;
    }
    Ok((fetched, planned.fingerprint))
}

/// Values as a map key (f64 has no `Hash`; the debug form is exact for our values).
fn group_key(values: &[Value]) -> String {
    format!("{values:?}")
}

/// Reads the targets of `navigation` for every parent key at once; returns them
/// grouped by the parent key they belong to.
async fn expand_one(
    state: &AppState,
    area: i32,
    source: &'static EntitySet,
    navigation: &'static Navigation,
    keys: &[Vec<Value>],
    nested: &[Vec<String>],
) -> Result<HashMap<String, Vec<EntityOut>>, ApiError> {
    let target = entities::by_name(navigation.target).expect("navigation targets are declared");
    let mut distinct: Vec<&Vec<Value>> =
        keys.iter().filter(|k| !k.contains(&Value::Null)).collect();
    distinct.sort_by_key(|k| group_key(k));
    distinct.dedup();
    if distinct.is_empty() {
        return Ok(HashMap::new());
    }
    // One join column (the common case) becomes an IN list: index lookups.
    let any_parent = match navigation.on {
        [(_, far)] => {
            Expr::expr(column(BASE, far)).is_in(distinct.iter().map(|key| sql_value(&key[0])))
        }
        _ => any_of(distinct.iter().map(|key| {
            all_of(
                navigation
                    .on
                    .iter()
                    .zip(key.iter())
                    .map(|((_, far), value)| Expr::expr(column(BASE, far)).eq(sql_value(value))),
            )
        })),
    };
    // The children carry their join values as their first hidden columns, to be grouped.
    let matching: Vec<(SimpleExpr, EdmType)> = navigation
        .on
        .iter()
        .zip(join_kinds(source, navigation))
        .map(|((_, far), kind)| (column(BASE, far), kind))
        .collect();
    let children_read = Read {
        set: target,
        base: Some(any_parent),
        filter: None,
        orderby: &[],
        skiptoken: None,
        limit: (distinct.len() * EXPANDED_COLLECTION_LIMIT) as u64,
        offset: None,
        expand: nested,
    };
    let (children, _) = Box::pin(read(state, area, children_read, &matching)).await?;
    let mut grouped: HashMap<String, Vec<EntityOut>> = HashMap::new();
    for child in children {
        grouped
            .entry(group_key(&child.hidden[..navigation.on.len()]))
            .or_default()
            .push(child.entity);
    }
    Ok(grouped)
}

/// Builds the entity from a row whose first columns are `properties`.
fn entity_out(
    set: &'static EntitySet,
    properties: &[&'static Property],
    row: &[Value],
    media_type: Option<String>,
) -> EntityOut {
    let mut values: Vec<(&'static str, Value)> = Vec::with_capacity(set.properties.len());
    for property in set.properties {
        let value = properties
            .iter()
            .position(|p| p.name == property.name)
            .map_or(Value::Null, |i| row[i].clone());
        values.push((property.name, value));
    }
    let key_values: Vec<(&str, &Value)> = set
        .key
        .iter()
        .map(|k| {
            (
                *k,
                &values
                    .iter()
                    .find(|(n, _)| n == k)
                    .expect("keys are properties")
                    .1,
            )
        })
        .collect();
    let key_predicate = if key_values.len() == 1 {
        key_values[0].1.to_literal()
    } else {
        key_values
            .iter()
            .map(|(name, value)| format!("{name}={}", value.to_literal()))
            .collect::<Vec<_>>()
            .join(",")
    };
    EntityOut {
        set,
        properties: values,
        key_predicate,
        media_type,
        expanded: Vec::new(),
    }
}
