//! `MarkedScript` (our extension, docs/odata.md): a GET function that gives a
//! signed link to the printable page of a result's marked script (each marked
//! question's answer with its annotations, scores and comments), for the
//! coordinator who prints it or returns it to the student; the page opens
//! without credentials until the link expires, as a snapshot's does.

use axum::response::Response;
use serde_json::json;

use crate::auth::links::PrintVariant;
use crate::feeds::endpoints::print::signed_link;
use crate::feeds::handler::{action_handler, ActionRequest, ServedAction};
use crate::odata::model::{Action, ComplexType};
use crate::odata::value::format_datetime;
use crate::odata::ApiError;

pub const MARKED_SCRIPT: ServedAction = ServedAction {
    action: Action {
        name: "MarkedScript",
        binding: None,
        parameters: &[("ResultID", "Edm.Int32")],
        returns: Some("ScoreDesk.MarkedScriptLink"),
        function: true,
    },
    invoke: action_handler!(invoke),
};

pub const MARKED_SCRIPT_LINK: ComplexType = ComplexType {
    name: "MarkedScriptLink",
    properties: &[
        ("ResultID", "Edm.Int32"),
        ("SourceUrl", "Edm.String"),
        ("ExpiresDateTime", "Edm.DateTime"),
    ],
};

async fn invoke(request: &ActionRequest<'_>) -> Result<Response, ApiError> {
    let result = request.arguments.int32("ResultID").ok_or_else(|| {
        ApiError::bad_request(
            "MarkedScript: the parameter ResultID is required: the result whose script is printed",
        )
    })?;
    let state = request.state;
    if !state.store.result_exists(request.area, result).await? {
        return Err(ApiError::not_found(format!(
            "there is no result {result} in this customer area"
        )));
    }
    let (url, expires_at) = signed_link(
        state,
        &request.incoming.headers,
        request.area,
        "scripts",
        result,
        PrintVariant::MarkedScript,
    )
    .await?;
    request.returned(
        "ScoreDesk.MarkedScriptLink",
        json!({
            "ResultID": result,
            "SourceUrl": url,
            "ExpiresDateTime": format_datetime(expires_at),
        }),
    )
}
