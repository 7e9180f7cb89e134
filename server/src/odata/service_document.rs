//! The service document: what `GET` on the service root lists.

use serde_json::{json, Value};

use super::model::EntitySet;

/// The JSON light service document for the service root at `root` (ending in `/`).
pub fn json_light(root: &str, sets: &[&EntitySet]) -> Value {
    let sets: Vec<Value> = sets
        .iter()
        .map(|set| json!({ "name": set.name, "url": set.name }))
        .collect();
    json!({ "odata.metadata": format!("{root}$metadata"), "value": sets })
}

/// The JSON light service document without metadata: the sets alone.
pub fn json_no_metadata(sets: &[&EntitySet]) -> Value {
    let sets: Vec<Value> = sets
        .iter()
        .map(|set| json!({ "name": set.name, "url": set.name }))
        .collect();
    json!({ "value": sets })
}

/// The verbose JSON service document, for version 2 clients.
pub fn json_verbose(sets: &[&EntitySet]) -> Value {
    let names: Vec<&str> = sets.iter().map(|set| set.name).collect();
    json!({ "d": { "EntitySets": names } })
}
