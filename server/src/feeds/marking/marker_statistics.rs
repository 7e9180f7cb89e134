//! `MarkerStatistics` and `MarkerDrift` (our extensions, docs/odata.md): GET
//! functions with each marker's figures on a question, for the lead marker's
//! desk and for other tools. A marker's scripts are his submitted markings of
//! double-marked tasks (any round) and the tasks marked once whose Status he set
//! to 3 last; the figures are `model::marker_statistics`'s, and his agreement
//! with the other marking of each double-marked script `model::agreement`'s,
//! and with the definitive marks of the check scripts he scored
//! `model::seed_figures`'s.

use axum::response::Response;
use serde_json::{json, Value};

use super::agreement::{agreement_fields, pairs_of};
use crate::feeds::handler::{action_handler, ActionRequest, ServedAction};
use crate::model::agreement::{agreement, marker_figures};
use crate::model::marker_statistics::{
    drift_windows, marker_statistics, question_figures, MarkedScript, Pace,
};
use crate::model::seed_figures::{marker_seed_figures, question_seed_figures, SeedFigures};
use crate::odata::model::{Action, ComplexType};
use crate::odata::ApiError;
use crate::store::SubmittedMarking;

const QUESTION_ID: &str = "the question's ID, as QuestionID=2185231530100003L";

pub const STATISTICS: ServedAction = ServedAction {
    action: Action {
        name: "MarkerStatistics",
        binding: None,
        parameters: &[("QuestionID", "Edm.Int64")],
        returns: Some("Collection(ScoreDesk.MarkerStatisticsRow)"),
        function: true,
    },
    invoke: action_handler!(statistics),
};

pub const DRIFT: ServedAction = ServedAction {
    action: Action {
        name: "MarkerDrift",
        binding: None,
        parameters: &[("QuestionID", "Edm.Int64")],
        returns: Some("Collection(ScoreDesk.MarkerDriftRow)"),
        function: true,
    },
    invoke: action_handler!(drift),
};

pub const STATISTICS_ROW: ComplexType = ComplexType {
    name: "MarkerStatisticsRow",
    properties: &[
        // "question" (the first row) or "marker".
        ("By", "Edm.String"),
        ("Marker", "Edm.String"),
        ("Scripts", "Edm.Int32"),
        ("MeanScore", "Edm.Double"),
        ("ScoreSpread", "Edm.Double"),
        // The marker's mean less everyone else's on the question, and that over
        // its standard error.
        ("MeanDifference", "Edm.Double"),
        ("MeanDifferenceZ", "Edm.Double"),
        ("MedianSecondsPerScript", "Edm.Double"),
        ("ScriptsPerHour", "Edm.Double"),
        ("MarkingMinutes", "Edm.Double"),
        // Marks per 100 scripts, in the order he marked them.
        ("DriftPerHundred", "Edm.Double"),
        ("FirstMarkedDateTime", "Edm.DateTime"),
        ("LastMarkedDateTime", "Edm.DateTime"),
        // With the other marking of each double-marked script.
        ("Pairs", "Edm.Int32"),
        ("ExactAgreement", "Edm.Double"),
        ("WithinOneAgreement", "Edm.Double"),
        ("QuadraticKappa", "Edm.Double"),
        ("Icc", "Edm.Double"),
        // With the definitive marks of the check scripts (seeds) he scored: how
        // many, his deviation's mean signed and unsigned, the share exact, and
        // its drift per 10 seeds in the order he scored them.
        ("SeedsMarked", "Edm.Int32"),
        ("SeedMeanDeviation", "Edm.Double"),
        ("SeedMeanAbsoluteDeviation", "Edm.Double"),
        ("SeedExactAgreement", "Edm.Double"),
        ("SeedDriftPerTen", "Edm.Double"),
    ],
};

pub const DRIFT_ROW: ComplexType = ComplexType {
    name: "MarkerDriftRow",
    properties: &[
        ("Marker", "Edm.String"),
        ("Window", "Edm.Int32"),
        ("Scripts", "Edm.Int32"),
        ("FromDateTime", "Edm.DateTime"),
        ("ToDateTime", "Edm.DateTime"),
        ("MeanScore", "Edm.Double"),
        // The window's mean less the question's over every script.
        ("MeanDifference", "Edm.Double"),
    ],
};

fn date_time(millis: i64) -> Option<String> {
    chrono::DateTime::from_timestamp_millis(millis)
        .map(|t| t.format("%Y-%m-%dT%H:%M:%S%.3f").to_string())
}

fn pace_fields(pace: &Pace) -> Value {
    json!({
        "MedianSecondsPerScript": pace.median_seconds,
        "ScriptsPerHour": pace.scripts_per_hour,
        "MarkingMinutes": pace.marking_minutes,
    })
}

