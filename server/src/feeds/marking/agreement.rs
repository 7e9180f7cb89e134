//! `MarkingAgreement` (our extension, docs/odata.md): a GET function with the
//! figures of a question's double marking, from its submitted markings: one row
//! for the question (its first and second markings' agreement) and one per
//! marker (his scripts, the mean and spread of his totals, and his agreement
//! with the other marking of each script he marked). The figures are
//! `model::agreement`'s.

use axum::response::Response;
use serde_json::{json, Value};

use crate::feeds::handler::{action_handler, ActionRequest, ServedAction};
use crate::model::agreement::{agreement, marker_figures, Agreement, MarkedPair};
use crate::model::marking_rounds::{FIRST_ROUND, SECOND_ROUND};
use crate::odata::model::{Action, ComplexType};
use crate::odata::ApiError;
use crate::store::SubmittedMarking;

pub const AGREEMENT: ServedAction = ServedAction {
    action: Action {
        name: "MarkingAgreement",
        binding: None,
        parameters: &[("QuestionID", "Edm.Int64")],
        returns: Some("Collection(ScoreDesk.MarkingAgreementRow)"),
        function: true,
    },
    invoke: action_handler!(invoke),
};

pub const AGREEMENT_ROW: ComplexType = ComplexType {
    name: "MarkingAgreementRow",
    properties: &[
        // "question" (the first row) or "marker".
        ("By", "Edm.String"),
        ("Marker", "Edm.String"),
        ("Scripts", "Edm.Int32"),
        ("MeanScore", "Edm.Double"),
        ("ScoreSpread", "Edm.Double"),
        ("Pairs", "Edm.Int32"),
        ("ExactAgreement", "Edm.Double"),
        ("WithinOneAgreement", "Edm.Double"),
        ("QuadraticKappa", "Edm.Double"),
        ("Icc", "Edm.Double"),
    ],
};

/// The first and second markings of each script, by result.
pub(super) fn pairs_of(markings: &[SubmittedMarking]) -> Vec<MarkedPair> {
    markings
        .iter()
        .filter(|first| first.round == FIRST_ROUND)
        .filter_map(|first| {
            markings
                .iter()
                .find(|second| second.result_id == first.result_id && second.round == SECOND_ROUND)
                .map(|second| MarkedPair {
                    first_marker: first.marker.clone(),
                    first: first.total,
                    second_marker: second.marker.clone(),
                    second: second.total,
                })
        })
        .collect()
}

pub(super) fn agreement_fields(agreement: Option<&Agreement>) -> Value {
    json!({
        "Pairs": agreement.map_or(0, |a| a.pairs),
        "ExactAgreement": agreement.map(|a| a.exact),
        "WithinOneAgreement": agreement.map(|a| a.within_one),
        "QuadraticKappa": agreement.and_then(|a| a.quadratic_kappa),
        "Icc": agreement.and_then(|a| a.icc),
    })
}

fn row(
    by: &str,
    marker: Option<&str>,
    scripts: usize,
    mean: Option<f64>,
    spread: Option<f64>,
    agreement: Option<&Agreement>,
) -> Value {
    let mut row = json!({
        "By": by,
        "Marker": marker,
        "Scripts": scripts,
        "MeanScore": mean,
        "ScoreSpread": spread,
    });
    if let (Value::Object(row), Value::Object(more)) = (&mut row, agreement_fields(agreement)) {
        row.extend(more);
    }
    row
}

async fn invoke(request: &ActionRequest<'_>) -> Result<Response, ApiError> {
    let question = request.required_int64(
        "QuestionID",
        "the question's ID, as QuestionID=2185231530100003L",
    )?;
    let store = &request.state.store;
    let max = store
        .question_max_score(request.area, question)
        .await?
        .ok_or_else(|| {
            ApiError::not_found(format!(
                "there is no question {question} in this customer area"
            ))
        })?;
    let markings = store.submitted_markings(request.area, question).await?;
    let pairs = pairs_of(&markings);
    let totals: Vec<(String, i32)> = markings
        .iter()
        .map(|m| (m.marker.clone(), m.total))
        .collect();
    let overall: Vec<(i32, i32)> = pairs.iter().map(|p| (p.first, p.second)).collect();
    let all: Vec<f64> = totals.iter().map(|(_, t)| f64::from(*t)).collect();
    let mean = (!all.is_empty()).then(|| all.iter().sum::<f64>() / all.len() as f64);
    let spread = mean.filter(|_| all.len() > 1).map(|mean| {
        (all.iter().map(|t| (t - mean).powi(2)).sum::<f64>() / (all.len() as f64 - 1.0)).sqrt()
    });
    let mut rows = vec![row(
        "question",
        None,
        markings.len(),
        mean,
        spread,
        agreement(&overall, max).as_ref(),
    )];
    for figures in marker_figures(&totals, &pairs, max) {
        rows.push(row(
            "marker",
            Some(&figures.marker),
            figures.scripts,
            Some(figures.mean),
            figures.spread,
            figures.agreement.as_ref(),
        ));
    }
    request.returned(
        "Collection(ScoreDesk.MarkingAgreementRow)",
        Value::Array(rows),
    )
}
