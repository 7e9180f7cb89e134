//! Every feature the service serves, and what routing, `$metadata`, the service
//! document and reads look up in them. A feature lists its own feeds and actions
//! (its `mod.rs`); nothing here names an entity set or an action.

use std::sync::LazyLock;

use super::handler::feed::RowsSeen;
use super::handler::{Feature, Feed, ServedAction};
use super::{content, delivery, marking, results, scoring};
use crate::odata::model::{Action, ComplexType, EntitySet};

/// In this order their actions and complex types appear in `$metadata`.
static FEATURES: &[&Feature] = &[
    &results::FEATURE,
    &content::FEATURE,
    &delivery::FEATURE,
    &scoring::FEATURE,
    &marking::FEATURE,
];

/// Every feed, in the order of their names: how `$metadata` and the service
/// document list them.
static FEEDS: LazyLock<Vec<&'static Feed>> = LazyLock::new(|| {
    let mut feeds: Vec<&'static Feed> = FEATURES
        .iter()
        .flat_map(|f| f.feeds.iter().copied())
        .collect();
    feeds.sort_by_key(|feed| feed.set.name);
    feeds
});

static SETS: LazyLock<Vec<&'static EntitySet>> =
    LazyLock::new(|| FEEDS.iter().map(|feed| feed.set).collect());

static ACTIONS: LazyLock<Vec<&'static Action>> = LazyLock::new(|| {
    FEATURES
        .iter()
        .flat_map(|f| f.actions)
        .map(|served| &served.action)
        .collect()
});

static COMPLEX_TYPES: LazyLock<Vec<&'static ComplexType>> =
    LazyLock::new(|| FEATURES.iter().flat_map(|f| f.complex_types).collect());

/// Every entity set, in the order of their names.
pub fn all() -> &'static [&'static EntitySet] {
    &SETS
}

/// The entity set called `name`.
pub fn by_name(name: &str) -> Option<&'static EntitySet> {
    feed(name).map(|feed| feed.set)
}

/// What each reader sees of the entity set called `name`, where not all of the
/// area's rows (feeds/read/seen.rs).
pub fn rows_seen(name: &str) -> Option<RowsSeen> {
    ROWS_SEEN
        .iter()
        .find(|(set, _)| *set == name)
        .map(|(_, rule)| *rule)
}

/// The few feeds that declare [`Feed::rows_seen`]: every read asks, so it looks
/// through these, not through every feed.
static ROWS_SEEN: LazyLock<Vec<(&'static str, RowsSeen)>> = LazyLock::new(|| {
    FEEDS
        .iter()
        .filter_map(|feed| feed.rows_seen.map(|rule| (feed.set.name, rule)))
        .collect()
});

/// The feed of the entity set called `name`, with its handlers.
pub fn feed(name: &str) -> Option<&'static Feed> {
    FEEDS.iter().copied().find(|feed| feed.set.name == name)
}

/// Every action, as `$metadata` declares them.
pub fn actions() -> &'static [&'static Action] {
    &ACTIONS
}

/// The action called `name`, with its handler.
pub fn action(name: &str) -> Option<&'static ServedAction> {
    FEATURES
        .iter()
        .flat_map(|f| f.actions)
        .find(|served| served.action.name == name)
}

