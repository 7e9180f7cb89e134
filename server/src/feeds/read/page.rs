//! One page of a feed, as `$filter`, `$orderby`, `$top`, `$skip`, `$skiptoken`,
//! `$inlinecount` and `$expand` ask for it; and one entity.

use axum::http::header::HOST;
use axum::http::{HeaderMap, Uri};

use super::fetch::{read, Read};
use super::resolve::Target;
use crate::auth::Principal;
use crate::feeds::handler::state::AppState;
use crate::model::area::CustomerArea;
use crate::odata::json::EntityOut;
use crate::odata::model::EntitySet;
use crate::odata::query::QueryOptions;
use crate::odata::typed::{Condition, Paths};
use crate::odata::{skiptoken, ApiError};
use crate::store::read::{order_kinds, Scope};

/// A request as the read handler needs it.
pub struct ReadRequest<'a> {
    pub area: CustomerArea,
    /// Who reads: what of a set he sees (feeds/read/seen.rs).
    pub principal: &'a Principal,
    pub headers: &'a HeaderMap,
    pub uri: &'a Uri,
    pub head: bool,
}

/// `$filter`, resolved against `set` (a 400 for what may not be named).
pub(super) fn typed_filter(
    state: &AppState,
    set: &'static EntitySet,
    options: &QueryOptions,
) -> Result<Option<Condition>, ApiError> {
    options
        .filter
        .as_ref()
        .map(|filter| Paths::new(set, state.sets).condition(filter))
        .transpose()
}

/// One page of a feed: its entities, the `$inlinecount`, and the next page's URL.
pub(super) struct Page {
    pub entities: Vec<EntityOut>,
    pub count: Option<i64>,
    pub next: Option<String>,
}

/// The page of `target` that `options` ask for (`$filter`, `$orderby`, `$top`,
/// `$skip`, `$skiptoken`, `$inlinecount`, `$expand`).
pub(super) async fn page(
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
    let filter = typed_filter(state, set, options)?;
    let count = if options.inline_count {
        Some(
            state
                .store
                .count(request.area, &target.scope, filter.as_ref(), state.sets)
                .await?,
        )
    } else {
        None
    };
    let order = Paths::new(set, state.sets).order(&options.orderby)?;
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
        principal: request.principal,
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

/// The one entity of `scope`, if there is one, with `expand`ed navigations.
pub(super) async fn read_one(
    state: &AppState,
    request: &ReadRequest<'_>,
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
        principal: request.principal,
    };
    let mut entities = read(state, request.area, one, &[]).await?;
    Ok(entities.pop().map(|fetched| fetched.entity))
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
