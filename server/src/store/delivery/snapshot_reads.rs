//! A snapshot read back: as its printed page shows it (its questions in order,
//! their choices in its order with the key, their scoring), and its own row.

use sea_query::{Expr, Order, Query};

use crate::model::area::CustomerArea;
use crate::model::snapshot::{SnapshotChoice, SnapshotPaper, SnapshotQuestion};
use crate::store::content::question_rows::{
    kind_of, picture_of, question_columns, rule_of, topic_of,
};
use crate::store::schema::{
    AssessmentSnapshots, Assessments, Choices, Questions, SnapshotChoices, SnapshotQuestions,
};
use crate::store::{Store, StoreError};

/// `(question ID, type, max score, topic ID, topic path, rule, map default, map
/// lower, map upper, markup, position, most choices, picture width, picture
/// height)`.
type PaperQuestionRow = (
    i64,
    String,
    i32,
    Option<i32>,
    Option<String>,
    String,
    Option<f64>,
    Option<f64>,
    Option<f64>,
    String,
    i32,
    Option<i32>,
    Option<f64>,
    Option<f64>,
);

impl Store {
    /// Snapshot `id` of `area` as its printed page shows it: its questions in its
    /// order with their markup, and their choices in its order with the key.
    pub async fn snapshot_paper(
        &self,
        area: CustomerArea,
        id: i32,
    ) -> Result<Option<SnapshotPaper>, StoreError> {
        let header: Option<(Option<String>, Option<String>, String)> = self
            .fetch_optional(
                &Query::select()
                    .column((AssessmentSnapshots::Table, AssessmentSnapshots::Name))
                    .column((AssessmentSnapshots::Table, AssessmentSnapshots::Language))
                    .column((Assessments::Table, Assessments::Name))
                    .from(AssessmentSnapshots::Table)
                    .inner_join(
                        Assessments::Table,
                        Expr::col((Assessments::Table, Assessments::Id)).equals((
                            AssessmentSnapshots::Table,
                            AssessmentSnapshots::AssessmentId,
                        )),
                    )
                    .and_where(
                        Expr::col((AssessmentSnapshots::Table, AssessmentSnapshots::CustomerId))
                            .eq(area.id()),
                    )
                    .and_where(
                        Expr::col((AssessmentSnapshots::Table, AssessmentSnapshots::Id)).eq(id),
                    )
                    .to_owned(),
            )
            .await?;
        let Some((name, language, assessment)) = header else {
            return Ok(None);
        };
        let rows: Vec<PaperQuestionRow> = self
            .fetch_all(
                &question_columns(SnapshotQuestions::Table, SnapshotQuestions::QuestionId)
                    .column((Questions::Table, Questions::Markup))
                    .column((SnapshotQuestions::Table, SnapshotQuestions::Position))
                    .column((Questions::Table, Questions::MaxChoices))
                    .column((Questions::Table, Questions::PictureWidth))
                    .column((Questions::Table, Questions::PictureHeight))
                    .and_where(
                        Expr::col((SnapshotQuestions::Table, SnapshotQuestions::CustomerId))
                            .eq(area.id()),
                    )
                    .and_where(
                        Expr::col((SnapshotQuestions::Table, SnapshotQuestions::SnapshotId)).eq(id),
                    )
                    .order_by(
                        (SnapshotQuestions::Table, SnapshotQuestions::Position),
                        Order::Asc,
                    )
                    .to_owned(),
            )
            .await?;
        // (position, choice position, the question's own order, text, correct,
        // value, blank)
        type ChoiceRow = (i32, i32, i32, String, bool, Option<f64>, i32);
        let choices: Vec<ChoiceRow> = self
            .fetch_all(
                &Query::select()
                    .column((SnapshotChoices::Table, SnapshotChoices::Position))
                    .column((SnapshotChoices::Table, SnapshotChoices::ChoicePosition))
                    .column((SnapshotChoices::Table, SnapshotChoices::ChoiceOrder))
                    .column((Choices::Table, Choices::Text))
                    .column((Choices::Table, Choices::IsCorrect))
                    .column((Choices::Table, Choices::MappedValue))
                    .column((Choices::Table, Choices::PartNumber))
                    .from(SnapshotChoices::Table)
                    .inner_join(
                        SnapshotQuestions::Table,
                        Expr::col((SnapshotQuestions::Table, SnapshotQuestions::SnapshotId))
                            .equals((SnapshotChoices::Table, SnapshotChoices::SnapshotId))
                            .and(
                                Expr::col((SnapshotQuestions::Table, SnapshotQuestions::Position))
                                    .equals((SnapshotChoices::Table, SnapshotChoices::Position)),
                            ),
                    )
                    .inner_join(
                        Choices::Table,
                        Expr::col((Choices::Table, Choices::QuestionId))
                            .equals((SnapshotQuestions::Table, SnapshotQuestions::QuestionId))
                            .and(
                                Expr::col((Choices::Table, Choices::ChoiceOrder))
                                    .equals((SnapshotChoices::Table, SnapshotChoices::ChoiceOrder)),
                            ),
                    )
                    .and_where(
                        Expr::col((SnapshotChoices::Table, SnapshotChoices::CustomerId))
                            .eq(area.id()),
                    )
                    .and_where(
                        Expr::col((SnapshotChoices::Table, SnapshotChoices::SnapshotId)).eq(id),
                    )
                    .order_by(
                        (SnapshotChoices::Table, SnapshotChoices::Position),
                        Order::Asc,
                    )
                    .order_by(
                        (SnapshotChoices::Table, SnapshotChoices::ChoicePosition),
                        Order::Asc,
                    )
                    .to_owned(),
            )
            .await?;
        let mut questions = Vec::with_capacity(rows.len());
        for row in rows {
            let (question_id, kind, max_score, topic_id, path, rule, default, lower, upper) = (
                row.0, row.1, row.2, row.3, row.4, row.5, row.6, row.7, row.8,
            );
            let (markup, position, max_choices) = (row.9, row.10, row.11);
            let picture = picture_of(row.12, row.13);
            let kind = kind_of(&kind)?;
            let choices = choices
                .iter()
                .filter(|choice| choice.0 == position)
                .map(
                    |(_, order, question_choice, text, correct, mapped_value, part)| {
                        SnapshotChoice {
                            order: *order,
                            question_choice: *question_choice,
                            text: text.clone(),
                            correct: *correct,
                            mapped_value: *mapped_value,
                            part: *part,
                        }
                    },
                )
                .collect();
            let question = SnapshotQuestion {
                order: position,
                question_id,
                kind,
                max_score,
                topic: topic_of(topic_id, path),
                choices,
                rule: rule_of(&rule, default, lower, upper)?,
                text_keys: self.text_keys(area, kind, question_id).await?,
                parts: self.parts(area, kind, question_id).await?,
                max_choices,
                picture,
            };
            questions.push((question, markup));
        }
        Ok(Some(SnapshotPaper {
            id,
            name,
            assessment,
            language,
            questions,
        }))
    }
}