fn seed_fields(seeds: &SeedFigures) -> Value {
    json!({
        "SeedsMarked": seeds.seeds,
        "SeedMeanDeviation": seeds.mean_deviation,
        "SeedMeanAbsoluteDeviation": seeds.mean_absolute_deviation,
        "SeedExactAgreement": seeds.exact,
        "SeedDriftPerTen": seeds.drift_per_ten,
    })
}

fn merged(mut row: Value, more: &[Value]) -> Value {
    if let Value::Object(row) = &mut row {
        for more in more {
            if let Value::Object(more) = more {
                row.extend(more.clone());
            }
        }
    }
    row
}

/// The question's maximum, every script marked of it (each marking and each
/// task marked once), and its submitted markings.
type Marked = (i32, Vec<MarkedScript>, Vec<SubmittedMarking>);

/// The question's maximum (404 when the area has no such question) and every
/// script marked of it.
async fn scripts_of(request: &ActionRequest<'_>) -> Result<Marked, ApiError> {
    let question = request.required_int64("QuestionID", QUESTION_ID)?;
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
    let mut scripts = store.scripts_marked_once(request.area, question).await?;
    scripts.extend(markings.iter().map(|m| MarkedScript {
        result_id: m.result_id,
        marker: m.marker.clone(),
        total: m.total,
        at: m.at,
    }));
    Ok((max, scripts, markings))
}

async fn statistics(request: &ActionRequest<'_>) -> Result<Response, ApiError> {
    let (max, scripts, markings) = scripts_of(request).await?;
    let pairs = pairs_of(&markings);
    let overall: Vec<(i32, i32)> = pairs.iter().map(|p| (p.first, p.second)).collect();
    let totals: Vec<(String, i32)> = markings
        .iter()
        .map(|m| (m.marker.clone(), m.total))
        .collect();
    let agreements = marker_figures(&totals, &pairs, max);
    let question = question_figures(&scripts);
    let seeds = request
        .state
        .store
        .seeds_scored(
            request.area,
            request.required_int64("QuestionID", QUESTION_ID)?,
        )
        .await?;
    let by_marker = marker_seed_figures(&seeds);
    let mut rows = vec![merged(
        json!({
            "By": "question",
            "Marker": null,
            "Scripts": question.scripts,
            "MeanScore": question.mean,
            "ScoreSpread": question.spread,
            "MeanDifference": null,
            "MeanDifferenceZ": null,
            "DriftPerHundred": null,
            "FirstMarkedDateTime": scripts.iter().map(|s| s.at).min().and_then(date_time),
            "LastMarkedDateTime": scripts.iter().map(|s| s.at).max().and_then(date_time),
        }),
        &[
            pace_fields(&question.pace),
            agreement_fields(agreement(&overall, max).as_ref()),
            seed_fields(&question_seed_figures(&seeds)),
        ],
    )];
    for marker in marker_statistics(&scripts) {
        let agreement = agreements
            .iter()
            .find(|figures| figures.marker == marker.marker)
            .and_then(|figures| figures.agreement.as_ref());
        rows.push(merged(
            json!({
                "By": "marker",
                "Marker": marker.marker,
                "Scripts": marker.scripts,
                "MeanScore": marker.mean,
                "ScoreSpread": marker.spread,
                "MeanDifference": marker.mean_difference,
                "MeanDifferenceZ": marker.mean_difference_z,
                "DriftPerHundred": marker.drift_per_hundred,
                "FirstMarkedDateTime": date_time(marker.first_at),
                "LastMarkedDateTime": date_time(marker.last_at),
            }),
            &[
                pace_fields(&marker.pace),
                agreement_fields(agreement),
                seed_fields(&by_marker.get(&marker.marker).cloned().unwrap_or_default()),
            ],
        ));
    }
    request.returned(
        "Collection(ScoreDesk.MarkerStatisticsRow)",
        Value::Array(rows),
    )
}

async fn drift(request: &ActionRequest<'_>) -> Result<Response, ApiError> {
    let (_, scripts, _) = scripts_of(request).await?;
    let rows = drift_windows(&scripts)
        .into_iter()
        .map(|window| {
            json!({
                "Marker": window.marker,
                "Window": window.window,
                "Scripts": window.scripts,
                "FromDateTime": date_time(window.from_at),
                "ToDateTime": date_time(window.to_at),
                "MeanScore": window.mean,
                "MeanDifference": window.difference,
            })
        })
        .collect();
    request.returned("Collection(ScoreDesk.MarkerDriftRow)", Value::Array(rows))
}
