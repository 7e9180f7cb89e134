//! Printable snapshots: the signed links a single-entity read of an
//! AssessmentSnapshot carries (contract, "Security": null in collections, fresh on
//! each single GET), and the page they open at
//! `/print/<area>/snapshots/<id>?variant=…&expires=…&signature=…` (no credentials:
//! the signature is the credential; auth::links). A PrintBatch carries a link of
//! the same kind to its answer sheets (our extension, docs/paper-sheets.md), at
//! `/print/<area>/batches/<id>?variant=sheets&…`, and a Group to its class list,
//! at `/print/<area>/groups/<id>?variant=class-list&…`.

use std::collections::HashMap;

use axum::extract::{Path, Query, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, HOST};
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};

use crate::auth::links::{LinkRefusal, PrintLink, PrintVariant};
use crate::documents::answer_sheets::{self, SheetAttempt, SheetBatch};
use crate::documents::{class_list, markup, printable};
use crate::feeds::handler::state::AppState;
use crate::model::area::CustomerArea;
use crate::odata::json::EntityOut;
use crate::odata::value::Value;
use crate::odata::ApiError;
use crate::store::now_millis;

/// The signing key, read (or made) once per process.
async fn key(state: &AppState) -> Result<&[u8], ApiError> {
    Ok(state.signing_key().await?)
}

/// The signed links an entity set may declare, as properties computed per request
/// (no column): a snapshot's two printable documents, a print batch's sheets.
const LINKS: &[(&str, PrintVariant, &str)] = &[
    (
        "PrintableDocumentSourceUrl",
        PrintVariant::Questions,
        "snapshots",
    ),
    (
        "PrintableDocumentWithAnswersSourceUrl",
        PrintVariant::Answers,
        "snapshots",
    ),
    ("AnswerSheetsSourceUrl", PrintVariant::Sheets, "batches"),
    ("ClassListSourceUrl", PrintVariant::ClassList, "groups"),
];

/// Fills a single AssessmentSnapshot's two links, or a single PrintBatch's link to
/// its answer sheets, valid for the configured time.
pub async fn fill_links(
    state: &AppState,
    headers: &HeaderMap,
    area: CustomerArea,
    entity: &mut EntityOut,
) -> Result<(), ApiError> {
    let links: Vec<&(&str, PrintVariant, &str)> = LINKS
        .iter()
        .filter(|(property, ..)| {
            entity
                .set
                .property(property)
                .is_some_and(|declared| declared.column.is_empty())
        })
        .collect();
    if links.is_empty() {
        return Ok(());
    }
    let Value::Int32(target) = *entity.value("ID") else {
        return Ok(());
    };
    for (property, variant, kind) in links {
        let (url, _) = signed_link(state, headers, area, kind, target, *variant).await?;
        entity.set_value(property, Value::String(url));
    }
    Ok(())
}

