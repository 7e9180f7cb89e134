//! Printable snapshots: the signed links a single-entity read of an
//! AssessmentSnapshot carries (contract, "Security": null in collections, fresh on
//! each single GET), and the page they open at
//! `/print/<area>/snapshots/<id>?variant=…&expires=…&signature=…` (no credentials:
//! the signature is the credential; auth::links).

use std::collections::HashMap;

use axum::extract::{Path, Query, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, HOST};
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};

use super::entities::ASSESSMENT_SNAPSHOTS;
use super::state::AppState;
use crate::auth::links::{LinkRefusal, PrintLink, PrintVariant};
use crate::documents::printable;
use crate::model::area::CustomerArea;
use crate::odata::json::EntityOut;
use crate::odata::value::Value;
use crate::odata::ApiError;
use crate::store::now_millis;

/// The signing key, read (or made) once per process.
async fn key(state: &AppState) -> Result<&[u8], ApiError> {
    let key = state
        .link_key
        .get_or_try_init(|| async { state.store.signing_key().await })
        .await?;
    Ok(key.as_slice())
}

/// Fills a single AssessmentSnapshot's two links, valid for the configured time.
pub async fn fill_links(
    state: &AppState,
    headers: &HeaderMap,
    area: CustomerArea,
    entity: &mut EntityOut,
) -> Result<(), ApiError> {
    if entity.set.name != ASSESSMENT_SNAPSHOTS.name {
        return Ok(());
    }
    let Value::Int32(snapshot) = *entity.value("ID") else {
        return Ok(());
    };
    let key = key(state).await?;
    let expires_at = now_millis() + 1000 * state.settings.print_link_seconds as i64;
    let host = headers
        .get(HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("localhost");
    for (property, variant) in [
        ("PrintableDocumentSourceUrl", PrintVariant::Questions),
        (
            "PrintableDocumentWithAnswersSourceUrl",
            PrintVariant::Answers,
        ),
    ] {
        let link = PrintLink {
            area: area.id(),
            snapshot,
            variant,
            expires_at,
        };
        let url = format!(
            "http://{host}/print/{}/snapshots/{snapshot}?variant={}&expires={expires_at}&signature={}",
            area.id(),
            variant.as_str(),
            link.signature(key)
        );
        entity.set_value(property, Value::String(url));
    }
    Ok(())
}

/// The page a signed link opens.
pub async fn page(
    State(state): State<AppState>,
    Path((area, snapshot)): Path<(String, String)>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Response, ApiError> {
    let altered = || {
        ApiError::Forbidden(
            "this print link is not valid: it was changed or is incomplete; read the snapshot again for a fresh one".into(),
        )
    };
    let area = area
        .parse::<i32>()
        .ok()
        .and_then(CustomerArea::new)
        .ok_or_else(altered)?;
    let snapshot: i32 = snapshot.parse().map_err(|_| altered())?;
    let variant = query
        .get("variant")
        .and_then(|v| PrintVariant::parse(v))
        .ok_or_else(altered)?;
    let expires_at: i64 = query
        .get("expires")
        .and_then(|v| v.parse().ok())
        .ok_or_else(altered)?;
    let signature = query.get("signature").ok_or_else(altered)?;
    let link = PrintLink {
        area: area.id(),
        snapshot,
        variant,
        expires_at,
    };
    match link.verify(key(&state).await?, signature, now_millis()) {
        Ok(()) => {}
        Err(LinkRefusal::Altered) => return Err(altered()),
        Err(LinkRefusal::Expired { .. }) => {
            return Err(ApiError::Forbidden(
                "this print link has expired; read the snapshot again for a fresh one".into(),
            ))
        }
    }
    let paper = state
        .store
        .snapshot_paper(area, snapshot)
        .await?
        .ok_or_else(|| ApiError::not_found("there is no such snapshot"))?;
    let html = printable::render(&paper, variant == PrintVariant::Answers)
        .map_err(|e| ApiError::Internal(anyhow::anyhow!("printable page: {e}")))?;
    Ok((
        [
            (CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8")),
            // The page runs nothing and loads nothing but its own inline styles and
            // the inline images of question markup.
            (
                CONTENT_SECURITY_POLICY,
                HeaderValue::from_static(
                    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'",
                ),
            ),
            (CACHE_CONTROL, HeaderValue::from_static("private, no-store")),
        ],
        html,
    )
        .into_response())
}
