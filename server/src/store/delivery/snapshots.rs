//! Assessment snapshots: what an assessment's content is when a snapshot is taken,
//! and the snapshot written once with everything it fixes (migration 11). Reading a
//! snapshot back is `snapshot_reads`.

use sea_query::{Expr, Order, Query};

use crate::model::area::CustomerArea;
use crate::model::snapshot::{SnapshotQuestion, SourceChoice, SourceQuestion};
use crate::store::content::question_rows::{
    kind_of, picture_of, question_columns, rule_of, topic_of,
};
use crate::store::schema::{
    AssessmentQuestions, AssessmentSnapshots, Assessments, Choices, Questions, SnapshotChoices,
    SnapshotQuestions,
};
use crate::store::{Store, StoreError, Tx};

/// An assessment's content, in its order, as a snapshot starts from.
#[derive(Debug, Clone)]
pub struct SnapshotSource {
    pub language: Option<String>,
    pub questions: Vec<SourceQuestion>,
}

/// A snapshot's own values, as created.
pub struct NewSnapshot<'a> {
    pub assessment_id: i64,
    pub name: Option<&'a str>,
    pub language: Option<&'a str>,
    pub expires_at: Option<i64>,
    pub at: i64,
}

/// `(question ID, type, max score, topic ID, topic path, rule, map default, map
/// lower, map upper, shuffle, template, most choices, picture width, picture
/// height)` of an assessment's question.
type QuestionRow = (
    i64,
    String,
    i32,
    Option<i32>,
    Option<String>,
    String,
    Option<f64>,
    Option<f64>,
    Option<f64>,
    bool,
    Option<String>,
    Option<i32>,
    Option<f64>,
    Option<f64>,
);

impl Store {
    /// The content of assessment `assessment_id` in `area`; `None` when there is no
    /// such assessment there.
    pub async fn snapshot_source(
        &self,
        area: CustomerArea,
        assessment_id: i64,
    ) -> Result<Option<SnapshotSource>, StoreError> {
        let assessment: Option<(Option<String>,)> = self
            .fetch_optional(
                &Query::select()
                    .column(Assessments::Language)
                    .from(Assessments::Table)
                    .and_where(Expr::col(Assessments::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Assessments::Id).eq(assessment_id))
                    .to_owned(),
            )
            .await?;
        let Some((language,)) = assessment else {
            return Ok(None);
        };
        let rows: Vec<QuestionRow> = self
            .fetch_all(
                &question_columns(AssessmentQuestions::Table, AssessmentQuestions::QuestionId)
                    .column((Questions::Table, Questions::ShuffleChoices))
                    .column((Questions::Table, Questions::TemplateXml))
                    .column((Questions::Table, Questions::MaxChoices))
                    .column((Questions::Table, Questions::PictureWidth))
                    .column((Questions::Table, Questions::PictureHeight))
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
        let mut questions = Vec::with_capacity(rows.len());
        for (
            question_id,
            kind,
            max_score,
            topic_id,
            path,
            rule,
            default,
            lower,
            upper,
            shuffle,
            template,
            max_choices,
            picture_width,
            picture_height,
        ) in rows
        {
            let kind = kind_of(&kind)?;
            let choices: Vec<(i32, String, bool, Option<f64>, bool, i32)> = self
                .fetch_all(
                    &Query::select()
                        .columns([
                            Choices::ChoiceOrder,
                            Choices::Text,
                            Choices::IsCorrect,
                            Choices::MappedValue,
                            Choices::Fixed,
                            Choices::PartNumber,
                        ])
                        .from(Choices::Table)
                        .and_where(Expr::col(Choices::CustomerId).eq(area.id()))
                        .and_where(Expr::col(Choices::QuestionId).eq(question_id))
                        .order_by(Choices::ChoiceOrder, Order::Asc)
                        .to_owned(),
                )
                .await?;
            questions.push(SourceQuestion {
                question_id,
                kind,
                max_score,
                topic: topic_of(topic_id, path),
                shuffle_choices: shuffle,
                choices: choices
                    .into_iter()
                    .map(
                        |(order, text, correct, mapped_value, fixed, part)| SourceChoice {
                            order,
                            text,
                            correct,
                            mapped_value,
                            fixed,
                            part,
                        },
                    )
                    .collect(),
                rule: rule_of(&rule, default, lower, upper)?,
                text_keys: self.text_keys(area, kind, question_id).await?,
                parts: self.parts(area, kind, question_id).await?,
                template,
                max_choices,
                picture: picture_of(picture_width, picture_height),
            });
        }
        Ok(Some(SnapshotSource {
            language,
            questions,
        }))
    }
}

impl Tx {
    /// Changes a snapshot's `Name` and `ExpiresDateTime` (each only when given).
    pub async fn update_snapshot(
        &mut self,
        area: CustomerArea,
        id: i32,
        name: Option<Option<&str>>,
        expires_at: Option<Option<i64>>,
        at: i64,
    ) -> Result<u64, StoreError> {
        let mut update = Query::update();
        update
            .table(AssessmentSnapshots::Table)
            .value(AssessmentSnapshots::ModifiedAt, at)
            .and_where(Expr::col(AssessmentSnapshots::CustomerId).eq(area.id()))
            .and_where(Expr::col(AssessmentSnapshots::Id).eq(id));
        if let Some(name) = name {
            update.value(AssessmentSnapshots::Name, name);
        }
        if let Some(expires_at) = expires_at {
            update.value(AssessmentSnapshots::ExpiresAt, expires_at);
        }
        self.execute(&update.to_owned()).await
    }

