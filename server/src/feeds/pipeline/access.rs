//! The one access decision of a request: everything the parsed request touches
//! (every entity set it reads, the set it writes, the action it runs), checked at
//! once against the role table in `model::access`.

use crate::auth::Principal;
use crate::model::access::{decide, Touch};
use crate::odata::expand::ExpandPath;
use crate::odata::model::Verb;
use crate::odata::path::{ActionPath, EntityPath};
use crate::odata::query::QueryOptions;
use crate::odata::touched::sets_read;
use crate::odata::ApiError;

use crate::feeds::catalogue;

/// What a request on an entity path touches: the sets it reads, and the target it
/// writes unless `verb` only reads.
pub fn entity_request(
    path: &EntityPath,
    expand: &[ExpandPath],
    options: &QueryOptions,
    verb: Verb,
) -> Vec<Touch> {
    let mut touches: Vec<Touch> = sets_read(path, expand, options, catalogue::by_name)
        .into_iter()
        .map(|set| Touch::Read(set.name))
        .collect();
    if !verb.reads() {
        touches.push(Touch::Write(path.target().name));
        // A link joins two entities: writing it changes both ends.
        if path.links {
            touches.push(Touch::Write(path.set.name));
        }
    }
    touches
}

/// What invoking an action touches: the action, and the sets its binding reads.
pub fn action_request(path: &ActionPath, options: &QueryOptions) -> Vec<Touch> {
    let mut touches = vec![if path.action.function {
        Touch::Function(path.action.name)
    } else {
        Touch::Action(path.action.name, path.action.binding.map(|(set, _)| set))
    }];
    if let Some(binding) = &path.binding {
        touches.extend(
            sets_read(binding, &[], options, catalogue::by_name)
                .into_iter()
                .map(|set| Touch::Read(set.name)),
        );
    }
    touches
}

/// 403 unless the principal's role may do everything in `touches`.
pub fn check(principal: &Principal, touches: &[Touch]) -> Result<(), ApiError> {
    decide(principal.role, touches).map_err(|refused| {
        ApiError::Forbidden(format!("the {} role may not {refused}", principal.role))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::access::{FUNCTIONS, ROLE_TABLE};

    #[test]
    fn the_role_table_has_a_row_for_every_declared_entity_set_and_no_other() {
        for set in catalogue::all() {
            assert!(
                ROLE_TABLE.iter().any(|(name, ..)| *name == set.name),
                "{} has no row in the role table",
                set.name
            );
        }
        for (name, ..) in ROLE_TABLE {
            assert!(catalogue::by_name(name).is_some(), "{name} is not declared");
        }
    }

    #[test]
    fn the_functions_table_names_every_declared_function_and_no_other() {
        let declared: Vec<&str> = catalogue::actions()
            .iter()
            .filter(|action| action.function)
            .map(|action| action.name)
            .collect();
        let tabled: Vec<&str> = FUNCTIONS.iter().map(|(name, ..)| *name).collect();
        assert_eq!(declared, tabled);
    }
}
