//! `GET` (and `HEAD`) on any entity path: feeds, entities, navigation, `$count`,
//! `$value` and `$links`, with every query option, in every format.

mod fetch;
mod links;
mod resolve;

use crate::model::area::CustomerArea;
use axum::body::Body;
use axum::http::header::{
    CONTENT_LENGTH, CONTENT_SECURITY_POLICY, CONTENT_TYPE, ETAG, HOST, X_CONTENT_TYPE_OPTIONS,
};
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

use crate::feeds::state::AppState;
use crate::odata::atom;
use crate::odata::format::{negotiate, Format, Negotiated};
use crate::odata::json::{entity_document, feed_document, EntityOut};
use crate::odata::model::EntitySet;
use crate::odata::path::{EntityPath, Suffix};
use crate::odata::query::QueryOptions;
use crate::odata::typed::{Condition, Paths};
use crate::odata::{skiptoken, ApiError};
use crate::store::read::{order_kinds, Scope};
use fetch::{read, Read};
pub use resolve::resolve;
use resolve::Target;

use super::entities;

/// The service root URL as the client reached it, ending in `/`.
pub fn service_root(headers: &HeaderMap, area: CustomerArea) -> String {
    let host = headers
        .get(HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("localhost");
    format!("http://{host}/deliveryodata/{area}/")
}

/// A request as the read handler needs it.
pub struct ReadRequest<'a> {
    pub area: CustomerArea,
    pub headers: &'a HeaderMap,
    pub uri: &'a Uri,
    pub head: bool,
}

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
    let target = resolve(state, request.area, path).await?;
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

fn with_headers(mut response: Response, negotiated: Negotiated, content_type: &str) -> Response {
    let headers = response.headers_mut();
    headers.insert(
        "DataServiceVersion",
        HeaderValue::from_static(negotiated.data_service_version()),
    );
    if let Ok(value) = HeaderValue::from_str(content_type) {
        headers.insert(CONTENT_TYPE, value);
    }
    response
}

fn json_response(body: serde_json::Value, negotiated: Negotiated) -> Response {
    let content_type = match negotiated.format {
        Format::JsonFullMetadata => {
            "application/json;odata=fullmetadata;streaming=true;charset=utf-8"
        }
        Format::JsonNoMetadata => "application/json;odata=nometadata;streaming=true;charset=utf-8",
        Format::JsonVerbose => "application/json;odata=verbose;charset=utf-8",
        Format::JsonLight | Format::Atom => {
            "application/json;odata=minimalmetadata;streaming=true;charset=utf-8"
        }
    };
    with_headers(axum::Json(body).into_response(), negotiated, content_type)
}

/// An Atom document: an entry or a feed.
fn atom_response(body: Vec<u8>, negotiated: Negotiated, feed: bool) -> Response {
    let content_type = if feed {
        "application/atom+xml;type=feed;charset=utf-8"
    } else {
        "application/atom+xml;type=entry;charset=utf-8"
    };
    with_headers(body.into_response(), negotiated, content_type)
}

/// `updated` for Atom documents: now, to the second.
fn atom_updated() -> String {
    chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// `$filter`, resolved against `set` (a 400 for what may not be named).
fn typed_filter(
    set: &'static EntitySet,
    options: &QueryOptions,
) -> Result<Option<Condition>, ApiError> {
    options
        .filter
        .as_ref()
        .map(|filter| Paths::new(set, entities::by_name).condition(filter))
        .transpose()
}

async fn count(
    state: &AppState,
    area: CustomerArea,
    target: &Target,
    options: &QueryOptions,
    negotiated: Negotiated,
) -> Result<Response, ApiError> {
    let filter = typed_filter(target.set(), options)?;
    let count = state
        .store
        .count(area, &target.scope, filter.as_ref(), entities::by_name)
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
    let Some(mut entity) = read_one(state, request.area, target.scope, &options.expand).await?
    else {
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
    super::print::fill_links(state, request.headers, request.area, &mut entity).await?;
    let etag = entity.etag();
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
            entity_document(&entity, negotiated.format, &root),
            negotiated,
        )
    };
    if let Some(value) = etag.and_then(|tag| HeaderValue::from_str(&tag).ok()) {
        response.headers_mut().insert(ETAG, value);
    }
    Ok(response)
}

