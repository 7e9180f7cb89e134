//! `GET` (and `HEAD`) on any entity path: feeds, entities, navigation, `$count`,
//! `$value` and `$links`, with every query option, in every format.

mod fetch;
mod links;
mod page;
mod resolve;
mod respond;
mod seen;

use axum::body::Body;
use axum::http::header::{
    CONTENT_LENGTH, CONTENT_SECURITY_POLICY, CONTENT_TYPE, ETAG, IF_MATCH, IF_NONE_MATCH,
    X_CONTENT_TYPE_OPTIONS,
};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::feeds::handler::state::AppState;
use crate::model::area::CustomerArea;
use crate::odata::atom;
use crate::odata::chunks::Chunks;
use crate::odata::etag::{self, ReadCondition};
use crate::odata::format::{negotiate, Format, Negotiated};
use crate::odata::json::{entity_document, EntityOut, FeedHead, FeedPieces};
use crate::odata::path::{EntityPath, Suffix};
use crate::odata::query::QueryOptions;
use crate::odata::ApiError;
pub use page::ReadRequest;
use page::{page, read_one, typed_filter, Page};
pub use resolve::resolve;
use resolve::Target;
pub use respond::service_root;
use respond::{atom_response, atom_updated, json_response, with_headers};

pub async fn get(
    state: &AppState,
    request: ReadRequest<'_>,
    path: &EntityPath,
    options: &QueryOptions,
) -> Result<Response, ApiError> {
    let negotiated = negotiate(
        request.headers,
        options.format.as_deref(),
        path.suffix != Suffix::None,
    )?;
    let target = resolve(state, request.area, request.principal, path).await?;
    let set = target.set();
    for name in options.select.iter().filter(|name| *name != "*") {
        if set.property(name).is_none() && set.navigation(name).is_none() {
            return Err(ApiError::bad_request(format!(
                "$select: {} has no property '{name}'",
                set.type_name
            )));
        }
    }
    if path.links && path.suffix == Suffix::None {
        return links::get(state, request, path, target, options, negotiated).await;
    }
    match path.suffix {
        Suffix::Count => count(state, request.area, &target, options, negotiated).await,
        Suffix::Value => media(state, request, &target, negotiated).await,
        Suffix::None if target.single => single(state, request, target, options, negotiated).await,
        Suffix::None => feed(state, request, target, options, negotiated).await,
    }
}

async fn count(
    state: &AppState,
    area: CustomerArea,
    target: &Target,
    options: &QueryOptions,
    negotiated: Negotiated,
) -> Result<Response, ApiError> {
    let filter = typed_filter(state, target.set(), options)?;
    let count = state
        .store
        .count(area, &target.scope, filter.as_ref(), state.sets)
        .await?;
    Ok(with_headers(
        count.to_string().into_response(),
        negotiated,
        "text/plain;charset=utf-8",
    ))
}

async fn media(
    state: &AppState,
    request: ReadRequest<'_>,
    target: &Target,
    negotiated: Negotiated,
) -> Result<Response, ApiError> {
    let media = state
        .store
        .media(request.area, &target.scope)
        .await?
        .ok_or_else(|| {
            ApiError::not_found(format!(
                "there is no {} with that key",
                target.set().type_name
            ))
        })?;
    let length = media.bytes.len();
    let body = if request.head {
        Body::empty()
    } else {
        Body::from(media.bytes)
    };
    let mut response = with_headers(body.into_response(), negotiated, &media.media_type);
    let headers = response.headers_mut();
    headers.insert(CONTENT_LENGTH, HeaderValue::from(length));
    // Media is data written by clients (question markup, answers): a browser must
    // neither guess another type for it nor run what it holds on this origin.
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(CONTENT_SECURITY_POLICY, HeaderValue::from_static("sandbox"));
    Ok(response)
}

