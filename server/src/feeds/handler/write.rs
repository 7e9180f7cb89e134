//! What every write shares: reading the body, finding the stored entity a PUT or
//! DELETE addresses, refusing changes to what may not change, the concurrency token
//! a client read, and the answer: 204 for PUT and DELETE (or 200 with the entity
//! when the client prefers `return-content`), 201 with the entity and its
//! `Location` for a POST (or 204 when it prefers `return-no-content`). Which
//! handler serves which method is each feed's declaration (`feed.rs`).

use crate::model::area::CustomerArea;
use axum::body::Bytes;
use axum::http::header::{CONTENT_TYPE, ETAG, IF_MATCH, LOCATION};
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

use super::state::AppState;
use crate::auth::Principal;
use crate::feeds::read::{self, service_root, ReadRequest};
use crate::odata::atom_body;
use crate::odata::body::{
    entity_body_format, parse_entity, parse_entity_object, BodyFormat, EntityBody,
};
use crate::odata::etag;
use crate::odata::format::negotiate;
use crate::odata::model::EntitySet;
use crate::odata::path::EntityPath;
use crate::odata::query::QueryOptions;
use crate::odata::value::{format_datetime, Value};
use crate::odata::ApiError;
use crate::store::read::{Constraint, RowsQuery, Scope};

/// What a write did, for its answer once the writes are committed.
pub enum Written {
    /// The entity the URL addresses was replaced; its new ETag, for feeds with a
    /// concurrency token.
    Replaced { etag: Option<String> },
    /// A new entity, addressed by `path`; `key` is its key predicate (`5`).
    Created { path: EntityPath, key: String },
    /// The entity the URL addresses is gone.
    Deleted,
}

/// A write as the feed handlers see it.
pub struct WriteRequest<'a> {
    pub state: &'a AppState,
    pub area: CustomerArea,
    /// Who writes: feeds that record it (a banked comment's author) read it here.
    pub principal: &'a Principal,
    pub headers: &'a HeaderMap,
    pub uri: &'a Uri,
    pub path: &'a EntityPath,
    pub options: &'a QueryOptions,
    pub body: Bytes,
}