/// One page of a feed: its entities, the `$inlinecount`, and the next page's URL.
struct Page {
    entities: Vec<EntityOut>,
    count: Option<i64>,
    next: Option<String>,
}

/// The page of `target` that `options` ask for (`$filter`, `$orderby`, `$top`,
/// `$skip`, `$skiptoken`, `$inlinecount`, `$expand`).
async fn page(
    state: &AppState,
    request: &ReadRequest<'_>,
    target: Target,
    options: &QueryOptions,
) -> Result<Page, ApiError> {
    let set = target.set();
    let page_size = u64::from(state.settings.page_size.max(1));
    let wanted = options.top.unwrap_or(u64::MAX);
    // One row more than a page tells whether another page follows.
    let limit = wanted.min(page_size + 1);
    let filter = typed_filter(set, options)?;
    let count = if options.inline_count {
        Some(
            state
                .store
                .count(
                    request.area,
                    &target.scope,
                    filter.as_ref(),
                    entities::by_name,
                )
                .await?,
        )
    } else {
        None
    };
    let order = Paths::new(set, entities::by_name).order(&options.orderby)?;
    let fingerprint = skiptoken::fingerprint(set.name, options.filter.as_ref(), &options.orderby);
    let after = options
        .skiptoken
        .as_deref()
        .map(|token| skiptoken::decode(token, &fingerprint, &order_kinds(set, &order)))
        .transpose()?;
    let page = Read {
        scope: target.scope,
        filter: filter.as_ref(),
        order: &order,
        after: after.as_deref(),
        limit,
        offset: options.skip,
        expand: &options.expand,
    };
    let mut fetched = read(state, request.area, page, &[]).await?;
    let mut next = None;
    if fetched.len() as u64 > page_size {
        fetched.truncate(page_size as usize);
        let last = fetched.last().expect("a full page has a last entity");
        let token = skiptoken::encode(&fingerprint, &last.order_values);
        next = Some(next_link(
            request.headers,
            request.uri,
            &token,
            options.top.map(|top| top - page_size),
        ));
    }
    Ok(Page {
        entities: fetched.into_iter().map(|f| f.entity).collect(),
        count,
        next,
    })
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
    let root = service_root(request.headers, request.area);
    if negotiated.format == Format::Atom {
        let updated = atom_updated();
        let context = atom::Context {
            root: &root,
            updated: &updated,
        };
        let body = atom::feed_document(set, &entities, count, next.as_deref(), context);
        return Ok(atom_response(body, negotiated, true));
    }
    let body = feed_document(
        set,
        &entities,
        count,
        next.as_deref(),
        negotiated.format,
        &root,
    );
    Ok(json_response(body, negotiated))
}

/// The one entity of `scope`, if there is one, with `expand`ed navigations.
async fn read_one(
    state: &AppState,
    area: CustomerArea,
    scope: Scope,
    expand: &[Vec<String>],
) -> Result<Option<EntityOut>, ApiError> {
    let one = Read {
        scope,
        filter: None,
        order: &[],
        after: None,
        limit: 1,
        offset: None,
        expand,
    };
    let mut entities = read(state, area, one, &[]).await?;
    Ok(entities.pop().map(|fetched| fetched.entity))
}

/// Keeps only the `$select`ed properties (all when the list is empty).
fn apply_select(entity: &mut EntityOut, select: &[String]) {
    if !select.is_empty() {
        entity
            .properties
            .retain(|(name, _)| select.iter().any(|s| s == name));
    }
}

/// The request's own URL with `$skiptoken` set, `$skip` dropped (the token already
/// counts from there) and `$top` reduced by what was sent.
fn next_link(headers: &HeaderMap, uri: &Uri, token: &str, remaining_top: Option<u64>) -> String {
    let host = headers
        .get(HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("localhost");
    let mut query = form_urlencoded::Serializer::new(String::new());
    for (name, value) in form_urlencoded::parse(uri.query().unwrap_or_default().as_bytes()) {
        if !matches!(name.as_ref(), "$skiptoken" | "$skip" | "$top") {
            query.append_pair(&name, &value);
        }
    }
    if let Some(top) = remaining_top {
        query.append_pair("$top", &top.to_string());
    }
    query.append_pair("$skiptoken", token);
    format!("http://{host}{}?{}", uri.path(), query.finish())
}
