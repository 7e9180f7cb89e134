//! An assessment's results as the export and the item analysis read them
//! ([`crate::model::report`]): six reads, each over the area's rows of the one
//! assessment by its indexes (`results_by_assessment`, then the answers' and topic
//! scores' keys by result), gathered in memory.

use std::collections::HashMap;

use sea_query::{CaseStatement, Expr, Order, Query, SelectStatement};

use crate::model::area::CustomerArea;
use crate::model::question_kind::QuestionKind;
use crate::model::report::{
    chosen_choices, AnswerScore, AssessmentReport, ReportChoice, ReportQuestion,
};
use crate::store::schema::{
    Answers, AssessmentQuestions, Assessments, Choices, Questions, Results,
};
use crate::store::{Store, StoreError};

type QuestionRow = (i64, Option<String>, String, i32);
/// An answer's result, question, score, and content where it is a choice answer.
type AnswerRow = (i32, i64, Option<i32>, Option<Vec<u8>>);

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
        self.add_choices(area, &mut questions).await?;
        // One pass over the answers (each row crossing the driver costs more than
        // reading it on SQLite): the score, and what was chosen where the question
        // is a choice question (an essay's content stays in the database).
        // A template question's answers are its instances' (each snapshot's own
        // draw): counted in the template's column.
        let instances = self.instances_of(area, &questions).await?;
        let mut choice_ids = choice_questions(&questions);
        choice_ids.extend(
            instances
                .iter()
                .filter(|(_, template)| choice_ids.contains(template))
                .map(|(instance, _)| *instance)
                .collect::<Vec<_>>(),
        );
        let mut rows: Vec<AnswerRow> = self
            .fetch_all(
                &answers_of(area, assessment_id)
                    .column((Answers::Table, Answers::ActualScore))
                    .expr(chosen_content(choice_ids))
                    .to_owned(),
            )
            .await?;
        for row in &mut rows {
            if let Some(template) = instances.get(&row.1) {
                row.1 = *template;
            }
        }
        // Questions answered but no longer in the assessment still count in the
        // totals: they come last, so that the columns add up to the total.
        let mut extra: Vec<i64> = rows
            .iter()
            .map(|row| row.1)
            .filter(|id| !questions.iter().any(|q| q.id == *id))
            .collect();
        extra.sort_unstable();
        extra.dedup();
        let mut late_choices: Vec<(i32, i64, Vec<u8>)> = Vec::new();
        if !extra.is_empty() {
            let found: Vec<QuestionRow> = self
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
            let mut added: Vec<ReportQuestion> = found.into_iter().map(report_question).collect();
            self.add_choices(area, &mut added).await?;
            let ids = choice_questions(&added);
            if !ids.is_empty() {
                late_choices = self
                    .fetch_all(
                        &answers_of(area, assessment_id)
                            .column((Answers::Table, Answers::Content))
                            .and_where(Expr::col((Answers::Table, Answers::QuestionId)).is_in(ids))
                            .to_owned(),
                    )
                    .await?;
            }
            questions.extend(added);
        }
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
        for (result_id, question_id, score, content) in rows {
            let (Some(&r), Some(&q)) = (row_of.get(&result_id), column.get(&question_id)) else {
                continue;
            };
            let chosen = content.as_deref().map(chosen_choices).unwrap_or_default();
            // Several occurrences of one question add up; one waiting makes it wait.
            let cell = &mut results[r].answers[q];
            *cell = Some(match cell.take() {
                None => AnswerScore { score, chosen },
                Some(mut before) => {
                    before.chosen.extend(chosen);
                    AnswerScore {
                        score: before.score.zip(score).map(|(a, b)| a + b),
                        chosen: before.chosen,
                    }
                }
            });
        }
        for (result_id, question_id, content) in late_choices {
            if let (Some(&r), Some(&q)) = (row_of.get(&result_id), column.get(&question_id)) {
                if let Some(answer) = results[r].answers[q].as_mut() {
                    answer.chosen.extend(chosen_choices(&content));
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

    /// The instances drawn from any of `questions` (template questions), each
    /// with its template.
    async fn instances_of(
        &self,
        area: CustomerArea,
        questions: &[ReportQuestion],
    ) -> Result<HashMap<i64, i64>, StoreError> {
        let ids: Vec<i64> = questions.iter().map(|q| q.id).collect();
        let rows: Vec<(i64, i64)> = self
            .fetch_all(
                &Query::select()
                    .columns([Questions::Id, Questions::InstanceOf])
                    .from(Questions::Table)
                    .and_where(Expr::col(Questions::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Questions::InstanceOf).is_in(ids))
                    .to_owned(),
            )
            .await?;
        Ok(rows.into_iter().collect())
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
}

fn choice_questions(questions: &[ReportQuestion]) -> Vec<i64> {
    questions
        .iter()
        .filter(|q| !q.choices.is_empty())
        .map(|q| q.id)
        .collect()
}

/// An answer's content where its question is one of `choice_ids`, else NULL. With
/// no choice question the condition is never true (sea-query writes an empty IN as
/// false), and the column keeps its type.
fn chosen_content(choice_ids: Vec<i64>) -> sea_query::SimpleExpr {
    CaseStatement::new()
        .case(
            Expr::col((Answers::Table, Answers::QuestionId)).is_in(choice_ids),
            Expr::col((Answers::Table, Answers::Content)),
        )
        .into()
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
        // Seed copies are no participant's results.
        .and_where(Expr::col((Results::Table, Results::SeedFor)).is_null())
        .and_where(Expr::col((Answers::Table, Answers::CustomerId)).eq(area.id()))
        .to_owned()
}
