//! The query string: system query options after percent-decoding (`+` is a space,
//! `%24filter` is `$filter`).

use super::filter::{self, Filter};
use super::orderby::{self, is_identifier, OrderKey};
use super::ApiError;

/// The system query options of a request, parsed.
#[derive(Debug, Default)]
pub struct QueryOptions {
    pub filter: Option<Filter>,
    pub orderby: Vec<OrderKey>,
    pub top: Option<u64>,
    pub skip: Option<u64>,
    /// Navigation paths, each one or two steps long.
    pub expand: Vec<Vec<String>>,
    /// Property names, or `*` for all; empty means all.
    pub select: Vec<String>,
    pub inline_count: bool,
    pub format: Option<String>,
    pub skiptoken: Option<String>,
    /// Parameters that are not system query options (action parameters).
    pub parameters: Vec<(String, String)>,
}

/// The deepest `$expand` accepted.
pub const MAX_EXPAND_DEPTH: usize = 2;
/// The most `$expand` paths accepted.
const MAX_EXPAND_PATHS: usize = 8;
/// The largest `$top` and `$skip` accepted.
const MAX_COUNT: u64 = 1_000_000_000;

impl QueryOptions {
    /// Parses a raw query string.
    pub fn parse(raw: Option<&str>) -> Result<Self, ApiError> {
        let mut options = QueryOptions::default();
        let Some(raw) = raw else { return Ok(options) };
        if has_bad_escape(raw) {
            return Err(ApiError::bad_request(
                "the query string has a malformed %-escape",
            ));
        }
        for pair in raw.split('&') {
            let spaced = pair.replace('+', " ");
            if percent_encoding::percent_decode_str(&spaced)
                .decode_utf8()
                .is_err()
            {
                return Err(ApiError::bad_request(
                    "the query string is not valid UTF-8 once percent-decoded",
                ));
            }
        }
        let mut seen: Vec<String> = Vec::new();
        for (name, value) in form_urlencoded::parse(raw.as_bytes()) {
            let name = name.into_owned();
            if name.starts_with('$') {
                if seen.contains(&name) {
                    return Err(ApiError::bad_request(format!(
                        "{name} is given more than once"
                    )));
                }
                seen.push(name.clone());
            }
            let bad = |message: String| ApiError::bad_request(message);
            match name.as_str() {
                "$filter" => options.filter = Some(filter::parse(&value).map_err(|e| bad(e.to_string()))?),
                "$orderby" => options.orderby = orderby::parse(&value).map_err(bad)?,
                "$top" => options.top = Some(parse_count("$top", &value)?),
                "$skip" => options.skip = Some(parse_count("$skip", &value)?),
                "$expand" => options.expand = parse_expand(&value)?,
                "$select" => options.select = parse_select(&value)?,
                "$inlinecount" => {
                    options.inline_count = match value.as_ref() {
                        "allpages" => true,
                        "none" => false,
                        other => return Err(bad(format!("$inlinecount is allpages or none, not '{other}'"))),
                    }
                }
                "$format" => options.format = Some(value.into_owned()),
                "$skiptoken" => options.skiptoken = Some(value.into_owned()),
                other if other.starts_with('$') => {
                    return Err(bad(format!(
                        "unknown system query option '{other}'; this service takes $filter, $orderby, $top, $skip, $expand, $select, $inlinecount, $format and $skiptoken"
                    )))
                }
                _ => options.parameters.push((name, value.into_owned())),
            }
        }
        Ok(options)
    }
}

fn parse_count(name: &str, value: &str) -> Result<u64, ApiError> {
    match value.parse::<u64>() {
        Ok(n) if n <= MAX_COUNT => Ok(n),
        Ok(_) => Err(ApiError::bad_request(format!(
            "{name} may be at most {MAX_COUNT}"
        ))),
        Err(_) => Err(ApiError::bad_request(format!(
            "{name} must be a non-negative whole number, not '{value}'"
        ))),
    }
}

fn parse_expand(value: &str) -> Result<Vec<Vec<String>>, ApiError> {
    let mut paths = Vec::new();
    for item in value.split(',') {
        let segments: Vec<String> = item.trim().split('/').map(str::to_owned).collect();
        if segments.iter().any(|s| !is_identifier(s)) {
            return Err(ApiError::bad_request(format!(
                "$expand: '{}' is not a navigation path",
                item.trim()
            )));
        }
        if segments.len() > MAX_EXPAND_DEPTH {
            return Err(ApiError::bad_request(format!(
                "$expand reaches at most {MAX_EXPAND_DEPTH} levels; '{}' has {}",
                item.trim(),
                segments.len()
            )));
        }
        paths.push(segments);
    }
    if paths.len() > MAX_EXPAND_PATHS {
        return Err(ApiError::bad_request(format!(
            "$expand lists more than {MAX_EXPAND_PATHS} paths"
        )));
    }
    Ok(paths)
}

fn parse_select(value: &str) -> Result<Vec<String>, ApiError> {
    let mut names = Vec::new();
    for item in value.split(',') {
        let item = item.trim();
        if item != "*" && !is_identifier(item) {
            return Err(ApiError::bad_request(format!(
                "$select: '{item}' is not a property name"
            )));
        }
        names.push(item.to_owned());
    }
    Ok(names)
}

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

    #[test]
    fn every_option_parses() {
        let options = QueryOptions::parse(Some(
            "$top=5&$skip=10&$orderby=ID desc&$expand=Answers,Result/Assessment&$select=ID,Status&$inlinecount=allpages&$format=json&ParticipantName='bob'",
        ))
        .unwrap();
        assert_eq!((options.top, options.skip), (Some(5), Some(10)));
        assert_eq!(
            options.expand,
            vec![
                vec!["Answers".to_owned()],
                vec!["Result".to_owned(), "Assessment".to_owned()]
            ]
        );
        assert_eq!(options.select, vec!["ID", "Status"]);
        assert!(options.inline_count);
        assert_eq!(
            options.parameters,
            vec![("ParticipantName".to_owned(), "'bob'".to_owned())]
        );
    }

    #[test]
    fn expands_deeper_than_two_levels_are_refused() {
        let Err(ApiError::BadRequest(message)) = QueryOptions::parse(Some("$expand=A/B/C")) else {
            panic!()
        };
        assert!(message.contains("at most 2"), "{message}");
    }

    #[test]
    fn malformed_numbers_and_repeats_are_refused() {
        for query in [
            "$top=-1",
            "$top=abc",
            "$skip=1.5",
            "$top=99999999999999999999",
            "$top=1&$top=2",
            "$inlinecount=some",
        ] {
            assert!(QueryOptions::parse(Some(query)).is_err(), "{query}");
        }
    }
}
