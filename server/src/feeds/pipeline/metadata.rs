//! `$metadata`, generated once from the catalogue: the declarations do not change
//! while we run.

use axum::response::{IntoResponse, Response};

use crate::feeds::catalogue;

pub fn document() -> Response {
    static DOCUMENT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let body = DOCUMENT.get_or_init(|| {
        crate::odata::metadata::document(
            catalogue::all(),
            catalogue::actions(),
            catalogue::complex_types(),
            catalogue::by_name,
        )
    });
    (
        [
            ("Content-Type", "application/xml;charset=utf-8"),
            ("DataServiceVersion", "3.0;"),
        ],
        body.clone(),
    )
        .into_response()
}
