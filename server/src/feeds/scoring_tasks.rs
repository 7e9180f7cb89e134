//! The ScoringTasks feed.

use axum::response::{IntoResponse, Response};
use sea_query::{Condition, Expr};

use crate::auth::CustomerArea;
use crate::odata::edm::EdmType;
use crate::odata::filter_sql::{to_condition, FilterableProperty};
use crate::odata::query::QueryOptions;
use crate::odata::ApiError;
use crate::store::schema::ScoringTasks;
use crate::AppState;

/// What `$filter` may name on ScoringTasks. (`Group/Name` and the other navigation
/// paths arrive with the full protocol layer.)
const FILTERABLE: &[FilterableProperty] = &[
    FilterableProperty {
        path: "Status",
        edm: EdmType::Int32,
        column: || Expr::col((ScoringTasks::Table, ScoringTasks::Status)).into(),
    },
    FilterableProperty {
        path: "QuestionID",
        edm: EdmType::Int64,
        column: || Expr::col((ScoringTasks::Table, ScoringTasks::QuestionId)).into(),
    },
    FilterableProperty {
        path: "ResultID",
        edm: EdmType::Int32,
        column: || Expr::col((ScoringTasks::Table, ScoringTasks::ResultId)).into(),
    },
];

/// `GET ScoringTasks/$count`: a plain-text number.
pub async fn count(
    state: &AppState,
    area: CustomerArea,
    query: Option<&str>,
) -> Result<Response, ApiError> {
    let options = QueryOptions::parse(query)?;
    let mut condition = Condition::all();
    if let Some(filter) = &options.filter {
        condition = condition.add(to_condition(filter, FILTERABLE)?);
    }
    let count = state.store.count_scoring_tasks(area.0, condition).await?;
    Ok((
        [
            ("Content-Type", "text/plain;charset=utf-8"),
            ("DataServiceVersion", "1.0;"),
        ],
        count.to_string(),
    )
        .into_response())
}
