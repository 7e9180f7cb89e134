//! An assessment's results as the export and the item analysis read them
//! ([`crate::model::report`]): six reads, each over the area's rows of the one
//! assessment by its indexes (`results_by_assessment`, then the answers' and topic
//! scores' keys by result), gathered in memory.

use std::collections::HashMap;

use sea_query::{Expr, Order, Query, SelectStatement};

use crate::model::area::CustomerArea;
use crate::model::question_kind::QuestionKind;
use crate::model::report::{
    chosen_choices, AnswerScore, AssessmentReport, ReportChoice, ReportQuestion, ReportResult,
    ReportTopic,
};
use crate::store::schema::{
    Answers, AssessmentQuestions, Assessments, Attempts, Choices, Groups, Participants, Questions,
    Results, TopicScores,
};
use crate::store::{Store, StoreError};

type QuestionRow = (i64, Option<String>, String, i32);
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
    /// Everything exported about assessment `assessment_id` of `area`; None when
    /// the area has no such assessment.
    pub async fn assessment_report(
        &self,
        area: CustomerArea,
        assessment_id: i64,
    ) -> Result<Option<AssessmentReport>, StoreError> {
        let name: Option<(String,)> = self
            .fetch_optional(
                &Query::select()
                    .column(Assessments::Name)
                    .from(Assessments::Table)
                    .and_where(Expr::col(Assessments::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Assessments::Id).eq(assessment_id))
                    .to_owned(),
            )
            .await?;
        let Some((name,)) = name else {
            return Ok(None);
        };
        let mut questions = self.report_questions(area, assessment_id).await?;
        let scores: Vec<(i32, i64, Option<i32>)> = self
            .fetch_all(
                &answers_of(area, assessment_id)
                    .column((Answers::Table, Answers::ActualScore))
                    .to_owned(),
            )
            .await?;
        // Questions answered but no longer in the assessment still count in the
        // totals: they come last, so that the columns add up to the total.
        let mut extra: Vec<i64> = scores
            .iter()
            .map(|(_, question, _)| *question)
            .filter(|id| !questions.iter().any(|q| q.id == *id))
            .collect();
        extra.sort_unstable();
        extra.dedup();
        if !extra.is_empty() {
            let rows: Vec<QuestionRow> = self
                .fetch_all(
                    &question_columns()
                        .from(Questions::Table)
                        .and_where(
                            Expr::col((Questions::Table, Questions::CustomerId)).eq(area.id()),
                        )
                        .and_where(Expr::col((Questions::Table, Questions::Id)).is_in(extra))
                        .order_by((Questions::Table, Questions::Id), Order::Asc)
                        .to_owned(),
                )
                .await?;
            questions.extend(rows.into_iter().map(report_question));
        }
        self.add_choices(area, &mut questions).await?;
        let column: HashMap<i64, usize> = questions
            .iter()
            .enumerate()
            .map(|(i, q)| (q.id, i))
            .collect();
        let mut results = self.report_results(area, assessment_id).await?;
        let row_of: HashMap<i32, usize> =
            results.iter().enumerate().map(|(i, r)| (r.id, i)).collect();
        for result in &mut results {
            result.answers = vec![None; questions.len()];
        }
        for (result_id, question_id, score) in scores {
            let (Some(&r), Some(&q)) = (row_of.get(&result_id), column.get(&question_id)) else {
                continue;
            };
            // Several occurrences of one question add up; one waiting makes it wait.
            let cell = &mut results[r].answers[q];
            *cell = Some(match cell.take() {
                None => AnswerScore {
                    score,
                    chosen: Vec::new(),
                },
                Some(before) => AnswerScore {
                    score: before.score.zip(score).map(|(a, b)| a + b),
                    chosen: before.chosen,
                },
            });
        }
        let choice_questions: Vec<i64> = questions
            .iter()
            .filter(|q| !q.choices.is_empty())
            .map(|q| q.id)
            .collect();
        if !choice_questions.is_empty() {
            let chosen: Vec<(i32, i64, Vec<u8>)> = self
                .fetch_all(
                    &answers_of(area, assessment_id)
                        .column((Answers::Table, Answers::Content))
                        .and_where(
                            Expr::col((Answers::Table, Answers::QuestionId))
                                .is_in(choice_questions),
                        )
                        .to_owned(),
                )
                .await?;
            for (result_id, question_id, content) in chosen {
                if let (Some(&r), Some(&q)) = (row_of.get(&result_id), column.get(&question_id)) {
                    if let Some(answer) = results[r].answers[q].as_mut() {
                        answer.chosen.extend(chosen_choices(&content));
                    }
                }
            }
        }
        let topics = self
            .add_topic_scores(area, assessment_id, &mut results, &row_of)
            .await?;
        Ok(Some(AssessmentReport {
            assessment_id,
            name,
            questions,
            topics,
            results,
        }))
    }

    async fn report_questions(
        &self,
        area: CustomerArea,
        assessment_id: i64,
    ) -> Result<Vec<ReportQuestion>, StoreError> {
        let rows: Vec<QuestionRow> = self
            .fetch_all(
                &question_columns()
                    .from(AssessmentQuestions::Table)
                    .inner_join(
                        Questions::Table,
                        Expr::col((Questions::Table, Questions::Id))
                            .equals((AssessmentQuestions::Table, AssessmentQuestions::QuestionId)),
                    )
                    .and_where(
                        Expr::col((AssessmentQuestions::Table, AssessmentQuestions::CustomerId))
                            .eq(area.id()),
                    )
                    .and_where(
                        Expr::col((
                            AssessmentQuestions::Table,
                            AssessmentQuestions::AssessmentId,
                        ))
                        .eq(assessment_id),
                    )
                    .order_by(
                        (AssessmentQuestions::Table, AssessmentQuestions::Position),
                        Order::Asc,
                    )
                    .to_owned(),
            )
            .await?;
        Ok(rows.into_iter().map(report_question).collect())
    }

    async fn add_choices(
        &self,
        area: CustomerArea,
        questions: &mut [ReportQuestion],
    ) -> Result<(), StoreError> {
        let ids: Vec<i64> = questions
            .iter()
            .filter(|q| {
                matches!(
                    q.kind,
                    Some(QuestionKind::MultipleChoice | QuestionKind::MultipleResponse)
                )
            })
            .map(|q| q.id)
            .collect();
        if ids.is_empty() {
            return Ok(());
        }
        let rows: Vec<(i64, i32, String, bool)> = self
            .fetch_all(
                &Query::select()
                    .columns([
                        Choices::QuestionId,
                        Choices::ChoiceOrder,
                        Choices::Text,
                        Choices::IsCorrect,
                    ])
                    .from(Choices::Table)
                    .and_where(Expr::col(Choices::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Choices::QuestionId).is_in(ids))
                    .order_by(Choices::QuestionId, Order::Asc)
                    .order_by(Choices::ChoiceOrder, Order::Asc)
                    .to_owned(),
            )
            .await?;
        for (question_id, order, text, is_correct) in rows {
            if let Some(question) = questions.iter_mut().find(|q| q.id == question_id) {
                question.choices.push(ReportChoice {
                    order,
                    text,
                    is_correct,
                });
            }
        }
        Ok(())
    }

    async fn report_results(
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
    async fn add_topic_scores(
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

fn question_columns() -> SelectStatement {
    Query::select()
        .column((Questions::Table, Questions::Id))
        .column((Questions::Table, Questions::Description))
        .column((Questions::Table, Questions::QuestionType))
        .column((Questions::Table, Questions::MaxScore))
        .to_owned()
}

fn report_question((id, description, kind, max_score): QuestionRow) -> ReportQuestion {
    ReportQuestion {
        id,
        description,
        kind: QuestionKind::parse(&kind),
        max_score,
        choices: Vec::new(),
    }
}

/// The answers of the assessment's results: result and question, then the
/// caller's columns.
fn answers_of(area: CustomerArea, assessment_id: i64) -> SelectStatement {
    Query::select()
        .column((Answers::Table, Answers::ResultId))
        .column((Answers::Table, Answers::QuestionId))
        .from(Results::Table)
        .inner_join(
            Answers::Table,
            Expr::col((Answers::Table, Answers::ResultId)).equals((Results::Table, Results::Id)),
        )
        .and_where(Expr::col((Results::Table, Results::CustomerId)).eq(area.id()))
        .and_where(Expr::col((Results::Table, Results::AssessmentId)).eq(assessment_id))
        .and_where(Expr::col((Answers::Table, Answers::CustomerId)).eq(area.id()))
        .to_owned()
}
