//! From a resource path to the rows it addresses: the key, then each navigation
//! step, as a condition on the final entity set's table.

use sea_query::{Alias, Expr, Query, SimpleExpr};

use crate::feeds::entities;
use crate::odata::edm::EdmType;
use crate::odata::model::{EntitySet, Navigation};
use crate::odata::path::EntityPath;
use crate::odata::sql::{column, key_condition, navigation_condition, BASE};
use crate::odata::value::Value;
use crate::odata::ApiError;
use crate::AppState;

/// The rows a path addresses.
pub struct Target {
    pub set: &'static EntitySet,
    pub condition: Option<SimpleExpr>,
    /// The path addresses one entity (by key, or a to-one navigation).
    pub single: bool,
    /// Set when the last step is a to-one navigation: an empty result is then "no
    /// such related entity" (204), not "no such key" (404).
    pub to_one_navigation: bool,
}

/// The kinds of the values that `navigation` from `source` joins on: as the source
/// declares its column, or else as the target declares its own.
pub fn join_kinds(source: &EntitySet, navigation: &Navigation) -> Vec<EdmType> {
    let target = entities::by_name(navigation.target).expect("navigation targets are declared");
    navigation
        .on
        .iter()
        .map(|(near, far)| {
            let declared = |set: &EntitySet, column: &str| {
                set.properties
                    .iter()
                    .find(|p| p.column == column)
                    .map(|p| p.edm)
            };
            declared(source, near)
                .or_else(|| declared(target, far))
                .expect("every join column is a declared property on one side")
        })
        .collect()
}

pub async fn resolve(state: &AppState, area: i32, path: &EntityPath) -> Result<Target, ApiError> {
    let mut target = Target {
        set: path.set,
        condition: path
            .key
            .as_ref()
            .map(|key| key_condition(&key.0))
            .transpose()?,
        single: path.key.is_some(),
        to_one_navigation: false,
    };
    for step in &path.steps {
        let source = source_values(state, area, &target, step.navigation).await?;
        let mut condition = navigation_condition(step.navigation, &source);
        if let Some(key) = &step.key {
            condition = condition.and(key_condition(&key.0)?);
        }
        target = Target {
            set: step.target,
            condition: Some(condition),
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
    area: i32,
    source: &Target,
    navigation: &Navigation,
) -> Result<Vec<Value>, ApiError> {
    let mut select = Query::select();
    select.from_as(Alias::new(source.set.table), Alias::new(BASE));
    select.and_where(Expr::expr(column(BASE, "customer_id")).eq(area));
    if let Some(condition) = &source.condition {
        select.and_where(condition.clone());
    }
    for (near, _) in navigation.on {
        select.expr(column(BASE, near));
    }
    select.limit(1);
    let rows = state
        .store
        .fetch_values(&select, &join_kinds(source.set, navigation))
        .await?;
    let row = rows.into_iter().next().ok_or_else(|| {
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
