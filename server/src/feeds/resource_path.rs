//! The resource path after `/deliveryodata/<customer_id>`, percent-decoded.

use crate::odata::service_document::ENTITY_SETS;
use crate::odata::ApiError;

#[derive(Debug, PartialEq, Eq)]
pub enum ResourcePath {
    /// `/deliveryodata/1/`; `root` is the service root path, ending in `/`.
    ServiceRoot { root: String },
    /// `Feed/$count`.
    Count { entity_set: String },
    /// Any other path into a known feed.
    Other { entity_set: String },
}

impl ResourcePath {
    /// Parses the request path (which starts `/deliveryodata/<customer_id>`).
    pub fn parse(request_path: &str) -> Result<Self, ApiError> {
        let decoded = percent_encoding::percent_decode_str(request_path)
            .decode_utf8()
            .map_err(|_| {
                ApiError::bad_request("the path is not valid UTF-8 once percent-decoded")
            })?;
        let mut segments = decoded.trim_start_matches('/').splitn(3, '/');
        let (_, customer) = (segments.next(), segments.next().unwrap_or_default());
        let rest = segments.next().unwrap_or_default().trim_end_matches('/');
        if rest.is_empty() {
            return Ok(ResourcePath::ServiceRoot {
                root: format!("/deliveryodata/{customer}/"),
            });
        }
        let (first, tail) = rest.split_once('/').unwrap_or((rest, ""));
        let name = first.split_once('(').map_or(first, |(name, _)| name);
        let Some(entity_set) = ENTITY_SETS.iter().find(|set| **set == name) else {
            return Err(ApiError::not_found(format!(
                "there is no resource '{name}' in this service"
            )));
        };
        let entity_set = (*entity_set).to_owned();
        if tail == "$count" && name == first {
            return Ok(ResourcePath::Count { entity_set });
        }
        Ok(ResourcePath::Other { entity_set })
    }

    pub fn entity_set(&self) -> Option<&str> {
        match self {
            ResourcePath::ServiceRoot { .. } => None,
            ResourcePath::Count { entity_set } | ResourcePath::Other { entity_set } => {
                Some(entity_set)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_service_root_parses_with_and_without_a_slash() {
        let root = ResourcePath::ServiceRoot {
            root: "/deliveryodata/7/".into(),
        };
        assert_eq!(ResourcePath::parse("/deliveryodata/7/").unwrap(), root);
        assert_eq!(ResourcePath::parse("/deliveryodata/7").unwrap(), root);
    }

    #[test]
    fn a_percent_encoded_count_path_is_a_count() {
        assert_eq!(
            ResourcePath::parse("/deliveryodata/7/ScoringTasks/%24count").unwrap(),
            ResourcePath::Count {
                entity_set: "ScoringTasks".into()
            }
        );
    }

    #[test]
    fn an_unknown_feed_is_not_found() {
        assert!(matches!(
            ResourcePath::parse("/deliveryodata/7/Nope"),
            Err(ApiError::NotFound(_))
        ));
    }
}
