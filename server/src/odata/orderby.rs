//! `$orderby`: a comma-separated list of property paths, each `asc` or `desc`.

use std::fmt;

use super::filter::PropertyPath;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderKey {
    pub path: PropertyPath,
    pub descending: bool,
}

impl fmt::Display for OrderKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}",
            self.path,
            if self.descending { "desc" } else { "asc" }
        )
    }
}

/// The most keys one `$orderby` may list.
const MAX_KEYS: usize = 8;

/// Parses `Result/WhenFinished desc, ID`.
pub fn parse(text: &str) -> Result<Vec<OrderKey>, String> {
    let mut keys = Vec::new();
    for item in text.split(',') {
        let mut words = item.split_whitespace();
        let path = words
            .next()
            .ok_or_else(|| "$orderby has an empty item".to_owned())?;
        let descending = match words.next() {
            None | Some("asc") => false,
            Some("desc") => true,
            Some(other) => {
                return Err(format!(
                    "$orderby: expected asc or desc after '{path}', found '{other}'"
                ))
            }
        };
        if let Some(extra) = words.next() {
            return Err(format!("$orderby: unexpected '{extra}' after '{path}'"));
        }
        let segments: Vec<String> = path.split('/').map(str::to_owned).collect();
        if segments.len() > 2 || segments.iter().any(|s| !is_identifier(s)) {
            return Err(format!(
                "$orderby: '{path}' is not a property or a property one navigation step away"
            ));
        }
        keys.push(OrderKey {
            path: PropertyPath::new(segments),
            descending,
        });
    }
    if keys.len() > MAX_KEYS {
        return Err(format!("$orderby lists more than {MAX_KEYS} keys"));
    }
    Ok(keys)
}

pub fn is_identifier(text: &str) -> bool {
    let mut chars = text.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Prints keys back in `$orderby` syntax.
pub fn print(keys: &[OrderKey]) -> String {
    keys.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn several_keys_with_directions_parse() {
        let keys = parse("Result/WhenFinished desc, ID").unwrap();
        assert_eq!(keys.len(), 2);
        assert!(keys[0].descending && !keys[1].descending);
        assert_eq!(keys[0].path.to_string(), "Result/WhenFinished");
        assert_eq!(parse(&print(&keys)).unwrap(), keys);
    }

    #[test]
    fn malformed_orderby_is_refused() {
        for text in [
            "",
            "ID sideways",
            "ID asc desc",
            "A/B/C",
            "1abc",
            "ID,",
            "I D",
        ] {
            assert!(parse(text).is_err(), "{text}");
        }
    }
}
