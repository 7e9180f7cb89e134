//! Reading entities into [`EntityOut`]s, with `$expand` done as one query per
//! expanded navigation (never one per entity), at most two levels deep.

use std::collections::HashMap;

use sea_query::{Alias, Asterisk, Expr, Query, SimpleExpr, ValueTuple};

use super::resolve::join_kinds;
use crate::feeds::entities;
use crate::odata::edm::EdmType;
use crate::odata::filter::Filter;
use crate::odata::json::{EntityOut, Expanded};
use crate::odata::model::{EntitySet, Navigation, Property};
use crate::odata::orderby::OrderKey;
use crate::odata::sql::{column, sql_value, CollectionRead, BASE};
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

/// The navigations of the first level of `expand`, each once.
fn expand_navigations(
    set: &'static EntitySet,
    expand: &[Vec<String>],
) -> Result<Vec<&'static Navigation>, ApiError> {
    let paths = crate::odata::expand::resolve(set, expand, entities::by_name)?;
    crate::odata::expand::check_expandable(&paths)?;
    let mut navigations: Vec<&'static Navigation> = Vec::new();
    for path in &paths {
        let navigation = path.first();
        if !navigations.iter().any(|n| n.name == navigation.name) {
            navigations.push(navigation);
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

/// Parent keys per expansion query: bounds each statement's size (bound parameters,
/// SQL text) whatever the page holds, e.g. 10,000 tasks under 100 results.
const KEYS_PER_QUERY: usize = 500;

/// Reads the targets of `navigation` for every parent key, [`KEYS_PER_QUERY`] parents
/// per query; returns them grouped by the parent key they belong to.
async fn expand_one(
    state: &AppState,
    area: i32,
    source: &'static EntitySet,
    navigation: &'static Navigation,
    keys: &[Vec<Value>],
    nested: &[Vec<String>],
) -> Result<HashMap<String, Vec<EntityOut>>, ApiError> {
    let mut distinct: Vec<&Vec<Value>> =
        keys.iter().filter(|k| !k.contains(&Value::Null)).collect();
    distinct.sort_by_key(|k| group_key(k));
    distinct.dedup();
    let mut grouped: HashMap<String, Vec<EntityOut>> = HashMap::new();
    for chunk in distinct.chunks(KEYS_PER_QUERY) {
        let limit = chunk.len() * EXPANDED_COLLECTION_LIMIT;
        let children = children_of(state, area, source, navigation, chunk, limit, nested).await?;
        if children.len() < limit {
            group_children(&mut grouped, navigation, children);
            continue;
        }
        // The chunk filled its limit: one parent may have crowded out the others.
        // Read each parent's first children on its own instead.
        for key in chunk {
            let own = children_of(
                state,
                area,
                source,
                navigation,
                std::slice::from_ref(key),
                EXPANDED_COLLECTION_LIMIT,
                nested,
            )
            .await?;
            group_children(&mut grouped, navigation, own);
        }
    }
    Ok(grouped)
}

fn group_children(
    grouped: &mut HashMap<String, Vec<EntityOut>>,
    navigation: &Navigation,
    children: Vec<Fetched>,
) {
    for child in children {
        grouped
            .entry(group_key(&child.hidden[..navigation.on.len()]))
            .or_default()
            .push(child.entity);
    }
}

/// The targets of `navigation` from the parents with `keys`, at most `limit` rows.
async fn children_of(
    state: &AppState,
    area: i32,
    source: &'static EntitySet,
    navigation: &'static Navigation,
    keys: &[&Vec<Value>],
    limit: usize,
    nested: &[Vec<String>],
) -> Result<Vec<Fetched>, ApiError> {
    let target = entities::by_name(navigation.target).expect("navigation targets are declared");
    let far_columns = navigation.on.iter().map(|(_, far)| column(BASE, far));
    // One flat IN list, never a chain of ORs: its size does not nest.
    let any_parent = match navigation.on {
        [(_, far)] => {
            Expr::expr(column(BASE, far)).is_in(keys.iter().map(|key| sql_value(&key[0])))
        }
        _ => Expr::tuple(far_columns).in_subquery(
            Query::select()
                .column(Asterisk)
                .from_values(
                    keys.iter()
                        .map(|key| ValueTuple::Many(key.iter().map(sql_value).collect())),
                    Alias::new("parent_keys"),
                )
                .to_owned(),
        ),
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
        limit: limit as u64,
        offset: None,
        expand: nested,
    };
    let (children, _) = Box::pin(read(state, area, children_read, &matching)).await?;
    Ok(children)
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
