//! Reading rows of a server feed into the desk's entries: a row with a field
//! missing or of the wrong type is left out rather than shown half.

use serde_json::Value;

pub(super) fn rows<T>(feed: &Value, read: fn(&Value) -> Option<T>) -> Vec<T> {
    feed["value"]
        .as_array()
        .map(|rows| rows.iter().filter_map(read).collect())
        .unwrap_or_default()
}

pub(super) fn text(value: &Value) -> Option<String> {
    value.as_str().map(str::to_owned)
}

pub(super) fn int(value: &Value) -> Option<i32> {
    value.as_i64().and_then(|n| n.try_into().ok())
}
