use crate::model::area::CustomerArea;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::Json;

use crate::feeds::catalogue;
use crate::feeds::read::service_root;
use crate::odata::format::{negotiate, Format};
use crate::odata::query::QueryOptions;
use crate::odata::{atom, service_document, ApiError};

/// The service document, in the negotiated format.
pub fn service_document(
    headers: &HeaderMap,
    area: CustomerArea,
    options: &QueryOptions,
) -> Result<Response, ApiError> {
    let negotiated = negotiate(headers, options.format.as_deref(), false)?;
    let root = service_root(headers, area);
    let version = [("DataServiceVersion", negotiated.data_service_version())];
    let body = match negotiated.format {
        Format::Atom => {
            // AtomPub's own type, unless the client asked for plain XML.
            let accept = headers
                .get(axum::http::header::ACCEPT)
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default();
            let content_type = if accept.contains("application/xml") && !accept.contains("atomsvc")
            {
                "application/xml;charset=utf-8"
            } else {
                "application/atomsvc+xml;charset=utf-8"
            };
            let xml = atom::service_document(&root, catalogue::all());
            return Ok((
                version,
                [(axum::http::header::CONTENT_TYPE, content_type)],
                xml,
            )
                .into_response());
        }
        Format::JsonVerbose => service_document::json_verbose(catalogue::all()),
        Format::JsonNoMetadata => service_document::json_no_metadata(catalogue::all()),
        Format::JsonLight | Format::JsonFullMetadata => {
            service_document::json_light(&root, catalogue::all())
        }
    };
    Ok((version, Json(body)).into_response())
}
