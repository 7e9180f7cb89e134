//! A key predicate, `123L` or `QuestionID=1L,ResultID=2`, read against the entity
//! set's declared key.

use super::edm::EdmType;
use super::filter::{parse_literal, Literal};
use super::model::{EntitySet, Property};
use super::ApiError;

/// Key values in the order of the entity set's key.
#[derive(Debug, Clone)]
pub struct Key(pub Vec<(&'static Property, Literal)>);

/// Parses a key predicate against `set`'s key: `123L`, or `A=1L,B=2` naming every part.
pub fn parse_key(set: &'static EntitySet, text: &str) -> Result<Key, ApiError> {
    let parts = split_outside_quotes(text, ',');
    let named = parts
        .iter()
        .any(|part| part.contains('=') && !part.trim_start().starts_with('\''));
    let mut values: Vec<Option<Literal>> = vec![None; set.key.len()];
    if !named {
        if set.key.len() != 1 || parts.len() != 1 {
            return Err(ApiError::bad_request(format!(
                "{} has a composite key: name every part, as {}({})",
                set.name,
                set.name,
                set.key
                    .iter()
                    .map(|k| format!("{k}=..."))
                    .collect::<Vec<_>>()
                    .join(",")
            )));
        }
        values[0] = Some(key_literal(set, set.key[0], parts[0].trim())?);
    } else {
        for part in &parts {
            let (name, value) = part.split_once('=').ok_or_else(|| {
                ApiError::bad_request(format!(
                    "the key part '{part}' of {} is not Name=value",
                    set.name
                ))
            })?;
            let name = name.trim();
            let index = set.key.iter().position(|k| *k == name).ok_or_else(|| {
                ApiError::bad_request(format!(
                    "'{name}' is not part of the key of {} ({})",
                    set.name,
                    set.key.join(", ")
                ))
            })?;
            if values[index].is_some() {
                return Err(ApiError::bad_request(format!(
                    "the key part '{name}' is given twice"
                )));
            }
            values[index] = Some(key_literal(set, name, value.trim())?);
        }
    }
    let mut key = Vec::with_capacity(set.key.len());
    for (name, value) in set.key.iter().zip(values) {
        let value = value.ok_or_else(|| {
            ApiError::bad_request(format!(
                "the key of {} needs a value for '{name}'",
                set.name
            ))
        })?;
        key.push((
            set.property(name).expect("key properties are declared"),
            value,
        ));
    }
    Ok(Key(key))
}

fn key_literal(set: &EntitySet, name: &str, text: &str) -> Result<Literal, ApiError> {
    let property = set.property(name).expect("key properties are declared");
    let bare_integer = !text.is_empty()
        && text
            .trim_start_matches('-')
            .bytes()
            .all(|b| b.is_ascii_digit());
    if property.edm == EdmType::Int64 && bare_integer {
        return Err(ApiError::bad_request(format!(
            "the key value {text} of '{name}' is an Edm.Int64 and needs the L suffix, as {text}L"
        )));
    }
    let literal = parse_literal(text)
        .map_err(|e| ApiError::bad_request(format!("the key value of '{name}': {}", e.message)))?;
    let fits = match (property.edm, &literal) {
        (EdmType::Int64, Literal::Int64(_))
        | (EdmType::Int32, Literal::Int32(_))
        | (EdmType::String, Literal::String(_)) => true,
        (EdmType::Int16, Literal::Int32(n)) => i16::try_from(*n).is_ok(),
        _ => false,
    };
    if fits {
        return Ok(literal);
    }
    let hint = match (property.edm, &literal) {
        (EdmType::Int64, Literal::Int32(n)) => {
            format!(": Edm.Int64 literals need the L suffix, as {n}L")
        }
        _ => String::new(),
    };
    Err(ApiError::bad_request(format!(
        "the key value {text} of '{name}' is not an {}{hint}",
        property.edm
    )))
}

fn split_outside_quotes(text: &str, separator: char) -> Vec<String> {
    let mut parts = Vec::new();
    let mut current = String::new();
    let mut in_quote = false;
    for c in text.chars() {
        if c == '\'' {
            in_quote = !in_quote;
        }
        if c == separator && !in_quote {
            parts.push(std::mem::take(&mut current));
        } else {
            current.push(c);
        }
    }
    parts.push(current);
    parts
}