    /// A new snapshot's row; its document and contents follow with
    /// [`Tx::complete_snapshot`], in the same transaction (its ID is their seed).
    pub async fn insert_snapshot(
        &mut self,
        area: CustomerArea,
        snapshot: &NewSnapshot<'_>,
    ) -> Result<i32, StoreError> {
        self.fetch_scalar(
            &Query::insert()
                .into_table(AssessmentSnapshots::Table)
                .columns([
                    AssessmentSnapshots::CustomerId,
                    AssessmentSnapshots::AssessmentId,
                    AssessmentSnapshots::Name,
                    AssessmentSnapshots::Language,
                    AssessmentSnapshots::CreatedAt,
                    AssessmentSnapshots::ModifiedAt,
                    AssessmentSnapshots::ExpiresAt,
                    AssessmentSnapshots::DataXml,
                ])
                .values_panic([
                    area.id().into(),
                    snapshot.assessment_id.into(),
                    snapshot.name.into(),
                    snapshot.language.into(),
                    snapshot.at.into(),
                    snapshot.at.into(),
                    snapshot.expires_at.into(),
                    "".into(),
                ])
                .returning_col(AssessmentSnapshots::Id)
                .to_owned(),
        )
        .await
    }

    /// Stores what snapshot `id` fixes: its document, its questions in order and
    /// their choices in its order.
    pub async fn complete_snapshot(
        &mut self,
        area: CustomerArea,
        id: i32,
        document: &str,
        questions: &[SnapshotQuestion],
    ) -> Result<(), StoreError> {
        self.execute(
            &Query::update()
                .table(AssessmentSnapshots::Table)
                .value(AssessmentSnapshots::DataXml, document)
                .and_where(Expr::col(AssessmentSnapshots::CustomerId).eq(area.id()))
                .and_where(Expr::col(AssessmentSnapshots::Id).eq(id))
                .to_owned(),
        )
        .await?;
        for question in questions {
            self.execute(
                &Query::insert()
                    .into_table(SnapshotQuestions::Table)
                    .columns([
                        SnapshotQuestions::CustomerId,
                        SnapshotQuestions::SnapshotId,
                        SnapshotQuestions::Position,
                        SnapshotQuestions::QuestionId,
                    ])
                    .values_panic([
                        area.id().into(),
                        id.into(),
                        question.order.into(),
                        question.question_id.into(),
                    ])
                    .to_owned(),
            )
            .await?;
            if question.choices.is_empty() {
                continue;
            }
            let mut insert = Query::insert()
                .into_table(SnapshotChoices::Table)
                .columns([
                    SnapshotChoices::CustomerId,
                    SnapshotChoices::SnapshotId,
                    SnapshotChoices::Position,
                    SnapshotChoices::ChoicePosition,
                    SnapshotChoices::ChoiceOrder,
                ])
                .to_owned();
            for choice in &question.choices {
                insert.values_panic([
                    area.id().into(),
                    id.into(),
                    question.order.into(),
                    choice.order.into(),
                    choice.question_choice.into(),
                ]);
            }
            self.execute(&insert).await?;
        }
        Ok(())
    }
}
