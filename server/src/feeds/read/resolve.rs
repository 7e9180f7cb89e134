//! From a resource path to the rows it addresses: the key, then each navigation
//! step, as a scope of the final entity set that the store reads.

use super::seen::seen_by;
use crate::auth::Principal;
use crate::feeds::handler::state::AppState;
use crate::model::area::CustomerArea;
use crate::odata::model::{EntitySet, Navigation};
use crate::odata::path::{EntityPath, Key};
use crate::odata::typed::key_values;
use crate::odata::value::Value;
use crate::odata::ApiError;
use crate::store::read::{Constraint, Scope};

/// The rows a path addresses.
pub struct Target {
    pub scope: Scope,
    /// The path addresses one entity (by key, or a to-one navigation).
    pub single: bool,
    /// Set when the last step is a to-one navigation: an empty result is then "no
    /// such related entity" (204), not "no such key" (404).
    pub to_one_navigation: bool,
}

impl Target {
    pub fn set(&self) -> &'static EntitySet {
        self.scope.set
    }
}

fn key_constraints(key: &Key) -> Result<Vec<Constraint>, ApiError> {
    Ok(key_values(key)?
        .into_iter()
        .map(|(property, value)| Constraint::Equals(property, value))
        .collect())
}

pub async fn resolve(
    state: &AppState,
    area: CustomerArea,
    principal: &Principal,
    path: &EntityPath,
) -> Result<Target, ApiError> {
    let mut constraints = match &path.key {
        Some(key) => key_constraints(key)?,
        None => Vec::new(),
    };
    constraints.extend(seen_by(state, path.set, principal).await?);
    let mut target = Target {
        scope: Scope {
            set: path.set,
            constraints,
        },
        single: path.key.is_some(),
        to_one_navigation: false,
    };
    for step in &path.steps {
        let from = source_values(state, area, &target.scope, step.navigation).await?;
        let reached = Constraint::Reached {
            navigation: step.navigation,
            from,
        };
        let mut constraints = match &step.key {
            // A key reaches a former member too (a replaced rubric, by its ID).
            Some(key) => {
                let mut constraints = vec![reached];
                constraints.extend(key_constraints(key)?);
                constraints
            }
            None => Constraint::reached_now(step.navigation, reached),
        };
        constraints.extend(seen_by(state, step.target, principal).await?);
        target = Target {
            scope: Scope {
                set: step.target,
                constraints,
            },
            single: step.key.is_some() || !step.navigation.many,
            to_one_navigation: !step.navigation.many && step.key.is_none(),
        };
    }
    Ok(target)
}

/// The values of the source entity's columns that `navigation` joins on; 404 when the
/// source entity does not exist.
async fn source_values(
    state: &AppState,
    area: CustomerArea,
    source: &Scope,
    navigation: &Navigation,
) -> Result<Vec<Value>, ApiError> {
    let kinds = navigation.join_kinds(source.set, state.sets);
    let row = state
        .store
        .join_values(area, source, navigation, &kinds)
        .await?
        .ok_or_else(|| {
            ApiError::not_found(format!(
                "there is no {} with that key",
                source.set.type_name
            ))
        })?;
    if row.contains(&Value::Null) {
        // A to-one navigation whose foreign key is empty leads nowhere.
        return Ok(vec![Value::Null; row.len()]);
    }
    Ok(row)
}
