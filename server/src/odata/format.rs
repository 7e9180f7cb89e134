//! Which format and protocol version a response uses: from `$format`, `Accept`,
//! `DataServiceVersion` and `MaxDataServiceVersion`.

use axum::http::HeaderMap;

use super::ApiError;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// JSON light, minimal metadata: the default.
    JsonLight,
    /// Verbose JSON (`{"d": ...}`), for version 2 clients.
    JsonVerbose,
}

/// The negotiated response format and version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Negotiated {
    pub format: Format,
    /// 2 for a client whose `MaxDataServiceVersion` is below 3.0, else 3.
    pub version: u8,
}

impl Negotiated {
    pub fn data_service_version(self) -> &'static str {
        if self.version < 3 {
            "2.0;"
        } else {
            "3.0;"
        }
    }
}

/// Reads `N.M` (optionally followed by `;...`) as tenths: "3.0;NetFx" is 30.
fn parse_version(name: &str, value: &str) -> Result<u32, ApiError> {
    let number = value.split(';').next().unwrap_or_default().trim();
    let bad = || {
        ApiError::bad_request(format!(
            "the {name} header '{value}' is not a version such as 3.0"
        ))
    };
    let (major, minor) = number.split_once('.').unwrap_or((number, "0"));
    if major.is_empty() || major.len() > 2 || minor.len() != 1 {
        return Err(bad());
    }
    let major: u32 = major.parse().map_err(|_| bad())?;
    let minor: u32 = minor.parse().map_err(|_| bad())?;
    Ok(major * 10 + minor)
}

/// Negotiates the format. `plain` is true for `$count` and `$value`, whose bodies are
/// not JSON: for them `Accept` is not checked against JSON.
pub fn negotiate(
    headers: &HeaderMap,
    format_option: Option<&str>,
    plain: bool,
) -> Result<Negotiated, ApiError> {
    let header = |name: &str| -> Result<Option<String>, ApiError> {
        headers
            .get(name)
            .map(|v| {
                v.to_str()
                    .map(str::to_owned)
                    .map_err(|_| ApiError::bad_request(format!("the {name} header is not text")))
            })
            .transpose()
    };
    if let Some(value) = header("DataServiceVersion")? {
        if parse_version("DataServiceVersion", &value)? > 30 {
            return Err(ApiError::bad_request(format!(
                "DataServiceVersion {value} is above 3.0, the highest this service speaks"
            )));
        }
    }
    let mut version = 3;
    if let Some(value) = header("MaxDataServiceVersion")? {
        let max = parse_version("MaxDataServiceVersion", &value)?;
        if max < 10 {
            return Err(ApiError::bad_request(format!(
                "MaxDataServiceVersion {value} is below 1.0"
            )));
        }
        if max < 30 {
            version = 2;
        }
    }
    let light_or_verbose = if version < 3 {
        Format::JsonVerbose
    } else {
        Format::JsonLight
    };
    if let Some(format) = format_option {
        let format = match format {
            "json" => light_or_verbose,
            "verbosejson" => Format::JsonVerbose,
            "atom" | "xml" => {
                return Err(ApiError::NotAcceptable(format!(
                    "$format={format}: this service answers in JSON only"
                )))
            }
            other => {
                return Err(ApiError::bad_request(format!(
                    "$format is json or verbosejson, not '{other}'"
                )))
            }
        };
        return Ok(Negotiated { format, version });
    }
    let Some(accept) = header("Accept")? else {
        return Ok(Negotiated {
            format: light_or_verbose,
            version,
        });
    };
    let mut acceptable = None;
    for range in accept.split(',') {
        let mut parts = range.split(';').map(str::trim);
        let media = parts.next().unwrap_or_default().to_ascii_lowercase();
        let params: Vec<String> = parts
            .map(|p| p.replace(' ', "").to_ascii_lowercase())
            .collect();
        if params.iter().any(|p| p == "q=0" || p == "q=0.0") {
            continue;
        }
        let choice = match media.as_str() {
            "application/json" if params.iter().any(|p| p == "odata=verbose") => {
                Some(Format::JsonVerbose)
            }
            "application/json" | "application/*" | "*/*" => Some(light_or_verbose),
            "text/plain" | "text/*" if plain => Some(light_or_verbose),
            _ if plain && media.starts_with("image/") => Some(light_or_verbose),
            _ => None,
        };
        if let Some(choice) = choice {
            // Prefer an explicit verbose request over wildcards in the same header.
            if acceptable.is_none() || choice == Format::JsonVerbose {
                acceptable = Some(choice);
            }
        }
    }
    if plain && acceptable.is_none() {
        // Media and counts are sent in their own type; a client that asked for
        // something else still gets them rather than an error.
        acceptable = Some(light_or_verbose);
    }
    match acceptable {
        Some(format) => Ok(Negotiated { format, version }),
        None => Err(ApiError::NotAcceptable(format!(
            "cannot answer with any of '{accept}'; this service answers in application/json"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, HeaderValue::from_static(value));
        }
        map
    }

    #[test]
    fn json_light_is_the_default() {
        assert_eq!(
            negotiate(&HeaderMap::new(), None, false).unwrap(),
            Negotiated {
                format: Format::JsonLight,
                version: 3
            }
        );
    }

    #[test]
    fn a_version_2_client_gets_verbose_json_for_application_json() {
        let n = negotiate(
            &headers(&[
                ("MaxDataServiceVersion", "2.0"),
                ("Accept", "application/json"),
            ]),
            None,
            false,
        )
        .unwrap();
        assert_eq!(
            n,
            Negotiated {
                format: Format::JsonVerbose,
                version: 2
            }
        );
    }

    #[test]
    fn verbose_is_chosen_by_accept_or_format() {
        let by_accept = negotiate(
            &headers(&[("Accept", "application/json;odata=verbose")]),
            None,
            false,
        )
        .unwrap();
        assert_eq!(by_accept.format, Format::JsonVerbose);
        assert_eq!(
            negotiate(&HeaderMap::new(), Some("verbosejson"), false)
                .unwrap()
                .format,
            Format::JsonVerbose
        );
    }

    #[test]
    fn atom_only_is_not_acceptable() {
        let result = negotiate(&headers(&[("Accept", "application/atom+xml")]), None, false);
        assert!(matches!(result, Err(ApiError::NotAcceptable(_))));
        assert!(matches!(
            negotiate(&HeaderMap::new(), Some("atom"), false),
            Err(ApiError::NotAcceptable(_))
        ));
    }

    #[test]
    fn malformed_or_too_new_versions_are_bad_requests() {
        for (name, value) in [
            ("DataServiceVersion", "4.0"),
            ("DataServiceVersion", "three"),
            ("MaxDataServiceVersion", "2.x"),
            ("DataServiceVersion", ""),
        ] {
            assert!(
                matches!(
                    negotiate(&headers(&[(name, value)]), None, false),
                    Err(ApiError::BadRequest(_))
                ),
                "{name}: {value}"
            );
        }
        assert!(negotiate(
            &headers(&[("DataServiceVersion", "3.0;NetFx")]),
            None,
            false
        )
        .is_ok());
    }
}
