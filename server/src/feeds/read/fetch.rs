//! Reading entities into [`EntityOut`]s, with `$expand` at most two levels deep: a
//! to-one target read in its parent's own statement where it can be (a LEFT JOIN,
//! `Navigation::joinable`), any other as one query per expanded navigation and
//! 500 parents (never one per entity).

use std::collections::HashMap;

use super::seen::{is_restricted, seen_by};
use crate::auth::Principal;
use crate::feeds::handler::state::AppState;
use crate::model::area::CustomerArea;
use crate::odata::edm::EdmType;
use crate::odata::json::{EntityOut, Expanded};
use crate::odata::model::{EntitySet, Navigation};
use crate::odata::typed::{Condition, OrderTerm};
use crate::odata::value::Value;
use crate::odata::ApiError;
use crate::store::read::{Constraint, RowsQuery, Scope};

/// The most entities an expanded collection holds, per parent.
pub const EXPANDED_COLLECTION_LIMIT: usize = 100;

/// An entity read from the store, with the order values of its row.
pub struct Fetched {
    pub entity: EntityOut,
    pub order_values: Vec<Value>,
    hidden: Vec<Value>,
}

/// What to read: the scope's rows, filtered, ordered and paged.
pub struct Read<'a> {
    pub scope: Scope,
    pub filter: Option<&'a Condition>,
    pub order: &'a [OrderTerm],
    /// The order values of the last entity already sent.
    pub after: Option<&'a [Value]>,
    pub limit: u64,
    pub offset: Option<u64>,
    pub expand: &'a [Vec<String>],
    /// Who reads: what of each expanded set he sees (feeds/read/seen.rs).
    pub principal: &'a Principal,
}

/// The navigations of the first level of `expand`, each once.
fn expand_navigations(
    state: &AppState,
    set: &'static EntitySet,
    expand: &[Vec<String>],
) -> Result<Vec<&'static Navigation>, ApiError> {
    let paths = crate::odata::expand::resolve(set, expand, state.sets)?;
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
    area: CustomerArea,
    read: Read<'_>,
    prefix: &[(&'static str, EdmType)],
) -> Result<Vec<Fetched>, ApiError> {
    let set = read.scope.set;
    let (joined, navigations): (Vec<_>, Vec<_>) = expand_navigations(state, set, read.expand)?
        .into_iter()
        .partition(|navigation| {
            let target = (state.sets)(navigation.target).expect("navigation targets are declared");
            navigation.joinable(target)
                && nested_of(read.expand, navigation).is_empty()
                && !is_restricted(state, target)
        });
    let mut hidden: Vec<(&'static str, EdmType)> = prefix.to_vec();
    for navigation in &navigations {
        let kinds = navigation.join_kinds(set, state.sets);
        for ((near, _), kind) in navigation.on.iter().zip(kinds) {
            hidden.push((*near, kind));
        }
    }
    let query = RowsQuery {
        scope: &read.scope,
        filter: read.filter,
        order: read.order,
        after: read.after,
        limit: read.limit,
        offset: read.offset,
        extra: &hidden,
        joined: &joined,
        lookup: state.sets,
    };
    let rows = state.store.rows(area, &query).await?;
    // Looked up once for the page, not per row.
    let joined_sets: Vec<&'static EntitySet> = joined
        .iter()
        .map(|n| (state.sets)(n.target).expect("navigation targets are declared"))
        .collect();
    let mut fetched: Vec<Fetched> = rows
        .into_iter()
        .map(|row| {
            let mut entity = EntityOut::new(set, row.values, row.media_type);
            // To-one targets read in the same statement (Navigation::joinable).
            for ((navigation, target_set), target) in
                joined.iter().zip(&joined_sets).zip(row.joined)
            {
                let target =
                    target.map(|t| Box::new(EntityOut::new(target_set, t.values, t.media_type)));
                entity
                    .expanded
                    .push((navigation.name, Expanded::One(target)));
            }
            Fetched {
                entity,
                order_values: row.order_values,
                hidden: row.extra,
            }
        })
        .collect();
    let mut offset = prefix.len();
    for navigation in navigations {
        let width = navigation.on.len();
        let nested = nested_of(read.expand, navigation);
        let keys: Vec<Vec<Value>> = fetched
            .iter()
            .map(|f| f.hidden[offset..offset + width].to_vec())
            .collect();
        let mut children = Box::pin(expand_one(
            state,
            area,
            read.principal,
            set,
            navigation,
            &keys,
            &nested,
        ))
        .await?;
        // Parents left for each key: the last one takes the children, the others
        // a copy (tasks of one result share it), so a page of distinct parents
        // copies nothing.
        let mut parents_left: HashMap<String, usize> = HashMap::new();
        let group_keys: Vec<String> = keys.iter().map(|key| group_key(key)).collect();
        for key in &group_keys {
            *parents_left.entry(key.clone()).or_default() += 1;
        }
        let wanted = if navigation.many {
            EXPANDED_COLLECTION_LIMIT
        } else {
            1
        };
        for (parent, key) in fetched.iter_mut().zip(&group_keys) {
            let left = parents_left.get_mut(key).expect("counted above");
            *left -= 1;
            let mine: Vec<EntityOut> = if *left == 0 {
                children.remove(key).unwrap_or_default()
            } else {
                children
                    .get(key)
                    .map(|all| all.iter().take(wanted).cloned().collect())
                    .unwrap_or_default()
            };
            let value = if navigation.many {
                Expanded::Many(mine.into_iter().take(wanted).collect())
            } else {
                Expanded::One(mine.into_iter().next().map(Box::new))
            };
            parent.entity.expanded.push((navigation.name, value));
        }
        offset += width;
    }
    Ok(fetched)
}

/// The expansions asked for under `navigation` (`Result/Assessment` gives
/// `Assessment` under `Result`).
fn nested_of(expand: &[Vec<String>], navigation: &Navigation) -> Vec<Vec<String>> {
    expand
        .iter()
        .filter(|p| p.len() == 2 && p[0] == navigation.name)
        .map(|p| vec![p[1].clone()])
        .collect()
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
#[allow(clippy::too_many_arguments)]
async fn expand_one(
    state: &AppState,
    area: CustomerArea,
    principal: &Principal,
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
        let children = children_of(
            state, area, principal, source, navigation, chunk, limit, nested,
        )
        .await?;
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
                principal,
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
#[allow(clippy::too_many_arguments)]
async fn children_of(
    state: &AppState,
    area: CustomerArea,
    principal: &Principal,
    source: &'static EntitySet,
    navigation: &'static Navigation,
    keys: &[&Vec<Value>],
    limit: usize,
    nested: &[Vec<String>],
) -> Result<Vec<Fetched>, ApiError> {
    let target = (state.sets)(navigation.target).expect("navigation targets are declared");
    // The children carry their join values as their first hidden columns, to be grouped.
    let matching: Vec<(&'static str, EdmType)> = navigation
        .on
        .iter()
        .zip(navigation.join_kinds(source, state.sets))
        .map(|((_, far), kind)| (*far, kind))
        .collect();
    let mut constraints = Constraint::reached_now(
        navigation,
        Constraint::ReachedFromAny {
            navigation,
            from: keys.iter().map(|key| (*key).clone()).collect(),
        },
    );
    constraints.extend(seen_by(state, target, principal).await?);
    let children_read = Read {
        scope: Scope {
            set: target,
            constraints,
        },
        filter: None,
        order: &[],
        after: None,
        limit: limit as u64,
        offset: None,
        expand: nested,
        principal,
    };
    Box::pin(read(state, area, children_read, &matching)).await
}
