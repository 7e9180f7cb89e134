//! The query string: system query options (`$filter`, ...) after percent-decoding.

use super::filter::{self, Filter};
use super::ApiError;

/// The system query options this service reads, parsed.
#[derive(Debug, Default)]
pub struct QueryOptions {
    pub filter: Option<Filter>,
}

impl QueryOptions {
    /// Parses a raw query string. `+` is a space and `%24filter` is `$filter`.
    pub fn parse(raw: Option<&str>) -> Result<Self, ApiError> {
        let mut options = QueryOptions::default();
        let Some(raw) = raw else { return Ok(options) };
        if raw.split('&').any(has_bad_escape) {
            return Err(ApiError::bad_request(
                "the query string has a malformed %-escape",
            ));
        }
        for (name, value) in form_urlencoded::parse(raw.as_bytes()) {
            match name.as_ref() {
                "$filter" => {
                    if options.filter.is_some() {
                        return Err(ApiError::bad_request("$filter is given more than once"));
                    }
                    let parsed =
                        filter::parse(&value).map_err(|e| ApiError::bad_request(e.to_string()))?;
                    options.filter = Some(parsed);
                }
                name if name.starts_with('$') && !KNOWN_OPTIONS.contains(&name) => {
                    return Err(ApiError::bad_request(format!(
                        "unknown system query option '{name}'"
                    )));
                }
                _ => {}
            }
        }
        Ok(options)
    }
}

/// Options a later part of the protocol reads; accepted here rather than refused.
const KNOWN_OPTIONS: &[&str] = &[
    "$format",
    "$top",
    "$skip",
    "$orderby",
    "$expand",
    "$select",
    "$inlinecount",
    "$skiptoken",
];

fn has_bad_escape(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.iter().enumerate().any(|(i, &b)| {
        b == b'%'
            && !(bytes.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
                && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_encoded_filter_means_the_same_as_a_plain_one() {
        let plain = QueryOptions::parse(Some("$filter=Status eq 0")).unwrap();
        let encoded = QueryOptions::parse(Some("%24filter=Status+eq+0")).unwrap();
        assert_eq!(plain.filter, encoded.filter);
        assert!(plain.filter.is_some());
    }

    #[test]
    fn a_bad_percent_escape_is_refused() {
        assert!(QueryOptions::parse(Some("$filter=Status%zzeq 0")).is_err());
        assert!(QueryOptions::parse(Some("$filter=Status eq 0%")).is_err());
    }

    #[test]
    fn an_unknown_system_option_is_refused() {
        assert!(QueryOptions::parse(Some("$frobnicate=1")).is_err());
    }
}