/// A signed link to `/print/<area>/<kind>/<target>` as `variant`, valid for
/// the configured time, and when it expires.
pub(crate) async fn signed_link(
    state: &AppState,
    headers: &HeaderMap,
    area: CustomerArea,
    kind: &str,
    target: i32,
    variant: PrintVariant,
) -> Result<(String, i64), ApiError> {
    let key = key(state).await?;
    let expires_at = now_millis() + 1000 * state.settings.print_link_seconds as i64;
    let host = headers
        .get(HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("localhost");
    let link = PrintLink {
        area: area.id(),
        target,
        variant,
        expires_at,
    };
    let url = format!(
        "http://{host}/print/{}/{kind}/{target}?variant={}&expires={expires_at}&signature={}",
        area.id(),
        variant.as_str(),
        link.signature(key)
    );
    Ok((url, expires_at))
}

/// The area and target of a signed link, once its signature and expiry hold.
pub(super) async fn verified(
    state: &AppState,
    area: &str,
    target: &str,
    query: &[(String, String)],
    allowed: &[PrintVariant],
) -> Result<(CustomerArea, i32, PrintVariant), ApiError> {
    let altered = || {
        ApiError::Forbidden(
            "this print link is not valid: it was changed or is incomplete; read the snapshot, batch or group again for a fresh one".into(),
        )
    };
    // Exactly the three parameters the server writes, each once.
    let mut fields = HashMap::new();
    for (name, value) in query {
        let known = matches!(name.as_str(), "variant" | "expires" | "signature");
        if !known || fields.insert(name.as_str(), value.as_str()).is_some() {
            return Err(altered());
        }
    }
    let query = fields;
    let area = canonical::<i32>(area)
        .and_then(CustomerArea::new)
        .ok_or_else(altered)?;
    let target: i32 = canonical(target).ok_or_else(altered)?;
    let variant = query
        .get("variant")
        .and_then(|v| PrintVariant::parse(v))
        .filter(|v| allowed.contains(v))
        .ok_or_else(altered)?;
    let expires_at: i64 = query
        .get("expires")
        .and_then(|v| canonical(v))
        .ok_or_else(altered)?;
    let signature = query.get("signature").ok_or_else(altered)?;
    let link = PrintLink {
        area: area.id(),
        target,
        variant,
        expires_at,
    };
    match link.verify(key(state).await?, signature, now_millis()) {
        Ok(()) => Ok((area, target, variant)),
        Err(LinkRefusal::Altered) => Err(altered()),
        Err(LinkRefusal::Expired { .. }) => Err(ApiError::Forbidden(
            "this print link has expired; read the snapshot, batch or group again for a fresh one"
                .into(),
        )),
    }
}

/// A number written as the server writes it: no sign, no leading zero, no space.
/// The signature covers the number, not its spelling, so `01` or `+5` would open
/// the same page under a link nobody issued.
fn canonical<T: std::str::FromStr + ToString>(text: &str) -> Option<T> {
    text.parse::<T>()
        .ok()
        .filter(|value| value.to_string() == text)
}

/// The answer sheets' policy: the page runs nothing and loads nothing but its own
/// inline styles and images.
pub(super) const SHEETS_POLICY: &str =
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

/// A printable page, with headers that let it load nothing and run nothing but
/// what `policy` allows.
pub(super) fn printable_response(html: String, policy: &str) -> Response {
    let policy = HeaderValue::from_str(policy).unwrap_or(HeaderValue::from_static(SHEETS_POLICY));
    (
        [
            (
                CONTENT_TYPE,
                HeaderValue::from_static("text/html; charset=utf-8"),
            ),
            (CONTENT_SECURITY_POLICY, policy),
            (CACHE_CONTROL, HeaderValue::from_static("private, no-store")),
        ],
        html,
    )
        .into_response()
}

/// The answer sheets a print batch's signed link opens.
pub async fn sheets(
    State(state): State<AppState>,
    Path((area, batch)): Path<(String, String)>,
    Query(query): Query<Vec<(String, String)>>,
) -> Result<Response, ApiError> {
    let (area, batch, _) = verified(&state, &area, &batch, &query, &[PrintVariant::Sheets]).await?;
    let sources = state
        .store
        .batch_sheets(area, batch)
        .await?
        .ok_or_else(|| ApiError::not_found("there is no such print batch"))?;
    let paper = state
        .store
        .snapshot_paper(area, sources.snapshot_id)
        .await?
        .ok_or_else(|| ApiError::not_found("the batch's snapshot is gone"))?;
    let pictures: Vec<(i32, String)> = paper
        .questions
        .iter()
        .filter_map(|(q, markup)| Some((q.order, markup::stage_picture(markup)?)))
        .collect();
    let questions: Vec<_> = paper.questions.into_iter().map(|(q, _)| q).collect();
    let attempts: Vec<SheetAttempt> = sources
        .attempts
        .into_iter()
        .map(|(attempt, participant)| SheetAttempt {
            attempt,
            participant,
        })
        .collect();
    let html = answer_sheets::render(
        &SheetBatch {
            area: area.id(),
            batch,
            assessment: &paper.assessment,
            snapshot: paper.name.as_deref(),
            language: paper.language.as_deref().unwrap_or("en"),
            questions: &questions,
            pictures: &pictures,
        },
        &attempts,
    )
    .map_err(|e| ApiError::Internal(anyhow::anyhow!("answer sheets: {e}")))?;
    Ok(printable_response(html, SHEETS_POLICY))
}

/// The class list a group's signed link opens (docs/rosters.md "Class lists").
pub async fn class_list(
    State(state): State<AppState>,
    Path((area, group)): Path<(String, String)>,
    Query(query): Query<Vec<(String, String)>>,
) -> Result<Response, ApiError> {
    let (area, group, _) =
        verified(&state, &area, &group, &query, &[PrintVariant::ClassList]).await?;
    let list = state
        .store
        .class_list(area, group)
        .await?
        .ok_or_else(|| ApiError::not_found("there is no such group"))?;
    let printed = chrono::Utc::now().format("%-d %B %Y").to_string();
    let html = class_list::render(group, &list, &printed)
        .map_err(|e| ApiError::Internal(anyhow::anyhow!("class list: {e}")))?;
    Ok(printable_response(html, SHEETS_POLICY))
}

/// The page a snapshot's signed link opens.
pub async fn page(
    State(state): State<AppState>,
    Path((area, snapshot)): Path<(String, String)>,
    Query(query): Query<Vec<(String, String)>>,
) -> Result<Response, ApiError> {
    let (area, snapshot, variant) = verified(
        &state,
        &area,
        &snapshot,
        &query,
        &[PrintVariant::Questions, PrintVariant::Answers],
    )
    .await?;
    let paper = state
        .store
        .snapshot_paper(area, snapshot)
        .await?
        .ok_or_else(|| ApiError::not_found("there is no such snapshot"))?;
    let answers = variant == PrintVariant::Answers;
    // The answer key prints each person-scored question's marking guide.
    let guides = if answers {
        state.store.marking_guides(area, snapshot).await?
    } else {
        Default::default()
    };
    let html = printable::render(&paper, answers, &guides)
        .map_err(|e| ApiError::Internal(anyhow::anyhow!("printable page: {e}")))?;
    Ok(printable_response(
        html,
        &printable::CONTENT_SECURITY_POLICY,
    ))
}

#[cfg(test)]
mod tests {
    use super::canonical;

    #[test]
    fn only_the_servers_own_spelling_of_a_number_is_canonical() {
        assert_eq!(canonical::<i64>("1795253412123"), Some(1_795_253_412_123));
        assert_eq!(canonical::<i32>("7"), Some(7));
        for other in ["01", "+1", " 1", "1 ", "1e3", "0x1", "", "-0"] {
            assert_eq!(canonical::<i64>(other), None, "{other:?}");
        }
    }
}
