//! Regrading after a rubric change (docs/marking-quality.md, "Regrading after a
//! rubric change"; docs/odata.md, "`RubricRegrades`"): a lead marker who
//! corrected a question's rubric (`POST Rubrics`) counts the scripts marked with
//! the old one (`RegradeCount`), then confirms that count in a POST to
//! `RubricRegrades` with each dimension's map of old scores to new. The scripts
//! move onto the new rubric in groups, in a task of the server's; the entity
//! written is the audit entry, which says how far it got.

use axum::response::Response;
use serde::Deserialize;
use serde_json::json;

use crate::feeds::handler::limits::CREATE_ONLY;
use crate::feeds::handler::{
    action_handler, write_handler, ActionRequest, Feed, ServedAction, WriteRequest, Written,
};
use crate::model::regrade::{check, reason, MapDraft};
use crate::odata::body::require_json;
use crate::odata::edm::EdmType::{DateTime, Int32, Int64, String as Str};
use crate::odata::model::{one, prop, Action, ComplexType, EntitySet};
use crate::odata::path::{parse_key, EntityPath, Suffix};
use crate::odata::ApiError;
use crate::store::{NewRegrade, RegradeRefused, WriteScope};

pub static RUBRIC_REGRADES: EntitySet = EntitySet {
    name: "RubricRegrades",
    type_name: "RubricRegrade",
    table: "rubric_regrades",
    key: &["ID"],
    properties: &[
        prop("ID", "id", Int32, false),
        prop("QuestionID", "question_id", Int64, false),
        prop("FromRubricID", "from_rubric_id", Int32, false),
        prop("ToRubricID", "to_rubric_id", Int32, false),
        prop("Reason", "reason", Str, false),
        // Each dimension's map, as model::regrade::Regrade::describe writes it.
        prop("ScoreMaps", "score_maps", Str, false),
        // The ScoringResults counted and confirmed, and those moved.
        prop("Scripts", "scripts", Int32, false),
        prop("Regraded", "regraded", Int32, false),
        prop("TotalsChanged", "totals_changed", Int32, false),
        prop("ResultsRescored", "results_rescored", Int32, false),
        prop("Markings", "markings", Int32, false),
        prop("Seeds", "seeds", Int32, false),
        prop("RequestedBy", "requested_by", Str, false),
        prop("RequestedDateTime", "requested_at", DateTime, false),
        // Null while it runs, or if the server stopped before the last group.
        prop("CompletedDateTime", "completed_at", DateTime, true),
    ],
    navigations: &[
        one("FromRubric", "Rubrics", &[("from_rubric_id", "id")], true),
        one("ToRubric", "Rubrics", &[("to_rubric_id", "id")], true),
    ],
    concurrency: None,
    filterable: &[
        "ID",
        "QuestionID",
        "FromRubricID",
        "ToRubricID",
        "RequestedDateTime",
    ],
    media: None,
    writes: CREATE_ONLY,
};

pub static FEED: Feed = Feed {
    post: Some(write_handler!(post)),
    ..Feed::read_only(&RUBRIC_REGRADES)
};

pub const REGRADE_COUNT: ServedAction = ServedAction {
    action: Action {
        name: "RegradeCount",
        binding: None,
        parameters: &[("RubricID", "Edm.Int32")],
        returns: Some("ScoreDesk.RegradeCount"),
        function: true,
    },
    invoke: action_handler!(count),
};

pub const REGRADE_COUNT_ROW: ComplexType = ComplexType {
    name: "RegradeCount",
    properties: &[
        ("RubricID", "Edm.Int32"),
        ("QuestionID", "Edm.Int64"),
        ("IsCurrent", "Edm.Boolean"),
        ("Scripts", "Edm.Int32"),
        ("Scored", "Edm.Int32"),
        ("Markings", "Edm.Int32"),
        ("Seeds", "Edm.Int32"),
    ],
};

