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

#[cfg(test)]
mod tests {
    use super::*;

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
