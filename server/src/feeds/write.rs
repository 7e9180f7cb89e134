//! What every PUT shares: reading the body, finding the stored entity it replaces,
//! refusing changes to what may not change, and answering 204 (or 200 with the
//! entity when the client prefers `return-content`).

use crate::model::area::CustomerArea;
use axum::body::{to_bytes, Body, Bytes};
use axum::http::header::{CONTENT_TYPE, ETAG};
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

use super::read::{self, ReadRequest};
use crate::feeds::state::AppState;
use crate::odata::body::{parse_entity, require_json, EntityBody};
use crate::odata::format::negotiate;
use crate::odata::model::EntitySet;
use crate::odata::path::EntityPath;
use crate::odata::query::QueryOptions;
use crate::odata::value::Value;
use crate::odata::ApiError;
use crate::store::read::Scope;

/// What a PUT wrote, for its answer once the writes are committed.
pub struct Written {
    /// The entity's new ETag, for feeds with a concurrency token.
    pub etag: Option<String>,
}

/// A PUT as the feed handlers see it.
pub struct PutRequest<'a> {
    pub state: &'a AppState,
    pub area: CustomerArea,
    pub headers: &'a HeaderMap,
    pub uri: &'a Uri,
    pub path: &'a EntityPath,
    pub options: &'a QueryOptions,
    pub body: Bytes,
}

impl PutRequest<'_> {
    /// The rows the path addresses: one entity, since PUT is declared on single
    /// entities only.
    pub async fn scope(&self) -> Result<Scope, ApiError> {
        Ok(read::resolve(self.state, self.area, self.path).await?.scope)
    }

    /// 404 for a path that addresses no entity.
    pub fn missing(&self) -> ApiError {
        ApiError::not_found(format!(
            "there is no {} with that key",
            self.path.target().type_name
        ))
    }

    /// The body as one entity of `set`: JSON, typed, with no unknown property.
    pub fn entity(&self, set: &'static EntitySet) -> Result<EntityBody, ApiError> {
        require_json(
            self.headers
                .get(CONTENT_TYPE)
                .and_then(|value| value.to_str().ok()),
        )?;
        parse_entity(set, &self.body)
    }

    /// 204 with no body, or 200 with the entity as a GET would return it when the
    /// request says `Prefer: return-content` (the contract's write responses). Called
    /// once the writes are committed, so that the entity read is the new one.
    pub async fn respond(&self, written: Written) -> Result<Response, ApiError> {
        let etag = written.etag;
        if prefers_content(self.headers) {
            let read_request = ReadRequest {
                area: self.area,
                headers: self.headers,
                uri: self.uri,
                head: false,
            };
            let mut response = read::get(self.state, read_request, self.path, self.options).await?;
            response.headers_mut().insert(
                "Preference-Applied",
                HeaderValue::from_static("return-content"),
            );
            return Ok(response);
        }
        let version = negotiate(self.headers, None, false)
            .map_or("3.0;", |negotiated| negotiated.data_service_version());
        let mut response = StatusCode::NO_CONTENT.into_response();
        let headers = response.headers_mut();
        headers.insert("DataServiceVersion", HeaderValue::from_static(version));
        if let Some(value) = etag.and_then(|tag| HeaderValue::from_str(&tag).ok()) {
            headers.insert(ETAG, value);
        }
        Ok(response)
    }
}

fn prefers_content(headers: &HeaderMap) -> bool {
    headers
        .get_all("Prefer")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .any(|preference| preference.trim().eq_ignore_ascii_case("return-content"))
}

/// Reads a request body of at most `limit` bytes (413 beyond).
pub async fn read_body(body: Body, limit: usize) -> Result<Bytes, ApiError> {
    to_bytes(body, limit)
        .await
        .map_err(|_| ApiError::PayloadTooLarge(format!("the body is larger than {limit} bytes")))
}

/// Refuses a body that changes anything but `writable`: key properties must equal
/// the URL's entity and every other property, when sent, its stored value (a client
/// sends back the whole entity it read). `stored` holds the stored entity's values.
pub fn check_unchanged(
    body: &EntityBody,
    set: &EntitySet,
    stored: &[(&'static str, Value)],
    writable: &[&str],
) -> Result<(), ApiError> {
    for (property, sent) in &body.values {
        // The concurrency token is the feed's to check: a stale one is a 412.
        if writable.contains(&property.name) || set.concurrency == Some(property.name) {
            continue;
        }
        let current = stored
            .iter()
            .find(|(name, _)| *name == property.name)
            .map_or(&Value::Null, |(_, value)| value);
        if current == sent {
            continue;
        }
        let describe = |value: &Value| {
            value
                .to_json(crate::odata::format::Format::JsonLight)
                .to_string()
        };
        return Err(ApiError::bad_request(if set.key.contains(&property.name) {
            format!(
                "{}.{} is part of the key and cannot change: the URL addresses {}, the body says {}",
                set.type_name,
                property.name,
                describe(current),
                describe(sent)
            )
        } else {
            format!(
                "{}.{} is read-only (only {} may change): it is {}, the body says {}",
                set.type_name,
                property.name,
                writable.join(" and "),
                describe(current),
                describe(sent)
            )
        }));
    }
    Ok(())
}