async fn single(
    state: &AppState,
    request: ReadRequest<'_>,
    target: Target,
    options: &QueryOptions,
    negotiated: Negotiated,
) -> Result<Response, ApiError> {
    let type_name = target.set().type_name;
    let Some(mut entity) = read_one(state, &request, target.scope, &options.expand).await? else {
        if target.to_one_navigation {
            return Ok(with_headers(
                StatusCode::NO_CONTENT.into_response(),
                negotiated,
                "application/json",
            ));
        }
        return Err(ApiError::not_found(format!(
            "there is no {type_name} with that key"
        )));
    };
    crate::feeds::endpoints::print::fill_links(state, request.headers, request.area, &mut entity)
        .await?;
    let etag = entity.etag();
    match conditional(request.headers, etag.as_deref(), type_name)? {
        ReadCondition::Send => {}
        _ => {
            let mut response = with_headers(
                StatusCode::NOT_MODIFIED.into_response(),
                negotiated,
                "application/json",
            );
            response.headers_mut().remove(CONTENT_TYPE);
            if let Some(value) = etag.and_then(|tag| HeaderValue::from_str(&tag).ok()) {
                response.headers_mut().insert(ETAG, value);
            }
            return Ok(response);
        }
    }
    apply_select(&mut entity, &options.select);
    let root = service_root(request.headers, request.area);
    let mut response = if negotiated.format == Format::Atom {
        let updated = atom_updated();
        let context = atom::Context {
            root: &root,
            updated: &updated,
        };
        atom_response(atom::entry_document(&entity, context), negotiated, false)
    } else {
        json_response(
            axum::Json(entity_document(&entity, negotiated.format, &root)),
            negotiated,
        )
    };
    if let Some(value) = etag.and_then(|tag| HeaderValue::from_str(&tag).ok()) {
        response.headers_mut().insert(ETAG, value);
    }
    Ok(response)
}

/// A conditional GET of one entity (`If-Match`, `If-None-Match`): 412 when the
/// client's revision is stale, `NotModified` when its copy is current.
fn conditional(
    headers: &HeaderMap,
    etag: Option<&str>,
    type_name: &str,
) -> Result<ReadCondition, ApiError> {
    let header = |name: axum::http::HeaderName| {
        headers
            .get(&name)
            .map(|value: &HeaderValue| {
                value.to_str().map_err(|_| {
                    ApiError::bad_request(format!(
                        "the {name} header is not a list of ETags in ASCII"
                    ))
                })
            })
            .transpose()
    };
    match etag::read_condition(header(IF_MATCH)?, header(IF_NONE_MATCH)?, etag) {
        ReadCondition::Failed => Err(ApiError::PreconditionFailed(format!(
            "the {type_name} is no longer the revision If-Match names; read it again"
        ))),
        condition => Ok(condition),
    }
}

async fn feed(
    state: &AppState,
    request: ReadRequest<'_>,
    target: Target,
    options: &QueryOptions,
    negotiated: Negotiated,
) -> Result<Response, ApiError> {
    let set = target.set();
    let Page {
        mut entities,
        count,
        next,
    } = page(state, &request, target, options).await?;
    for entity in &mut entities {
        apply_select(entity, &options.select);
    }
    let head = FeedHead {
        set,
        count,
        next,
        root: service_root(request.headers, request.area),
    };
    // Written as the client reads it: the page is never whole as text.
    if negotiated.format == Format::Atom {
        let pieces = atom::FeedPieces::new(head, entities, atom_updated());
        let body = Chunks::new(pieces).into_body();
        return Ok(atom_response(body, negotiated, true));
    }
    let pieces = FeedPieces::new(head, entities, negotiated.format);
    let body = Chunks::new(pieces).into_body();
    Ok(json_response(body, negotiated))
}

/// Keeps only the `$select`ed properties (all when the list is empty).
fn apply_select(entity: &mut EntityOut, select: &[String]) {
    if !select.is_empty() {
        entity
            .properties
            .retain(|(name, _)| select.iter().any(|s| s == name));
    }
}
