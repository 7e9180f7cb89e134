//! The actions of the results feed (spec, "Results feed"; contract, "Actions"):
//! purges queued with their audit log entry and answered 202 at once, the
//! retention period, and replays. Who may invoke them (administrators) is decided
//! in routing; their parameters come from the body or the URL
//! (`odata::action_params`).

mod content_import;
pub mod declared;
mod purges;
mod replay;
mod request;

use axum::body::Bytes;
use axum::response::Response;

pub use declared::{ACTIONS, COMPLEX_TYPES};
use request::ActionRequest;

use super::route::Incoming;
use super::state::AppState;
use crate::auth::Principal;
use crate::model::area::CustomerArea;
use crate::odata::action_params;
use crate::odata::path::ActionPath;
use crate::odata::query::QueryOptions;
use crate::odata::ApiError;

/// Invokes the action `path` names.
pub async fn invoke(
    state: &AppState,
    area: CustomerArea,
    principal: &Principal,
    incoming: &Incoming,
    path: &ActionPath,
    options: &QueryOptions,
    body: Bytes,
) -> Result<Response, ApiError> {
    let arguments = action_params::read(path.action, &body, &options.parameters)?;
    let request = ActionRequest {
        state,
        area,
        principal,
        incoming,
        path,
        options,
        arguments,
    };
    match path.action.name {
        "FetchPurgeRetentionPeriodDays" => purges::retention_period(&request).await,
        "ImportQtiPackage" => content_import::import_qti(&request).await,
        "ReplayResult" | "ReplayResultsByIDList" | "ReplayResultsByDateRange" => {
            replay::invoke(&request).await
        }
        _ => purges::queue(&request).await,
    }
}
