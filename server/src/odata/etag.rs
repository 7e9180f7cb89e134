//! Entity tags for entities with a concurrency token, in the form OData version 3
//! services write them: `W/"datetime'2026-11-21T09%3A30%3A12.123'"`, the token's URL
//! literal, percent-encoded, as a weak tag.

use percent_encoding::{utf8_percent_encode, AsciiSet, CONTROLS};

use super::value::{format_datetime, Value};

/// What is percent-encoded inside the tag: what may not appear in a quoted string or a
/// URL, as OData services encode literals.
const LITERAL: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'%')
    .add(b':')
    .add(b'/')
    .add(b'?')
    .add(b'#')
    .add(b'&')
    .add(b'+');

/// The weak ETag of a concurrency token's value.
pub fn for_value(value: &Value) -> String {
    let literal = match value {
        Value::DateTime(ms) => format!("datetime'{}'", format_datetime(*ms)),
        other => other.to_literal(),
    };
    format!("W/\"{}\"", utf8_percent_encode(&literal, LITERAL))
}

/// Whether an `If-Match` header value admits the entity whose tag is `current`: `*`,
/// or a comma-separated list holding it. A strong form of the same tag also matches,
/// since clients and proxies sometimes drop the `W/`.
pub fn if_match_admits(header: &str, current: &str) -> bool {
    let current_opaque = current.trim_start_matches("W/");
    header
        .split(',')
        .map(str::trim)
        .any(|candidate| candidate == "*" || candidate.trim_start_matches("W/") == current_opaque)
}

/// What a GET's `If-Match` and `If-None-Match` ask of an entity whose tag is
/// `current` (`None` for an entity without a concurrency token).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadCondition {
    /// Send the entity.
    Send,
    /// 304: the client's copy is the current one.
    NotModified,
    /// 412: the client asked for a revision that is no longer current.
    Failed,
}

/// RFC 7232's order: `If-Match` first (412 unless it admits the entity), then
/// `If-None-Match` (304 when it names the entity's tag, or is `*`). Tags compare
/// weakly, as for writes.
pub fn read_condition(
    if_match: Option<&str>,
    if_none_match: Option<&str>,
    current: Option<&str>,
) -> ReadCondition {
    let names = |header: &str| match current {
        Some(tag) => if_match_admits(header, tag),
        None => header.trim() == "*",
    };
    if if_match.is_some_and(|header| !names(header)) {
        return ReadCondition::Failed;
    }
    if if_none_match.is_some_and(names) {
        return ReadCondition::NotModified;
    }
    ReadCondition::Send
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_conditional_get_is_answered_in_rfc_7232_order() {
        let tag = for_value(&Value::DateTime(1_795_253_412_123));
        let old = for_value(&Value::DateTime(1_795_253_412_000));
        let now = Some(tag.as_str());
        assert_eq!(read_condition(None, None, now), ReadCondition::Send);
        assert_eq!(
            read_condition(None, Some(&tag), now),
            ReadCondition::NotModified
        );
        assert_eq!(
            read_condition(None, Some("*"), now),
            ReadCondition::NotModified
        );
        assert_eq!(read_condition(None, Some(&old), now), ReadCondition::Send);
        assert_eq!(read_condition(Some(&old), None, now), ReadCondition::Failed);
        assert_eq!(
            read_condition(Some(&tag), Some(&tag), now),
            ReadCondition::NotModified
        );
        assert_eq!(
            read_condition(Some(&old), Some(&tag), now),
            ReadCondition::Failed
        );
        assert_eq!(read_condition(Some("*"), None, None), ReadCondition::Send);
        assert_eq!(
            read_condition(Some(&tag), None, None),
            ReadCondition::Failed
        );
        assert_eq!(read_condition(None, Some(&tag), None), ReadCondition::Send);
    }

    #[test]
    fn a_datetime_token_is_a_weak_tag_of_its_percent_encoded_literal() {
        assert_eq!(
            for_value(&Value::DateTime(1_795_253_412_123)),
            "W/\"datetime'2026-11-21T09%3A30%3A12.123'\""
        );
    }

    #[test]
    fn if_match_admits_the_same_tag_a_list_holding_it_and_star_only() {
        let tag = for_value(&Value::DateTime(1_795_253_412_123));
        let other = for_value(&Value::DateTime(1_795_253_412_124));
        assert!(if_match_admits(&tag, &tag));
        assert!(if_match_admits(&format!("{other}, {tag}"), &tag));
        assert!(if_match_admits("*", &tag));
        assert!(if_match_admits(tag.trim_start_matches("W/"), &tag));
        assert!(!if_match_admits(&other, &tag));
        assert!(!if_match_admits("", &tag));
    }
}
