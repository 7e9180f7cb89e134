//! Which format and protocol version a response uses: from `$format`, `Accept`,
//! `DataServiceVersion` and `MaxDataServiceVersion`.

use axum::http::HeaderMap;

use super::ApiError;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// JSON light, minimal metadata: the default.
    JsonLight,
    /// JSON light with full metadata: each entity's type, id, links and ETag.
    JsonFullMetadata,
    /// JSON light without metadata: the values alone.
    JsonNoMetadata,
    /// Verbose JSON (`{"d": ...}`), for version 2 clients.
    JsonVerbose,
    /// The Atom format (AtomPub for the service document), and XML for errors.
    Atom,
}

impl Format {
    /// JSON light in any of its metadata levels.
    pub fn is_json_light(self) -> bool {
        matches!(
            self,
            Format::JsonLight | Format::JsonFullMetadata | Format::JsonNoMetadata
        )
    }
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
            "atom" | "xml" => Format::Atom,
            other => match choice_of(other, light_or_verbose, plain) {
                Some((format, _)) => format,
                None => {
                    return Err(ApiError::bad_request(format!(
                        "$format is json, verbosejson, atom or xml, not '{other}'"
                    )))
                }
            },
        };
        return Ok(Negotiated { format, version });
    }
    let Some(accept) = header("Accept")? else {
        return Ok(Negotiated {
            format: light_or_verbose,
            version,
        });
    };
    // The highest weight wins; among equals, the more specific range, then the
    // earlier one.
    let mut best: Option<(Format, f32, u8)> = None;
    for range in accept.split(',') {
        let weight = range
            .split(';')
            .map(|p| p.replace(' ', "").to_ascii_lowercase())
            .find_map(|p| {
                p.strip_prefix("q=")
                    .map(|q| q.parse::<f32>().unwrap_or(1.0))
            })
            .unwrap_or(1.0);
        if weight <= 0.0 {
            continue;
        }
        let Some((format, specific)) = choice_of(range, light_or_verbose, plain) else {
            continue;
        };
        let better = match best {
            None => true,
            Some((_, w, s)) => weight > w || (weight == w && specific > s),
        };
        if better {
            best = Some((format, weight, specific));
        }
    }
    let acceptable = best.map(|(format, _, _)| format).or(
        // Media and counts are sent in their own type; a client that asked for
        // something else still gets them rather than an error.
        plain.then_some(light_or_verbose),
    );
    match acceptable {
        Some(format) => Ok(Negotiated { format, version }),
        None => Err(ApiError::NotAcceptable(format!(
            "cannot answer with any of '{accept}'; this service answers in application/json (odata=minimalmetadata, fullmetadata, nometadata or verbose), application/atom+xml or application/xml"
        ))),
    }
}

/// The format one media range asks for, and how specific it is (2: a JSON
/// metadata level or an XML type; 1: JSON; 0: a wildcard).
fn choice_of(range: &str, light_or_verbose: Format, plain: bool) -> Option<(Format, u8)> {
    let mut parts = range.split(';').map(str::trim);
    let media = parts.next().unwrap_or_default().to_ascii_lowercase();
    let odata = parts
        .map(|p| p.replace(' ', "").to_ascii_lowercase())
        .find_map(|p| p.strip_prefix("odata=").map(str::to_owned));
    Some(match media.as_str() {
        "application/json" => match odata.as_deref() {
            Some("verbose") => (Format::JsonVerbose, 2),
            Some("fullmetadata") => (Format::JsonFullMetadata, 2),
            Some("nometadata") => (Format::JsonNoMetadata, 2),
            Some("minimalmetadata") => (Format::JsonLight, 2),
            _ => (light_or_verbose, 1),
        },
        "application/atom+xml" | "application/atomsvc+xml" | "application/xml" | "text/xml" => {
            (Format::Atom, 2)
        }
        "application/*" | "*/*" => (light_or_verbose, 0),
        "text/plain" | "text/*" if plain => (light_or_verbose, 1),
        _ if plain && media.starts_with("image/") => (light_or_verbose, 1),
        _ => return None,
    })
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
    fn atom_and_xml_are_chosen_by_accept_or_format() {
        for accept in [
            "application/atom+xml",
            "application/xml",
            "application/atom+xml,application/xml",
        ] {
            let n = negotiate(&headers(&[("Accept", accept)]), None, false).unwrap();
            assert_eq!(n.format, Format::Atom, "{accept}");
        }
        for option in ["atom", "xml"] {
            assert_eq!(
                negotiate(&HeaderMap::new(), Some(option), false)
                    .unwrap()
                    .format,
                Format::Atom
            );
        }
        assert!(matches!(
            negotiate(&headers(&[("Accept", "text/html")]), None, false),
            Err(ApiError::NotAcceptable(_))
        ));
    }

    #[test]
    fn weights_decide_and_json_stays_the_default() {
        let pick = |accept: &'static str| {
            negotiate(&headers(&[("Accept", accept)]), None, false)
                .unwrap()
                .format
        };
        assert_eq!(
            pick("application/atom+xml;q=0.5,application/json"),
            Format::JsonLight
        );
        assert_eq!(
            pick("application/json;q=0.5,application/atom+xml"),
            Format::Atom
        );
        assert_eq!(pick("application/xml;q=0.9,*/*;q=0.8"), Format::Atom);
        assert_eq!(pick("*/*"), Format::JsonLight);
        assert_eq!(pick("application/atom+xml;q=0,*/*"), Format::JsonLight);
        assert_eq!(
            pick("application/json;odata=fullmetadata"),
            Format::JsonFullMetadata
        );
        assert_eq!(
            pick("application/json;odata=nometadata"),
            Format::JsonNoMetadata
        );
        assert_eq!(
            pick("application/json;odata=minimalmetadata"),
            Format::JsonLight
        );
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
