//! `GET Entity(key)/$links/Nav`: the URLs of the entities a navigation leads to,
//! read through the same scope, paging and access decision as `Entity(key)/Nav`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use super::page::{page, read_one, Page, ReadRequest};
use super::respond::{json_response, service_root, with_headers};
use crate::feeds::handler::state::AppState;
use crate::odata::format::{Format, Negotiated};
use crate::odata::links::{json_document, xml_document, Links};
use crate::odata::path::EntityPath;
use crate::odata::query::QueryOptions;
use crate::odata::ApiError;

use super::resolve::Target;

pub async fn get(
    state: &AppState,
    request: ReadRequest<'_>,
    path: &EntityPath,
    target: Target,
    options: &QueryOptions,
    negotiated: Negotiated,
) -> Result<Response, ApiError> {
    if !options.expand.is_empty() || !options.select.is_empty() {
        return Err(ApiError::bad_request(
            "$links answers with URLs: $expand and $select do not apply to it",
        ));
    }
    let root = service_root(request.headers, request.area);
    let (source, navigation) = match path.steps.as_slice() {
        [.., before, last] => (before.target, last.navigation),
        [last] => (path.set, last.navigation),
        [] => unreachable!("a $links path ends in a navigation step"),
    };
    let context = format!("{root}$metadata#{}/$links/{}", source.name, navigation.name);
    if target.single {
        let to_one = target.to_one_navigation;
        let set = target.set();
        let Some(entity) = read_one(state, &request, target.scope, &[]).await? else {
            if to_one {
                return Ok(with_headers(
                    StatusCode::NO_CONTENT.into_response(),
                    negotiated,
                    "application/json",
                ));
            }
            return Err(ApiError::not_found(format!(
                "there is no {} with that key",
                set.type_name
            )));
        };
        let url = format!("{root}{}", entity.relative_uri());
        return Ok(respond(&Links::One(&url), negotiated, &context));
    }
    let Page {
        entities,
        count,
        next,
    } = page(state, &request, target, options).await?;
    let urls: Vec<String> = entities
        .iter()
        .map(|entity| format!("{root}{}", entity.relative_uri()))
        .collect();
    let links = Links::Many {
        urls: &urls,
        count,
        next: next.as_deref(),
    };
    Ok(respond(&links, negotiated, &context))
}

/// Links in XML when the client asked for Atom or XML (links have no Atom form);
/// otherwise in the JSON it asked for.
fn respond(links: &Links<'_>, negotiated: Negotiated, context: &str) -> Response {
    if negotiated.format == Format::Atom {
        return with_headers(
            xml_document(links).into_response(),
            negotiated,
            "application/xml;charset=utf-8",
        );
    }
    json_response(
        axum::Json(json_document(links, negotiated.format, context)),
        negotiated,
    )
}
