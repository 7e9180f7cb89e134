//! A link's two ends as a `$links` write names them: the entity the path starts at
//! (`Groups(3)`) and the one the body's URL names (OData's `{"url": "…"}` in JSON,
//! `{"uri": "…"}` in verbose JSON, `<uri>…</uri>` in XML), which must be an entity
//! of the navigation's target set in the same customer area.

use axum::http::header::CONTENT_TYPE;
use quick_xml::events::Event;

use crate::feeds::handler::WriteRequest;
use crate::odata::filter::Literal;
use crate::odata::path::{self, ResourcePath};
use crate::odata::ApiError;

/// The Int32 key of the entity the path starts at.
pub fn link_key(request: &WriteRequest<'_>) -> Result<i32, ApiError> {
    match request.path.key.as_ref().and_then(|key| key.0.first()) {
        Some((_, Literal::Int32(id))) => Ok(*id),
        _ => Err(request.missing()),
    }
}

const LINK_BODY: &str =
    "a link's body is {\"url\": \"<the entity's URL>\"}, as Participants(5) or its full URL";

/// The Int32 key of the entity the body's URL names.
pub fn linked_key(request: &WriteRequest<'_>) -> Result<i32, ApiError> {
    let target = request
        .path
        .steps
        .last()
        .map(|step| step.target)
        .ok_or_else(|| ApiError::bad_request(LINK_BODY))?;
    let xml = request
        .headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.contains("xml"));
    let url = if xml {
        xml_uri(&request.body)
    } else {
        json_url(&request.body)
    }
    .ok_or_else(|| ApiError::bad_request(LINK_BODY))?;
    let decoded = percent_encoding::percent_decode_str(url.trim())
        .decode_utf8()
        .map_err(|_| ApiError::bad_request("the link's URL is not UTF-8 once percent-decoded"))?;
    // A full URL names its area; it must be this one.
    let relative = match decoded.split_once("/deliveryodata/") {
        Some((_, rest)) => {
            let (area, rest) = rest.split_once('/').unwrap_or((rest, ""));
            if area != request.area.id().to_string() {
                return Err(ApiError::bad_request(format!(
                    "the link's URL {decoded} is another customer area's"
                )));
            }
            rest.to_owned()
        }
        None => decoded.trim_start_matches('/').to_owned(),
    };
    let wrong = || {
        ApiError::bad_request(format!(
            "the link's URL {decoded} does not name one {} by its key, as {}(5)",
            target.type_name, target.name
        ))
    };
    // Only the target set is looked up: any other name does not parse, and is
    // refused as not naming one of it.
    let only_target = |name: &str| (name == target.name).then_some(target);
    match path::parse(&relative, only_target, &[]).map_err(|_| wrong())? {
        ResourcePath::Entities(named)
            if named.set.name == target.name && named.steps.is_empty() && !named.links =>
        {
            match named.key.as_ref().and_then(|key| key.0.first()) {
                Some((_, Literal::Int32(id))) => Ok(*id),
                _ => Err(wrong()),
            }
        }
        _ => Err(wrong()),
    }
}

fn json_url(body: &[u8]) -> Option<String> {
    let json: serde_json::Value = serde_json::from_slice(body).ok()?;
    let record = json.get("d").unwrap_or(&json);
    record
        .get("url")
        .or_else(|| record.get("uri"))
        .and_then(|v| v.as_str())
        .map(str::to_owned)
}

fn xml_uri(body: &[u8]) -> Option<String> {
    let mut reader = quick_xml::Reader::from_reader(body);
    let mut inside = false;
    let mut buffer = Vec::new();
    loop {
        match reader.read_event_into(&mut buffer).ok()? {
            Event::Start(start) if start.local_name().as_ref() == b"uri" => inside = true,
            Event::Text(text) if inside => return text.decode().ok().map(|t| t.into_owned()),
            Event::Eof => return None,
            _ => {}
        }
        buffer.clear();
    }
}
