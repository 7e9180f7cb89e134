//! Assessment snapshots: what an assessment's content is when a snapshot is taken,
//! and the snapshot written once with everything it fixes (migration 11).

use sea_query::{Expr, Order, Query};

use super::schema::{
    AssessmentQuestions, AssessmentSnapshots, Assessments, Choices, Questions, SnapshotChoices,
    SnapshotQuestions, TextKeys, Topics,
};
use super::{Store, StoreError, Tx};
use crate::model::area::CustomerArea;
use crate::model::question_kind::QuestionKind;
use crate::model::result_scores::Topic;
use crate::model::scoring_rule::{ScoringRule, TextKey};
use crate::model::snapshot::{
    SnapshotChoice, SnapshotPaper, SnapshotQuestion, SourceChoice, SourceQuestion,
};

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
/// lower, map upper, shuffle)` of an assessment's question.
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
        for (question_id, kind, max_score, topic_id, path, rule, default, lower, upper, shuffle) in
            rows
        {
            let kind = kind_of(&kind)?;
            let choices: Vec<(i32, String, bool, Option<f64>, bool)> = self
                .fetch_all(
                    &Query::select()
                        .columns([
                            Choices::ChoiceOrder,
                            Choices::Text,
                            Choices::IsCorrect,
                            Choices::MappedValue,
                            Choices::Fixed,
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
                    .map(|(order, text, correct, mapped_value, fixed)| SourceChoice {
                        order,
                        text,
                        correct,
                        mapped_value,
                        fixed,
                    })
                    .collect(),
                rule: rule_of(&rule, default, lower, upper)?,
                text_keys: self.text_keys(area, kind, question_id).await?,
            });
        }
        Ok(Some(SnapshotSource {
            language,
            questions,
        }))
    }
}

/// `(question ID, type, max score, topic ID, topic path, rule, map default, map
/// lower, map upper, markup, position)`.
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
);

/// A question's ID, type, maximum score, topic ID, topic path and scoring rule
/// (name, map default, lower, upper), joined from the `question` column of `from`;
/// callers add their own columns after these.
fn question_columns(
    from: impl sea_query::Iden + Copy + 'static,
    question: impl sea_query::Iden + Copy + 'static,
) -> sea_query::SelectStatement {
    Query::select()
        .column((Questions::Table, Questions::Id))
        .column((Questions::Table, Questions::QuestionType))
        .column((Questions::Table, Questions::MaxScore))
        .column((Topics::Table, Topics::Id))
        .column((Topics::Table, Topics::Path))
        .column((Questions::Table, Questions::ScoringRule))
        .column((Questions::Table, Questions::MapDefault))
        .column((Questions::Table, Questions::MapLower))
        .column((Questions::Table, Questions::MapUpper))
        .from(from)
        .inner_join(
            Questions::Table,
            Expr::col((Questions::Table, Questions::Id)).equals((from, question)),
        )
        .left_join(
            Topics::Table,
            Expr::col((Topics::Table, Topics::Id)).equals((Questions::Table, Questions::TopicId)),
        )
        .to_owned()
}

fn kind_of(kind: &str) -> Result<QuestionKind, StoreError> {
    QuestionKind::parse(kind).ok_or_else(|| StoreError::Corrupt(format!("question type '{kind}'")))
}

fn rule_of(
    name: &str,
    default: Option<f64>,
    lower: Option<f64>,
    upper: Option<f64>,
) -> Result<ScoringRule, StoreError> {
    ScoringRule::from_columns(name, default, lower, upper)
        .ok_or_else(|| StoreError::Corrupt(format!("scoring rule '{name}'")))
}

impl Store {
    /// A text-entry question's accepted answers, in order (none for other kinds).
    async fn text_keys(
        &self,
        area: CustomerArea,
        kind: QuestionKind,
        question_id: i64,
    ) -> Result<Vec<TextKey>, StoreError> {
        if kind != QuestionKind::TextEntry {
            return Ok(Vec::new());
        }
        let rows: Vec<(String, bool, Option<f64>)> = self
            .fetch_all(
                &Query::select()
                    .columns([TextKeys::Text, TextKeys::CaseSensitive, TextKeys::MappedValue])
                    .from(TextKeys::Table)
                    .and_where(Expr::col(TextKeys::CustomerId).eq(area.id()))
                    .and_where(Expr::col(TextKeys::QuestionId).eq(question_id))
                    .order_by(TextKeys::KeyOrder, Order::Asc)
                    .to_owned(),
            )
            .await?;
        Ok(rows
            .into_iter()
            .map(|(text, case_sensitive, mapped_value)| TextKey {
                text,
                case_sensitive,
                mapped_value,
            })
            .collect())
    }
}

fn topic_of(id: Option<i32>, path: Option<String>) -> Option<Topic> {
    id.map(|id| Topic {
        id,
        path: path.unwrap_or_default(),
    })
}

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
        // (position, choice position, the question's own order, text, correct, value)
        let choices: Vec<(i32, i32, i32, String, bool, Option<f64>)> = self
            .fetch_all(
                &Query::select()
                    .column((SnapshotChoices::Table, SnapshotChoices::Position))
                    .column((SnapshotChoices::Table, SnapshotChoices::ChoicePosition))
                    .column((SnapshotChoices::Table, SnapshotChoices::ChoiceOrder))
                    .column((Choices::Table, Choices::Text))
                    .column((Choices::Table, Choices::IsCorrect))
                    .column((Choices::Table, Choices::MappedValue))
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
            let (markup, position) = (row.9, row.10);
            let kind = kind_of(&kind)?;
            let choices = choices
                .iter()
                .filter(|choice| choice.0 == position)
                .map(
                    |(_, order, question_choice, text, correct, mapped_value)| SnapshotChoice {
                        order: *order,
                        question_choice: *question_choice,
                        text: text.clone(),
                        correct: *correct,
                        mapped_value: *mapped_value,
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