impl WriteRequest<'_> {
    /// The rows the path addresses: one entity, since PUT and DELETE are declared on
    /// single entities only.
    pub async fn scope(&self) -> Result<Scope, ApiError> {
        let mut scope = read::resolve(self.state, self.area, self.principal, self.path)
            .await?
            .scope;
        // A paused marker's writes to a task of the question are refused with the
        // pause's message in their transaction (feeds/marking/pauses.rs), not
        // answered 404 as the open tasks his reads leave out would be.
        scope
            .constraints
            .retain(|c| !matches!(c, Constraint::NoOpenTaskOf(_)));
        Ok(scope)
    }

    /// The stored properties of the entity the path addresses, of `set`, as a
    /// read of it returns them (404 when there is none).
    pub async fn stored_values(
        &self,
        set: &'static EntitySet,
    ) -> Result<Vec<(&'static str, Value)>, ApiError> {
        let scope = self.scope().await?;
        let query = RowsQuery::first_page(&scope, None, &[], 1, self.state.sets);
        let row = self
            .state
            .store
            .rows(self.area, &query)
            .await?
            .into_iter()
            .next()
            .ok_or_else(|| self.missing())?;
        Ok(set
            .stored_properties()
            .into_iter()
            .map(|property| property.name)
            .zip(row.values)
            .collect())
    }

    /// 404 for a path that addresses no entity.
    pub fn missing(&self) -> ApiError {
        ApiError::not_found(format!(
            "there is no {} with that key",
            self.path.target().type_name
        ))
    }

    /// The body as one entity of `set`: JSON or an Atom entry, typed, with no
    /// unknown property.
    pub fn entity(&self, set: &'static EntitySet) -> Result<EntityBody, ApiError> {
        let content_type = self
            .headers
            .get(CONTENT_TYPE)
            .and_then(|value| value.to_str().ok());
        match entity_body_format(content_type)? {
            BodyFormat::Json => parse_entity(set, &self.body),
            BodyFormat::Atom => {
                parse_entity_object(set, atom_body::entry_properties(set, &self.body)?)
            }
        }
    }

    /// The revision (`ModifiedDateTime`) of the addressed entity that the client
    /// read and means to change: `sent` (the body's value) or, with an `If-Match`
    /// naming the stored ETag, the stored one; `None` when it says neither. An
    /// `If-Match` naming another revision is a 412. (The feed's conditional write
    /// then refuses a stale `sent`, the one check that also holds between
    /// concurrent writers.)
    pub fn revision_read(&self, sent: Option<i64>, stored: i64) -> Result<Option<i64>, ApiError> {
        let if_match = self
            .headers
            .get(IF_MATCH)
            .map(|value| {
                value.to_str().map_err(|_| {
                    ApiError::bad_request("the If-Match header is not a list of ETags in ASCII")
                })
            })
            .transpose()?;
        let current = etag::for_value(&Value::DateTime(stored));
        if if_match.is_some_and(|header| !etag::if_match_admits(header, &current)) {
            return Err(self.stale(stored));
        }
        Ok(sent.or(if_match.map(|_| stored)))
    }

    /// 412: the addressed entity is no longer the revision the client read.
    pub fn stale(&self, stored: i64) -> ApiError {
        ApiError::PreconditionFailed(format!(
            "the {} was changed by someone else (it is now the revision of {}); \
             read it again and apply your changes to that revision",
            self.path.target().type_name,
            format_datetime(stored)
        ))
    }

    /// The answer to what was written (see the module's comment). Called once the
    /// writes are committed, so that the entity read is the new one.
    pub async fn respond(&self, written: Written) -> Result<Response, ApiError> {
        match written {
            Written::Replaced { etag } => self.replaced(etag).await,
            Written::Created { path, key } => self.created(&path, &key).await,
            Written::Deleted => Ok(self.no_content(None)),
        }
    }

    /// 201 with the new entity as a GET of it would return it, and its URL in
    /// `Location`; 204 with `Location` when the client prefers no content.
    async fn created(&self, path: &EntityPath, key: &str) -> Result<Response, ApiError> {
        let read_request = ReadRequest {
            area: self.area,
            principal: self.principal,
            headers: self.headers,
            uri: self.uri,
            head: false,
        };
        let mut response =
            read::get(self.state, read_request, path, &QueryOptions::default()).await?;
        let etag = response.headers().get(ETAG).cloned();
        if preference(self.headers, "return-no-content") {
            response = self.no_content(None);
            if let Some(etag) = etag {
                response.headers_mut().insert(ETAG, etag);
            }
            response.headers_mut().insert(
                "Preference-Applied",
                HeaderValue::from_static("return-no-content"),
            );
        } else {
            *response.status_mut() = StatusCode::CREATED;
        }
        let location = format!(
            "{}{}({key})",
            service_root(self.headers, self.area),
            path.set.name
        );
        if let Ok(value) = HeaderValue::from_str(&location) {
            response.headers_mut().insert(LOCATION, value);
        }
        Ok(response)
    }

    /// 204, or 200 with the entity when the client prefers `return-content`.
    async fn replaced(&self, etag: Option<String>) -> Result<Response, ApiError> {
        if preference(self.headers, "return-content") {
            let read_request = ReadRequest {
                area: self.area,
                principal: self.principal,
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
        Ok(self.no_content(etag))
    }

    fn no_content(&self, etag: Option<String>) -> Response {
        let version = negotiate(self.headers, None, false)
            .map_or("3.0;", |negotiated| negotiated.data_service_version());
        let mut response = StatusCode::NO_CONTENT.into_response();
        let headers = response.headers_mut();
        headers.insert("DataServiceVersion", HeaderValue::from_static(version));
        if let Some(value) = etag.and_then(|tag| HeaderValue::from_str(&tag).ok()) {
            headers.insert(ETAG, value);
        }
        response
    }
}

/// Whether the request's `Prefer` header asks for `wanted`.
fn preference(headers: &HeaderMap, wanted: &str) -> bool {
    headers
        .get_all("Prefer")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .any(|preference| preference.trim().eq_ignore_ascii_case(wanted))
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
        // The concurrency token is the feed's to check: a stale one is a 412. A value
        // computed per request (a signed link) is never stored: sent back, it is
        // ignored.
        if writable.contains(&property.name)
            || set.concurrency == Some(property.name)
            || property.column.is_empty()
        {
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
