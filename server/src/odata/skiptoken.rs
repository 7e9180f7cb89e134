//! `$skiptoken`: the last row's order values, bound to the query they came from.
//! A token from another query, or one that was altered, is refused with a 400.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde_json::{json, Value as Json};
use sha2::{Digest, Sha256};

use super::edm::EdmType;
use super::filter::{parse_datetime, Filter};
use super::format::Format;
use super::orderby::{print, OrderKey};
use super::value::Value;
use super::ApiError;

/// Identifies the query a token belongs to: the feed, the filter and the order.
pub fn fingerprint(set: &str, filter: Option<&Filter>, orderby: &[OrderKey]) -> String {
    let mut hasher = Sha256::new();
    for part in [
        set.to_owned(),
        filter.map(ToString::to_string).unwrap_or_default(),
        print(orderby),
    ] {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part.as_bytes());
    }
    hasher.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

pub fn encode(fingerprint: &str, values: &[Value]) -> String {
    let values: Vec<Json> = values
        .iter()
        .map(|v| v.to_json(Format::JsonLight))
        .collect();
    URL_SAFE_NO_PAD.encode(json!({ "q": fingerprint, "v": values }).to_string())
}

pub fn decode(token: &str, fingerprint: &str, kinds: &[EdmType]) -> Result<Vec<Value>, ApiError> {
    let invalid = || {
        ApiError::bad_request("the $skiptoken is not one this service issued for this query; follow odata.nextLink as given")
    };
    let bytes = URL_SAFE_NO_PAD
        .decode(token.trim())
        .map_err(|_| invalid())?;
    let body: Json = serde_json::from_slice(&bytes).map_err(|_| invalid())?;
    if body["q"].as_str() != Some(fingerprint) {
        return Err(invalid());
    }
    let values = body["v"].as_array().ok_or_else(invalid)?;
    if values.len() != kinds.len() {
        return Err(invalid());
    }
    values
        .iter()
        .zip(kinds)
        .map(|(json, kind)| from_json(json, *kind).ok_or_else(invalid))
        .collect()
}

fn from_json(json: &Json, kind: EdmType) -> Option<Value> {
    if json.is_null() {
        return Some(Value::Null);
    }
    Some(match kind {
        EdmType::Boolean => Value::Boolean(json.as_bool()?),
        EdmType::Int16 => Value::Int16(i16::try_from(json.as_i64()?).ok()?),
        EdmType::Int32 => Value::Int32(i32::try_from(json.as_i64()?).ok()?),
        EdmType::Int64 => Value::Int64(json.as_str()?.parse().ok()?),
        EdmType::Double => Value::Double(json.as_f64()?),
        EdmType::String => Value::String(json.as_str()?.to_owned()),
        EdmType::DateTime => Value::DateTime(parse_datetime(json.as_str()?)?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_decodes_to_the_values_it_was_made_of() {
        let values = vec![
            Value::DateTime(1_795_253_412_123),
            Value::Null,
            Value::Int64(5),
            Value::String("O'B".into()),
        ];
        let kinds = [
            EdmType::DateTime,
            EdmType::Int32,
            EdmType::Int64,
            EdmType::String,
        ];
        let token = encode("abc", &values);
        assert_eq!(decode(&token, "abc", &kinds).unwrap(), values);
    }

    #[test]
    fn a_token_of_another_query_or_an_altered_one_is_refused() {
        let token = encode("abc", &[Value::Int32(1)]);
        assert!(decode(&token, "xyz", &[EdmType::Int32]).is_err());
        assert!(decode("not-a-token", "abc", &[EdmType::Int32]).is_err());
        assert!(decode(&token, "abc", &[EdmType::Int32, EdmType::Int32]).is_err());
    }
}