/// The complex types actions return.
pub fn complex_types() -> &'static [&'static ComplexType] {
    &COMPLEX_TYPES
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_filterable_property_and_navigation_target_is_declared() {
        for set in all() {
            for key in set.key {
                assert!(set.property(key).is_some(), "{}: key {key}", set.name);
            }
            for name in set.filterable {
                assert!(
                    set.property(name).is_some(),
                    "{}: filterable {name}",
                    set.name
                );
            }
            for navigation in set.navigations {
                assert!(
                    by_name(navigation.target).is_some(),
                    "{}: {}",
                    set.name,
                    navigation.name
                );
            }
        }
    }

    /// A set some readers see only part of (`Feed::rows_seen`) is reached only
    /// from a set restricted in the same way: a `$filter` through a navigation
    /// joins its target without the target's constraints, so a navigation from an
    /// unrestricted set would let a reader filter by rows he may not see.
    #[test]
    fn a_set_whose_readers_see_part_of_it_is_reached_only_from_such_sets() {
        let restricted: Vec<&str> = all()
            .iter()
            .filter(|set| rows_seen(set.name).is_some())
            .map(|set| set.name)
            .collect();
        assert!(restricted.contains(&"Markings"), "{restricted:?}");
        for set in all() {
            for navigation in set.navigations {
                if restricted.contains(&navigation.target) {
                    assert!(
                        rows_seen(set.name).is_some(),
                        "{} reaches {} through {}",
                        set.name,
                        navigation.target,
                        navigation.name
                    );
                }
            }
        }
    }

    #[test]
    fn no_two_feeds_or_actions_share_a_name() {
        let mut names: Vec<&str> = all().iter().map(|set| set.name).collect();
        names.extend(actions().iter().map(|action| action.name));
        let count = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), count, "a name declared twice");
    }

    /// An entity's JSON writer (`odata::json_entity`) writes each property and
    /// navigation as a member of one object: a name used twice would be a
    /// duplicate member, which JSON clients read differently.
    #[test]
    fn no_entity_type_names_a_property_and_a_navigation_alike() {
        for set in all() {
            let mut names: Vec<&str> = set.properties.iter().map(|p| p.name).collect();
            names.extend(set.navigations.iter().map(|n| n.name));
            let count = names.len();
            names.sort_unstable();
            names.dedup();
            assert_eq!(names.len(), count, "{}: a member name used twice", set.name);
        }
    }

    /// The Atom writer (`odata::atom_entry`) writes set, type, property and
    /// navigation names into the markup as they are, unescaped: each must be an
    /// identifier (as CSDL requires), which has nothing XML would escape.
    #[test]
    fn every_name_the_atom_writer_writes_as_it_is_is_an_identifier() {
        let identifier = |name: &str| {
            name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        };
        for set in all() {
            let mut names = vec![set.name, set.type_name];
            names.extend(set.properties.iter().map(|p| p.name));
            names.extend(set.navigations.iter().map(|n| n.name));
            for name in names {
                assert!(
                    identifier(name),
                    "{}: {name:?} is not an identifier",
                    set.name
                );
            }
        }
    }

    /// A method a feed serves is one its declaration admits: otherwise routing
    /// would answer 405 before the handler is reached.
    #[test]
    fn every_handler_serves_a_declared_method() {
        use crate::odata::model::Verb;
        for feed in FEEDS.iter() {
            for verb in [
                Verb::Post,
                Verb::Put,
                Verb::Patch,
                Verb::Merge,
                Verb::Delete,
            ] {
                if feed.writer(verb).is_some() {
                    // A feed whose links are written serves POST and DELETE on them.
                    let links = !feed.set.writes.links.is_empty()
                        && matches!(verb, Verb::Post | Verb::Delete);
                    let declared = feed.set.writes.allowed(true).contains(&verb)
                        || feed.set.writes.allowed(false).contains(&verb)
                        || links;
                    assert!(declared, "{} serves {verb:?} undeclared", feed.set.name);
                }
            }
        }
    }

    /// The other way round: every write a declaration admits has its handler, so
    /// that this version answers none of them 501 (routing's answer to a declared
    /// method without one, kept for a feed whose writes arrive after its reads).
    #[test]
    fn every_declared_write_is_served() {
        let mut unserved = Vec::new();
        for feed in FEEDS.iter() {
            for single in [true, false] {
                for verb in feed.set.writes.allowed(single) {
                    if !verb.reads() && feed.writer(verb).is_none() {
                        unserved.push(format!("{verb:?} on {}", feed.set.name));
                    }
                }
            }
        }
        assert!(unserved.is_empty(), "declared, not served: {unserved:?}");
        for set in all() {
            assert!(feed(set.name).is_some(), "{} has no feed", set.name);
        }
    }
}
