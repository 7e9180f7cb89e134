//! The latest ScoringEvent of the scoring task in the outer statement (who moved
//! it to where it is), as a correlated subquery on `scoring_events_by_task`: the
//! progress counts and the markers' figures both ask it.

use sea_query::{Alias, Expr, Func, Query, SelectStatement};

use crate::store::schema::{ScoringEvents, ScoringTasks};

/// `SELECT MAX(id)` of the events of `scoring_tasks`' row in the outer query.
pub(in crate::store) fn latest_event_id() -> SelectStatement {
    let latest = Alias::new("latest_event");
    Query::select()
        .expr(Func::max(Expr::col((latest.clone(), ScoringEvents::Id))))
        .from_as(ScoringEvents::Table, latest.clone())
        .and_where(
            Expr::col((latest.clone(), ScoringEvents::CustomerId))
                .equals((ScoringTasks::Table, ScoringTasks::CustomerId)),
        )
        .and_where(
            Expr::col((latest.clone(), ScoringEvents::QuestionId))
                .equals((ScoringTasks::Table, ScoringTasks::QuestionId)),
        )
        .and_where(
            Expr::col((latest, ScoringEvents::ResultId))
                .equals((ScoringTasks::Table, ScoringTasks::ResultId)),
        )
        .to_owned()
}
