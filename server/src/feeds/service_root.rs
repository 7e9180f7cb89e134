use crate::model::area::CustomerArea;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::Json;

use super::entities;
use super::read::service_root;
use crate::odata::format::{negotiate, Format};
use crate::odata::query::QueryOptions;
use crate::odata::{service_document, ApiError};

/// The service document, in the negotiated format.
pub fn service_document(
    headers: &HeaderMap,
    area: CustomerArea,
    options: &QueryOptions,
) -> Result<Response, ApiError> {
    let negotiated = negotiate(headers, options.format.as_deref(), false)?;
    let root = service_root(headers, area);
    let body = match negotiated.format {
        Format::JsonVerbose => service_document::json_verbose(entities::ALL),
        Format::JsonLight => service_document::json_light(&root, entities::ALL),
    };
    Ok((
        [("DataServiceVersion", negotiated.data_service_version())],
        Json(body),
    )
        .into_response())
}
