//! Every entity set a request reads, whatever its URL's form: the path's first set,
//! the target of each navigation step, each set an `$expand` path reaches, and each
//! set a `$filter` or `$orderby` reaches through a navigation. The access decision is
//! made over all of them, so that the same data gets the same answer whichever way
//! the URL is spelled.

use super::expand::ExpandPath;
use super::filter::PropertyPath;
use super::model::EntitySet;
use super::path::EntityPath;
use super::query::QueryOptions;

/// The entity sets `path` with `options` reads, each once, in the order met.
pub fn sets_read(
    path: &EntityPath,
    expand: &[ExpandPath],
    options: &QueryOptions,
    lookup: impl Fn(&str) -> Option<&'static EntitySet>,
) -> Vec<&'static EntitySet> {
    let mut sets: Vec<&'static EntitySet> = Vec::new();
    let mut add = |set: &'static EntitySet| {
        if !sets.iter().any(|known| known.name == set.name) {
            sets.push(set);
        }
    };
    add(path.set);
    for step in &path.steps {
        add(step.target);
    }
    for expand_path in expand {
        for (_, target) in &expand_path.0 {
            add(target);
        }
    }
    let target = path.target();
    let filter_paths = options
        .filter
        .as_ref()
        .map(|filter| filter.property_paths())
        .unwrap_or_default();
    let order_paths = options.orderby.iter().map(|key| &key.path);
    for property_path in filter_paths.into_iter().chain(order_paths) {
        if let Some(set) = navigation_target(target, property_path, &lookup) {
            add(set);
        }
    }
    let any_paths = options
        .filter
        .as_ref()
        .map(|filter| filter.any_paths())
        .unwrap_or_default();
    for any_path in any_paths {
        for set in sets_along(target, any_path, &lookup) {
            add(set);
        }
    }
    sets
}

/// The sets each step of a navigation path such as `Question/Rubric` reaches from
/// `set`, as far as the steps are declared (the typed check refuses the rest).
fn sets_along(
    set: &'static EntitySet,
    path: &PropertyPath,
    lookup: &impl Fn(&str) -> Option<&'static EntitySet>,
) -> Vec<&'static EntitySet> {
    let mut reached = Vec::new();
    let mut current = set;
    for name in path.segments() {
        let Some(next) = current.navigation(name).and_then(|n| lookup(n.target)) else {
            break;
        };
        reached.push(next);
        current = next;
    }
    reached
}

/// The set a property path such as `Group/Name` reaches from `set`, if it crosses a
/// navigation.
fn navigation_target(
    set: &EntitySet,
    path: &PropertyPath,
    lookup: &impl Fn(&str) -> Option<&'static EntitySet>,
) -> Option<&'static EntitySet> {
    let [navigation, _] = path.segments() else {
        return None;
    };
    lookup(set.navigation(navigation)?.target)
}
