//! The rows of an assessment's report read with their people's keys (the export's
//! `ParticipantKey` and the gradebook's class), and each result's topic totals.

use std::collections::HashMap;

use sea_query::{Expr, Order, Query};

use crate::model::area::CustomerArea;
use crate::model::report::{ReportResult, ReportTopic};
use crate::store::schema::{Attempts, Groups, Participants, Results, TopicScores};
use crate::store::{Store, StoreError};

type ResultRow = (
    i32,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<i32>,
    Option<String>,
    i16,
    Option<i64>,
    i32,
    i32,
    i16,
    Option<String>,
);

impl Store {
    pub(super) async fn report_results(
        &self,
        area: CustomerArea,
        assessment_id: i64,
    ) -> Result<Vec<ReportResult>, StoreError> {
        let rows: Vec<ResultRow> = self
            .fetch_all(
                &Query::select()
                    .column((Results::Table, Results::Id))
                    .column((Results::Table, Results::ParticipantName))
                    .column((Results::Table, Results::FirstName))
                    .column((Results::Table, Results::LastName))
                    .column((Participants::Table, Participants::ExternalKey))
                    .column((Results::Table, Results::GroupName))
                    .column((Groups::Table, Groups::ExternalKey))
                    .column((Results::Table, Results::AttemptId))
                    .column((Attempts::Table, Attempts::ExternalAttemptId))
                    .column((Results::Table, Results::Status))
                    .column((Results::Table, Results::WhenFinished))
                    .column((Results::Table, Results::TotalScore))
                    .column((Results::Table, Results::MaxScore))
                    .column((Results::Table, Results::PercentageScore))
                    .column((Results::Table, Results::ScoreBandTitle))
                    .from(Results::Table)
                    .left_join(
                        Participants::Table,
                        Expr::col((Participants::Table, Participants::Id))
                            .equals((Results::Table, Results::ParticipantId)),
                    )
                    .left_join(
                        Groups::Table,
                        Expr::col((Groups::Table, Groups::Id))
                            .equals((Results::Table, Results::GroupId)),
                    )
                    .left_join(
                        Attempts::Table,
                        Expr::col((Attempts::Table, Attempts::Id))
                            .equals((Results::Table, Results::AttemptId)),
                    )
                    .and_where(Expr::col((Results::Table, Results::CustomerId)).eq(area.id()))
                    .and_where(Expr::col((Results::Table, Results::AssessmentId)).eq(assessment_id))
                    // Seed copies are no participant's results.
                    .and_where(Expr::col((Results::Table, Results::SeedFor)).is_null())
                    .order_by((Results::Table, Results::Id), Order::Asc)
                    .to_owned(),
            )
            .await?;
        Ok(rows
            .into_iter()
            .map(|r| ReportResult {
                id: r.0,
                participant: r.1,
                first_name: r.2,
                last_name: r.3,
                participant_key: r.4,
                group: r.5,
                group_key: r.6,
                attempt_id: r.7,
                external_attempt_id: r.8,
                status: r.9,
                when_finished: r.10,
                total_score: r.11,
                max_score: r.12,
                percentage_score: r.13,
                band: r.14,
                answers: Vec::new(),
                topic_scores: Vec::new(),
            })
            .collect())
    }

    /// The topics of the results' TopicScores, by path, and each result's totals.
    pub(super) async fn add_topic_scores(
        &self,
        area: CustomerArea,
        assessment_id: i64,
        results: &mut [ReportResult],
        row_of: &HashMap<i32, usize>,
    ) -> Result<Vec<ReportTopic>, StoreError> {
        let rows: Vec<(i32, i32, Option<String>, i32)> = self
            .fetch_all(
                &Query::select()
                    .column((TopicScores::Table, TopicScores::ResultId))
                    .column((TopicScores::Table, TopicScores::TopicId))
                    .column((TopicScores::Table, TopicScores::TopicPath))
                    .column((TopicScores::Table, TopicScores::TotalScore))
                    .from(Results::Table)
                    .inner_join(
                        TopicScores::Table,
                        Expr::col((TopicScores::Table, TopicScores::ResultId))
                            .equals((Results::Table, Results::Id)),
                    )
                    .and_where(Expr::col((Results::Table, Results::CustomerId)).eq(area.id()))
                    .and_where(Expr::col((Results::Table, Results::AssessmentId)).eq(assessment_id))
                    // Seed copies are no participant's results.
                    .and_where(Expr::col((Results::Table, Results::SeedFor)).is_null())
                    .and_where(
                        Expr::col((TopicScores::Table, TopicScores::CustomerId)).eq(area.id()),
                    )
                    .to_owned(),
            )
            .await?;
        let mut topics: Vec<ReportTopic> = Vec::new();
        for (_, id, path, _) in &rows {
            if !topics.iter().any(|t| t.id == *id) {
                topics.push(ReportTopic {
                    id: *id,
                    path: path.clone().unwrap_or_default(),
                });
            }
        }
        topics.sort_by(|a, b| a.path.cmp(&b.path).then(a.id.cmp(&b.id)));
        for result in results.iter_mut() {
            result.topic_scores = vec![None; topics.len()];
        }
        for (result_id, topic_id, _, total) in rows {
            let place = topics.iter().position(|t| t.id == topic_id);
            if let (Some(&r), Some(t)) = (row_of.get(&result_id), place) {
                results[r].topic_scores[t] = Some(total);
            }
        }
        Ok(topics)
    }
}