/// A snapshot's own row, as a PATCH compares a body with it.
#[derive(Debug, Clone)]
pub struct StoredSnapshot {
    pub id: i32,
    pub assessment_id: i64,
    pub name: Option<String>,
    pub language: Option<String>,
    pub created_at: i64,
    pub modified_at: i64,
    pub expires_at: Option<i64>,
}

type SnapshotRow = (
    i32,
    i64,
    Option<String>,
    Option<String>,
    i64,
    i64,
    Option<i64>,
);

impl Store {
    pub async fn snapshot(
        &self,
        area: CustomerArea,
        id: i32,
    ) -> Result<Option<StoredSnapshot>, StoreError> {
        let row: Option<SnapshotRow> = self
            .fetch_optional(
                &Query::select()
                    .columns([
                        AssessmentSnapshots::Id,
                        AssessmentSnapshots::AssessmentId,
                        AssessmentSnapshots::Name,
                        AssessmentSnapshots::Language,
                        AssessmentSnapshots::CreatedAt,
                        AssessmentSnapshots::ModifiedAt,
                        AssessmentSnapshots::ExpiresAt,
                    ])
                    .from(AssessmentSnapshots::Table)
                    .and_where(Expr::col(AssessmentSnapshots::CustomerId).eq(area.id()))
                    .and_where(Expr::col(AssessmentSnapshots::Id).eq(id))
                    .to_owned(),
            )
            .await?;
        Ok(row.map(
            |(id, assessment_id, name, language, created_at, modified_at, expires_at)| {
                StoredSnapshot {
                    id,
                    assessment_id,
                    name,
                    language,
                    created_at,
                    modified_at,
                    expires_at,
                }
            },
        ))
    }
}
