//! An action's parameters (contract, "Actions"): in a JSON object body, or as URL
//! query literals (`?ParticipantName='bob'`) as version 2 clients send them, each
//! checked against the action's declaration. Which are required, and what their
//! values may be, is the action's to say.

use serde_json::Value as Json;

use super::body::datetime;
use super::filter::{parse_literal, Literal};
use super::model::Action;
use super::ApiError;

/// A parameter's value, of its declared type.
#[derive(Debug, Clone, PartialEq)]
pub enum Argument {
    String(String),
    DateTime(i64),
    Int32s(Vec<i32>),
    Boolean(bool),
    /// `Edm.Binary`, sent as base64 in the JSON body.
    Binary(Vec<u8>),
    Int64(i64),
    Int32(i32),
}

/// The parameters a request gave, by declared name.
#[derive(Debug, Default)]
pub struct Arguments(Vec<(&'static str, Argument)>);

impl Arguments {
    fn get(&self, name: &str) -> Option<&Argument> {
        self.0.iter().find(|(n, _)| *n == name).map(|(_, a)| a)
    }

    /// A string parameter, trimmed; `None` when absent or empty.
    pub fn text(&self, name: &str) -> Option<&str> {
        match self.get(name) {
            Some(Argument::String(text)) if !text.trim().is_empty() => Some(text.trim()),
            _ => None,
        }
    }

    pub fn date_time(&self, name: &str) -> Option<i64> {
        match self.get(name) {
            Some(Argument::DateTime(at)) => Some(*at),
            _ => None,
        }
    }

    pub fn boolean(&self, name: &str) -> Option<bool> {
        match self.get(name) {
            Some(Argument::Boolean(value)) => Some(*value),
            _ => None,
        }
    }

    pub fn binary(&self, name: &str) -> Option<&[u8]> {
        match self.get(name) {
            Some(Argument::Binary(bytes)) => Some(bytes),
            _ => None,
        }
    }

    pub fn int64(&self, name: &str) -> Option<i64> {
        match self.get(name) {
            Some(Argument::Int64(value)) => Some(*value),
            _ => None,
        }
    }

    pub fn int32(&self, name: &str) -> Option<i32> {
        match self.get(name) {
            Some(Argument::Int32(value)) => Some(*value),
            _ => None,
        }
    }

    pub fn int32s(&self, name: &str) -> Option<&[i32]> {
        match self.get(name) {
            Some(Argument::Int32s(values)) => Some(values),
            _ => None,
        }
    }

    /// The parameters as a JSON object: what the audit log's RequestData records.
    pub fn to_json(&self) -> String {
        let object: serde_json::Map<String, Json> = self
            .0
            .iter()
            .map(|(name, argument)| {
                let value = match argument {
                    Argument::String(text) => Json::from(text.as_str()),
                    Argument::DateTime(at) => Json::from(
                        chrono::DateTime::from_timestamp_millis(*at)
                            .map(|at| at.format("%Y-%m-%dT%H:%M:%S%.3f").to_string())
                            .unwrap_or_default(),
                    ),
                    Argument::Int32s(values) => Json::from(values.clone()),
                    Argument::Boolean(value) => Json::from(*value),
                    Argument::Int64(value) => Json::from(value.to_string()),
                    Argument::Int32(value) => Json::from(*value),
                    // The audit log records that bytes were sent, not the bytes.
                    Argument::Binary(bytes) => Json::from(format!("{} bytes", bytes.len())),
                };
                ((*name).to_owned(), value)
            })
            .collect();
        Json::Object(object).to_string()
    }
}

/// Reads `action`'s parameters from `body` and the URL's `query` parameters.
pub fn read(
    action: &'static Action,
    body: &[u8],
    query: &[(String, String)],
) -> Result<Arguments, ApiError> {
    let mut arguments = Arguments::default();
    let text = std::str::from_utf8(body)
        .map_err(|_| ApiError::bad_request("the action's body is not UTF-8 text"))?;
    if !text.trim().is_empty() {
        let json: Json = super::strict_json::from_slice(text.as_bytes()).map_err(|e| {
            ApiError::bad_request(format!(
                "the action's body is not JSON ({e}); send its parameters as a JSON object"
            ))
        })?;
        let Json::Object(object) = json else {
            return Err(ApiError::bad_request(
                "the action's body must be a JSON object of its parameters",
            ));
        };
        for (name, value) in &object {
            let (declared, edm) = declared(action, name)?;
            arguments
                .0
                .push((declared, from_json(action, declared, edm, value)?));
        }
    }
    for (name, text) in query {
        let (declared, edm) = declared(action, name)?;
        if arguments.get(declared).is_some() {
            return Err(ApiError::bad_request(format!(
                "{declared} is given twice: in the body and in the URL"
            )));
        }
        arguments
            .0
            .push((declared, from_literal(action, declared, edm, text)?));
    }
    Ok(arguments)
}

fn declared(action: &'static Action, name: &str) -> Result<(&'static str, &'static str), ApiError> {
    action
        .parameters
        .iter()
        .find(|(declared, _)| *declared == name)
        .copied()
        .ok_or_else(|| {
            let names: Vec<&str> = action.parameters.iter().map(|(n, _)| *n).collect();
            ApiError::bad_request(if names.is_empty() {
                format!(
                    "{name} is not a parameter of {}: it takes none",
                    action.name
                )
            } else {
                format!(
                    "{name} is not a parameter of {}; its parameters are {}",
                    action.name,
                    names.join(", ")
                )
            })
        })
}

fn wrong(action: &Action, name: &str, expected: &str) -> ApiError {
    ApiError::bad_request(format!(
        "{}: the parameter {name} must be {expected}",
        action.name
    ))
}

fn from_json(action: &Action, name: &str, edm: &str, value: &Json) -> Result<Argument, ApiError> {
    match edm {
        "Edm.String" => match value {
            Json::String(text) => Ok(Argument::String(text.clone())),
            // The contract sends AssessmentID as a string; a whole number is what it
            // means, and is taken too.
            Json::Number(number) if number.is_i64() => Ok(Argument::String(number.to_string())),
            _ => Err(wrong(action, name, "a string")),
        },
        "Edm.DateTime" => value
            .as_str()
            .and_then(datetime)
            .map(Argument::DateTime)
            .ok_or_else(|| wrong(action, name, "a DateTime as \"2026-11-21T09:30:12\"")),
        "Collection(Edm.Int32)" => {
            let items = value
                .as_array()
                .ok_or_else(|| wrong(action, name, "an array of Edm.Int32 numbers"))?;
            items
                .iter()
                .map(|item| {
                    item.as_i64()
                        .and_then(|n| i32::try_from(n).ok())
                        .ok_or_else(|| wrong(action, name, "an array of Edm.Int32 numbers"))
                })
                .collect::<Result<Vec<i32>, ApiError>>()
                .map(Argument::Int32s)
        }
        // JSON light writes an Int64 as a string; a number is taken too.
        "Edm.Int64" => match value {
            Json::String(text) => text.trim().parse().ok(),
            Json::Number(number) => number.as_i64(),
            _ => None,
        }
        .map(Argument::Int64)
        .ok_or_else(|| {
            wrong(
                action,
                name,
                "an Edm.Int64 (a whole number, or one in a string)",
            )
        }),
        "Edm.Int32" => value
            .as_i64()
            .and_then(|n| i32::try_from(n).ok())
            .map(Argument::Int32)
            .ok_or_else(|| wrong(action, name, "an Edm.Int32 (a whole number)")),
        "Edm.Boolean" => value
            .as_bool()
            .map(Argument::Boolean)
            .ok_or_else(|| wrong(action, name, "true or false")),
        "Edm.Binary" => {
            use base64::Engine;
            value
                .as_str()
                .and_then(|text| base64::engine::general_purpose::STANDARD.decode(text).ok())
                .map(Argument::Binary)
                .ok_or_else(|| wrong(action, name, "a base64 string (Edm.Binary)"))
        }
        other => Err(ApiError::Internal(anyhow::anyhow!(
            "{}: parameter {name} of type {other} is not read",
            action.name
        ))),
    }
}

fn from_literal(action: &Action, name: &str, edm: &str, text: &str) -> Result<Argument, ApiError> {
    let literal = parse_literal(text).map_err(|e| {
        ApiError::bad_request(format!(
            "{}: the parameter {name} is not an OData literal ({e}); write a string as '…'",
            action.name
        ))
    })?;
    match (edm, literal) {
        ("Edm.String", Literal::String(text)) => Ok(Argument::String(text)),
        ("Edm.String", _) => Err(wrong(action, name, "a string literal, as 'text'")),
        ("Edm.DateTime", Literal::DateTime(at)) => Ok(Argument::DateTime(at)),
        ("Edm.Boolean", Literal::Boolean(value)) => Ok(Argument::Boolean(value)),
        ("Edm.Int64", Literal::Int64(value)) => Ok(Argument::Int64(value)),
        ("Edm.Int64", Literal::Int32(value)) => Ok(Argument::Int64(value.into())),
        ("Edm.Int32", Literal::Int32(value)) => Ok(Argument::Int32(value)),
        ("Edm.Int32", _) => Err(wrong(action, name, "an Edm.Int32 literal, as 17")),
        ("Edm.Int64", _) => Err(wrong(
            action,
            name,
            "an Edm.Int64 literal, as 2185231530100000L",
        )),
        ("Edm.Boolean", _) => Err(wrong(action, name, "true or false")),
        ("Edm.DateTime", _) => Err(wrong(
            action,
            name,
            "a DateTime literal, as datetime'2026-11-21T09:30:12'",
        )),
        _ => Err(wrong(action, name, "sent in a JSON body (a collection)")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::odata::model::Binding;

    static PURGE_BY_NAME: Action = Action {
        name: "PurgeResultsByParticipantName",
        binding: Some(("Results", Binding::Collection)),
        parameters: &[("ParticipantName", "Edm.String")],
        returns: None,
        function: false,
    };
    static REPLAY: Action = Action {
        name: "ReplayResultsByIDList",
        binding: None,
        parameters: &[("ResultIds", "Collection(Edm.Int32)")],
        returns: None,
        function: false,
    };

    #[test]
    fn parameters_come_from_the_body_or_the_url() {
        let body = read(&PURGE_BY_NAME, br#"{"ParticipantName": "bob"}"#, &[]).unwrap();
        assert_eq!(body.text("ParticipantName"), Some("bob"));
        let url = read(
            &PURGE_BY_NAME,
            b"",
            &[("ParticipantName".into(), "'O''Brien'".into())],
        )
        .unwrap();
        assert_eq!(url.text("ParticipantName"), Some("O'Brien"));
        let ids = read(&REPLAY, br#"{"ResultIds": [1, 2]}"#, &[]).unwrap();
        assert_eq!(ids.int32s("ResultIds"), Some([1, 2].as_slice()));
        assert_eq!(ids.to_json(), r#"{"ResultIds":[1,2]}"#);
    }

    #[test]
    fn an_int32_comes_as_a_number_or_a_literal_and_nothing_else() {
        static ALIKE: Action = Action {
            name: "AnswersAlike",
            binding: None,
            parameters: &[("QuestionID", "Edm.Int64"), ("ResultID", "Edm.Int32")],
            returns: None,
            function: true,
        };
        let body = read(&ALIKE, br#"{"ResultID": 17}"#, &[]).unwrap();
        assert_eq!(body.int32("ResultID"), Some(17));
        let url = read(&ALIKE, b"", &[("ResultID".into(), "18".into())]).unwrap();
        assert_eq!(url.int32("ResultID"), Some(18));
        for (body, query) in [
            (&br#"{"ResultID": 3000000000}"#[..], None),
            (br#"{"ResultID": "17"}"#, None),
            (b"", Some("17L")),
            (b"", Some("'17'")),
        ] {
            let query: Vec<(String, String)> = query
                .map(|q| ("ResultID".to_owned(), q.to_owned()))
                .into_iter()
                .collect();
            match read(&ALIKE, body, &query) {
                Err(ApiError::BadRequest(message)) => {
                    assert!(
                        message.contains("ResultID must be an Edm.Int32"),
                        "{message}"
                    )
                }
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn a_package_comes_as_base64_with_a_boolean_beside_it() {
        static IMPORT: Action = Action {
            name: "ImportQtiPackage",
            binding: None,
            parameters: &[("Package", "Edm.Binary"), ("Preview", "Edm.Boolean")],
            returns: None,
            function: false,
        };
        let read_back = read(&IMPORT, br#"{"Package": "UEsDBA==", "Preview": true}"#, &[]).unwrap();
        assert_eq!(read_back.binary("Package"), Some(b"PK\x03\x04".as_slice()));
        assert_eq!(read_back.boolean("Preview"), Some(true));
        assert_eq!(
            read_back.to_json(),
            r#"{"Package":"4 bytes","Preview":true}"#
        );
        let url = read(&IMPORT, b"", &[("Preview".into(), "false".into())]).unwrap();
        assert_eq!(url.boolean("Preview"), Some(false));
        for bad in [
            &br#"{"Package": "not base64!"}"#[..],
            br#"{"Preview": "yes"}"#,
        ] {
            match read(&IMPORT, bad, &[]) {
                Err(ApiError::BadRequest(message)) => {
                    assert!(message.contains("must be"), "{message}")
                }
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn what_is_wrong_is_named() {
        let message = |result: Result<Arguments, ApiError>| match result {
            Err(ApiError::BadRequest(message)) => message,
            other => panic!("{other:?}"),
        };
        assert!(message(read(&PURGE_BY_NAME, br#"{"Name": "bob"}"#, &[]))
            .contains("Name is not a parameter of PurgeResultsByParticipantName"));
        assert!(
            message(read(&PURGE_BY_NAME, br#"{"ParticipantName": 3.5}"#, &[]))
                .contains("ParticipantName")
        );
        assert!(message(read(&PURGE_BY_NAME, b"[1]", &[])).contains("JSON object"));
        assert!(message(read(&PURGE_BY_NAME, b"{", &[])).contains("not JSON"));
        assert!(message(read(&REPLAY, br#"{"ResultIds": [1, "x"]}"#, &[])).contains("ResultIds"));
        assert!(message(read(
            &PURGE_BY_NAME,
            br#"{"ParticipantName": "a"}"#,
            &[("ParticipantName".into(), "'b'".into())]
        ))
        .contains("twice"));
        assert!(message(read(
            &PURGE_BY_NAME,
            b"",
            &[("ParticipantName".into(), "bob".into())]
        ))
        .contains("literal"));
    }
}
