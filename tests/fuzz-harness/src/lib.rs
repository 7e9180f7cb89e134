//! The fuzz targets' bodies, on stable Rust: each takes the bytes libFuzzer made
//! and panics only on a bug (a panic of ours, or an answer of 500 and above). The
//! nightly crate `fuzz/` calls them under cargo-fuzz (`scripts/fuzz`); the test
//! `tests/replay.rs` runs every input kept in `fuzz/regressions/<target>/`, so a
//! crash found once fails `scripts/test` for good (docs/reliability.md).

use std::sync::OnceLock;

use axum::body::Body;
use axum::http::{Method, Request};
use scoredesk_server::config::Settings;
use scoredesk_server::documents::{images, upload_file};
use scoredesk_server::seed::demo::{seed_demo, DemoLogins, DEMO_PASSWORD};
use scoredesk_server::App;
use tower::ServiceExt;

mod sheet_page;
mod structured;
pub use sheet_page::sheet_page;
pub use structured::{batch, snapshot_xml};

/// What a target does with one input.
pub type Target = fn(&[u8]);

/// Every target by name, for the replay and for `scripts/fuzz`.
pub const TARGETS: &[(&str, Target)] = &[
    ("odata_request", odata_request),
    ("upload_file", upload_file),
    ("image", image),
    ("qti_package", qti_package),
    ("odata_url", odata_url),
    ("entity_body", entity_body),
    ("batch", batch),
    ("snapshot_xml", snapshot_xml),
    ("sheet_page", sheet_page),
];

/// One request through the whole router (gate, routing, query options, filters,
/// bodies, `$batch`, the SQL planner) against the demo data in a SQLite file, as
/// the administrator of area 1 (who may do the most). The input's first byte picks
/// the method, the bytes up to the first newline are the URL after the service
/// root, the rest the body.
pub fn odata_request(data: &[u8]) {
    if let Some(status) = odata_status(data) {
        assert!(
            status < 500,
            "{status} for {:?}",
            String::from_utf8_lossy(data)
        );
    }
}

/// The status of [`odata_request`]'s request; `None` when the input makes none.
pub fn odata_status(data: &[u8]) -> Option<u16> {
    let (&first, rest) = data.split_first()?;
    let method = [
        Method::GET,
        Method::POST,
        Method::PUT,
        Method::PATCH,
        Method::DELETE,
    ][usize::from(first) % 5]
        .clone();
    let (url, body) = match rest.iter().position(|&b| b == b'\n') {
        Some(at) => (&rest[..at], &rest[at + 1..]),
        None => (rest, &[][..]),
    };
    let url = std::str::from_utf8(url).ok()?;
    let request = Request::builder()
        .method(method)
        // A client encodes the spaces of a filter; the rest is as the input has it.
        .uri(format!("/deliveryodata/1/{}", url.replace(' ', "%20")))
        .header("Host", "127.0.0.1:8080")
        .header("Authorization", authorization())
        .header(
            "Content-Type",
            if url.starts_with("$batch") {
                "multipart/mixed; boundary=b"
            } else {
                "application/json"
            },
        )
        .body(Body::from(body.to_vec()))
        .ok()?;
    let (runtime, app) = server();
    let response = runtime.block_on(async { app.clone().oneshot(request).await });
    let response = response.unwrap_or_else(|never| match never {});
    Some(response.status().as_u16())
}

fn authorization() -> String {
    use base64::Engine;
    let token = base64::engine::general_purpose::STANDARD
        .encode(format!("northwind-admin:{DEMO_PASSWORD}"));
    format!("Basic {token}")
}

/// The router over a demo database made once per process, and a runtime for it.
fn server() -> &'static (tokio::runtime::Runtime, axum::Router) {
    static SERVER: OnceLock<(tokio::runtime::Runtime, axum::Router)> = OnceLock::new();
    SERVER.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("a runtime");
        let dir = Box::leak(Box::new(tempfile::tempdir().expect("a temporary folder")));
        let router = runtime.block_on(async {
            let settings = Settings {
                database_url: format!("sqlite:{}", dir.path().join("fuzz.db").display()).into(),
                ..Settings::default()
            };
            let app = App::build(settings).await.expect("the server builds");
            seed_demo(app.store(), DemoLogins::Published)
                .await
                .expect("the demo data");
            app.router()
        });
        (runtime, router)
    })
}

/// The OData URL alone, as routing reads it: the resource path (entity sets,
/// keys, navigation, `$count`, `$value`, actions) and every system query option
/// (filters, `$orderby`, `$expand`, `$select`, `$top`, `$skip`, `$skiptoken`,
/// `$format`). No database: a hundred times the speed of [`odata_request`], so
/// it reaches deeper into the grammars.
pub fn odata_url(data: &[u8]) {
    use scoredesk_server::feeds::catalogue;
    use scoredesk_server::odata::{path, query::QueryOptions};
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (resource, query) = match text.split_once('?') {
        Some((resource, query)) => (resource, Some(query)),
        None => (text, None),
    };
    let _ = path::parse(resource, catalogue::by_name, catalogue::actions());
    let _ = QueryOptions::parse(query);
}

/// An entity body for a POST or PUT, in JSON or Atom: the first byte picks the
/// entity set and the format, the rest is the body.
pub fn entity_body(data: &[u8]) {
    use scoredesk_server::feeds::catalogue;
    use scoredesk_server::odata::{atom_body, body};
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let set = catalogue::all()[usize::from(pick >> 1) % catalogue::all().len()];
    if pick & 1 == 0 {
        let _ = body::parse_entity(set, rest);
    } else {
        let _ = atom_body::entry_properties(set, rest);
    }
}

/// An answer upload file, read as `POST AnswerUploads` reads it.
pub fn upload_file(data: &[u8]) {
    let _ = upload_file::read(data);
}

/// An image, checked as an upload's `ImageResponse` is, as each type it may claim.
pub fn image(data: &[u8]) {
    for media_type in ["image/jpeg", "image/png", "image/tiff"] {
        let _ = images::check(media_type, data, "Data");
    }
}

/// A QTI package (a zip of XML), read as `ImportQtiPackage` reads it.
pub fn qti_package(data: &[u8]) {
    let _ = scoredesk_server::import::read_qti(data, &mut |_, _| {});
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_reaches_the_data_as_the_administrator() {
        assert_eq!(odata_status(b"\x00ScoringTasks?$top=1"), Some(200));
        assert_eq!(
            odata_status(b"\x00ScoringTasks?$filter=Nope eq 1"),
            Some(400)
        );
    }
}
