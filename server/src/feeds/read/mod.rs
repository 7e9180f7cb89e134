//! `GET` (and `HEAD`) on any entity path: feeds, entities, navigation, `$count`,
//! `$value`, with every query option, in either JSON format.

mod fetch;
mod resolve;

use axum::body::Body;
use axum::http::header::{
    CONTENT_LENGTH, CONTENT_SECURITY_POLICY, CONTENT_TYPE, ETAG, HOST, X_CONTENT_TYPE_OPTIONS,
};
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use sea_query::{Alias, Expr, Query};

use crate::odata::format::{negotiate, Format, Negotiated};
use crate::odata::json::{entity_document, feed_document, EntityOut};
use crate::odata::model::MediaType;
use crate::odata::path::{EntityPath, Suffix};
use crate::odata::query::QueryOptions;
use crate::odata::sql::{column, plan_count, BASE};
use crate::odata::value::Value;
use crate::odata::{skiptoken, ApiError};
use crate::store::MediaColumn;
use crate::AppState;
use fetch::{read, Read};
use resolve::{resolve, Target};

use super::entities;

/// The service root URL as the client reached it, ending in `/`.
pub fn service_root(headers: &HeaderMap, area: i32) -> String {
    let host = headers
        .get(HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("localhost");
    format!("http://{host}/deliveryodata/{area}/")
}

/// A request as the read handler needs it.
pub struct ReadRequest<'a> {
    pub area: i32,
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
    for name in options.select.iter().filter(|name| *name != "*") {
        if target.set.property(name).is_none() && target.set.navigation(name).is_none() {
            return Err(ApiError::bad_request(format!(
                "$select: {} has no property '{name}'",
                target.set.type_name
            )));
        }
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
        Format::JsonLight => "application/json;odata=minimalmetadata;streaming=true;charset=utf-8",
        Format::JsonVerbose => "application/json;odata=verbose;charset=utf-8",
    };
    with_headers(axum::Json(body).into_response(), negotiated, content_type)
}

async fn count(
    state: &AppState,
    area: i32,
    target: &Target,
    options: &QueryOptions,
    negotiated: Negotiated,
) -> Result<Response, ApiError> {
    let statement = plan_count(
        target.set,
        area,
        target.condition.clone(),
        options.filter.as_ref(),
        entities::by_name,
    )?;
    let count: i64 = state.store.fetch_scalar(&statement).await?;
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
    let media = target
        .set
        .media
        .expect("the path parser admits $value only on media entries");
    let base_select = || {
        let mut select = Query::select();
        select.from_as(Alias::new(target.set.table), Alias::new(BASE));
        select.and_where(Expr::expr(column(BASE, "customer_id")).eq(request.area));
        if let Some(condition) = &target.condition {
            select.and_where(condition.clone());
        }
        select.limit(1);
        select
    };
    let not_found = || {
        ApiError::not_found(format!(
            "there is no {} with that key",
            target.set.type_name
        ))
    };
    let (media_type, is_text) = match media.media_type {
        MediaType::Fixed(fixed) => (fixed.to_owned(), true),
        MediaType::Column(name) => {
            let mut select = base_select();
            select.expr(column(BASE, name));
            let rows = state
                .store
                .fetch_values(&select, &[crate::odata::edm::EdmType::String])
                .await?;
            match rows
                .into_iter()
                .next()
                .and_then(|row| row.into_iter().next())
            {
                Some(Value::String(media_type)) => (media_type, false),
                _ => return Err(not_found()),
            }
        }
    };
    let mut select = base_select();
    select.expr(column(BASE, media.content_column));
    let bytes = state
        .store
        .fetch_media(&select, MediaColumn { is_text })
        .await?
        .ok_or_else(not_found)?;
    let length = bytes.len();
    let body = if request.head {
        Body::empty()
    } else {
        Body::from(bytes)
    };
    let mut response = with_headers(body.into_response(), negotiated, &media_type);
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
    let Some(mut entity) = read_one(
        state,
        request.area,
        target.set,
        target.condition,
        &options.expand,
    )
    .await?
    else {
        if target.to_one_navigation {
            return Ok(with_headers(
                StatusCode::NO_CONTENT.into_response(),
                negotiated,
                "application/json",
            ));
        }
        return Err(ApiError::not_found(format!(
            "there is no {} with that key",
            target.set.type_name
        )));
    };
    let etag = crate::odata::etag::of(&entity);
    apply_select(&mut entity, &options.select);
    let root = service_root(request.headers, request.area);
    let mut response = json_response(
        entity_document(&entity, negotiated.format, &root),
        negotiated,
    );
    if let Some(value) = etag.and_then(|tag| HeaderValue::from_str(&tag).ok()) {
        response.headers_mut().insert(ETAG, value);
    }
    Ok(response)
}

async fn feed(
    state: &AppState,
    request: ReadRequest<'_>,
    target: Target,
    options: &QueryOptions,
    negotiated: Negotiated,
) -> Result<Response, ApiError> {
    let page_size = u64::from(state.settings.page_size.max(1));
    let wanted = options.top.unwrap_or(u64::MAX);
    // One row more than a page tells whether another page follows.
    let limit = wanted.min(page_size + 1);
    let inline_count = if options.inline_count {
        let statement = plan_count(
            target.set,
            request.area,
            target.condition.clone(),
            options.filter.as_ref(),
            entities::by_name,
        )?;
        Some(state.store.fetch_scalar::<i64>(&statement).await?)
    } else {
        None
    };
    let page = Read {
        set: target.set,
        base: target.condition,
        filter: options.filter.as_ref(),
        orderby: &options.orderby,
        skiptoken: options.skiptoken.as_deref(),
        limit,
        offset: options.skip,
        expand: &options.expand,
    };
    let (mut fetched, fingerprint) = read(state, request.area, page, &[]).await?;
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
    let mut entities: Vec<EntityOut> = fetched.into_iter().map(|f| f.entity).collect();
    for entity in &mut entities {
        apply_select(entity, &options.select);
    }
    let root = service_root(request.headers, request.area);
    let body = feed_document(
        target.set,
        &entities,
        inline_count,
        next.as_deref(),
        negotiated.format,
        &root,
    );
    Ok(json_response(body, negotiated))
}

/// The one entity under `condition`, if there is one, with `expand`ed navigations.
async fn read_one(
    state: &AppState,
    area: i32,
    set: &'static crate::odata::model::EntitySet,
    condition: Option<sea_query::SimpleExpr>,
    expand: &[Vec<String>],
) -> Result<Option<EntityOut>, ApiError> {
    let one = Read {
        set,
        base: condition,
        filter: None,
        orderby: &[],
        skiptoken: None,
        limit: 1,
        offset: None,
        expand,
    };
    let (mut entities, _) = read(state, area, one, &[]).await?;
    Ok(entities.pop().map(|fetched| fetched.entity))
}

/// The entity a path addresses as stored, without expansions: what a PUT replaces.
pub async fn stored_entity(
    state: &AppState,
    area: i32,
    path: &EntityPath,
) -> Result<EntityOut, ApiError> {
    let target = resolve(state, area, path).await?;
    let entity = read_one(state, area, target.set, target.condition, &[]).await?;
    entity.ok_or_else(|| {
        ApiError::not_found(format!(
            "there is no {} with that key",
            target.set.type_name
        ))
    })
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