/// What a lead confirms before a regrade: the scripts marked with the rubric.
async fn count(request: &ActionRequest<'_>) -> Result<Response, ApiError> {
    let rubric = request.arguments.int32("RubricID").ok_or_else(|| {
        ApiError::bad_request("RegradeCount: the parameter RubricID is required: the old rubric whose scripts would move")
    })?;
    let store = &request.state.store;
    let found = store
        .rubric_for_regrade(request.area, rubric)
        .await?
        .ok_or_else(|| {
            ApiError::not_found(format!("there is no rubric {rubric} in this customer area"))
        })?;
    let counts = store
        .regrade_counts(request.area, found.shape.question_id, rubric)
        .await?;
    request.returned(
        "ScoreDesk.RegradeCount",
        json!({
            "RubricID": rubric,
            "QuestionID": found.shape.question_id.to_string(),
            "IsCurrent": found.current,
            "Scripts": counts.scripts,
            "Scored": counts.scored,
            "Markings": counts.markings,
            "Seeds": counts.seeds,
        }),
    )
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase", deny_unknown_fields)]
struct RegradeBody {
    #[serde(rename = "FromRubricID")]
    from_rubric_id: i32,
    /// The question's current rubric when left out.
    #[serde(rename = "ToRubricID", default)]
    to_rubric_id: Option<i32>,
    scripts: i64,
    reason: Option<String>,
    #[serde(default)]
    dimensions: Vec<MapBody>,
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase", deny_unknown_fields)]
struct MapBody {
    order: i32,
    scores: Vec<i32>,
}

fn read_body(request: &WriteRequest<'_>) -> Result<RegradeBody, ApiError> {
    require_json(
        request
            .headers
            .get(axum::http::header::CONTENT_TYPE)
            .and_then(|value| value.to_str().ok()),
    )?;
    let mut reader = serde_json::Deserializer::from_slice(&request.body);
    serde_path_to_error::deserialize(&mut reader).map_err(|error| {
        let field = error.path().to_string();
        let field = if field == "." {
            String::new()
        } else {
            format!(".{field}")
        };
        ApiError::bad_request(format!("RubricRegrade{field}: {}", error.inner()))
    })
}

async fn post(
    request: &WriteRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    super::collection_only::at_the_collection(request)?;
    if writes.is_change_set() {
        return Err(ApiError::bad_request(
            "RubricRegrades: a regrade is not part of a $batch change set; it commits its scripts a group at a time",
        ));
    }
    let body = read_body(request)?;
    let reason = reason(body.reason.as_deref()).map_err(ApiError::BadRequest)?;
    let store = &request.state.store;
    let from = store
        .rubric_for_regrade(request.area, body.from_rubric_id)
        .await?
        .ok_or_else(|| {
            ApiError::bad_request(format!(
                "RubricRegrade.FromRubricID: {} is not a rubric of this customer area",
                body.from_rubric_id
            ))
        })?;
    if from.current {
        return Err(ApiError::bad_request(format!(
            "RubricRegrade.FromRubricID: rubric {} is still its question's current rubric; POST the corrected rubric to Rubrics first, then regrade from this one",
            from.shape.id
        )));
    }
    let to_id = match body.to_rubric_id {
        Some(id) => id,
        None => store
            .current_rubric_of(request.area, from.shape.question_id)
            .await?
            .ok_or_else(|| {
                ApiError::bad_request(format!(
                    "RubricRegrade.ToRubricID: question {} has no current rubric to regrade onto",
                    from.shape.question_id
                ))
            })?,
    };
    let to = store
        .rubric_for_regrade(request.area, to_id)
        .await?
        .ok_or_else(|| {
            ApiError::bad_request(format!(
                "RubricRegrade.ToRubricID: {to_id} is not a rubric of this customer area"
            ))
        })?;
    if !to.current {
        return Err(ApiError::bad_request(format!(
            "RubricRegrade.ToRubricID: rubric {to_id} was replaced; a regrade moves scripts onto the question's current rubric"
        )));
    }
    let drafts: Vec<MapDraft> = body
        .dimensions
        .into_iter()
        .map(|map| MapDraft {
            order: map.order,
            scores: map.scores,
        })
        .collect();
    let regrade = check(&from.shape, &to.shape, &drafts).map_err(ApiError::BadRequest)?;
    let started = store
        .start_regrade(NewRegrade {
            area: request.area,
            from: &from.shape,
            to: &to.shape,
            regrade: &regrade,
            reason: &reason,
            scripts: body.scripts,
            by: &request.principal.username,
        })
        .await?;
    let id = match started {
        Ok(id) => id,
        Err(RegradeRefused::Recount(now)) => {
            return Err(ApiError::Conflict(format!(
                "RubricRegrade.Scripts: {now} scripts are marked with rubric {} now, not {}; count them again (RegradeCount) and confirm that number",
                from.shape.id, body.scripts
            )))
        }
        Err(RegradeRefused::NotCurrent) => {
            return Err(ApiError::Conflict(format!(
                "RubricRegrade.ToRubricID: rubric {to_id} was replaced meanwhile; regrade onto the question's current rubric"
            )))
        }
    };
    // The groups go on in a task of their own, which neither the request's
    // timeout nor a client that hangs up stops; a regrade that ends within the
    // setting regrade_wait_milliseconds is answered complete, a longer one while it runs (its
    // CompletedDateTime null until done; the client reads the entry again).
    let finishing = {
        let (store, area, from, to, regrade) = (
            store.clone(),
            request.area,
            from.shape.clone(),
            to.shape.id,
            regrade.clone(),
        );
        tokio::spawn(async move {
            if let Err(error) = store.finish_regrade(area, id, &from, to, &regrade).await {
                tracing::error!(regrade = id, %error, "a regrade stopped part way; regrading its old rubric again moves the rest");
            }
        })
    };
    let wait = std::time::Duration::from_millis(request.state.settings.regrade_wait_milliseconds);
    let _ = tokio::time::timeout(wait, finishing).await;
    Ok(Written::Created {
        path: EntityPath {
            set: &RUBRIC_REGRADES,
            key: Some(parse_key(&RUBRIC_REGRADES, &id.to_string())?),
            steps: Vec::new(),
            suffix: Suffix::None,
            links: false,
        },
        key: id.to_string(),
    })
}
