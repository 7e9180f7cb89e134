//! The rows an import writes, many questions to a statement: the questions with
//! what they keep beside them, their choices, keys, parts and pairs, and the
//! assessment's list (where each came from: `import_sources.rs`). A package of 500 questions was about
//! 4,000 statements, one round trip each, most of an import's time on PostgreSQL
//! (docs/benchmarks.md, "Imports in batches"); it is now a few dozen.

use sea_query::{Iden, IntoIden, Query, SimpleExpr};

use super::seed_writes::catalogue::QUESTION_COLUMNS;
use crate::model::area::CustomerArea;
use crate::model::content::PlannedQuestion;
use crate::store::schema::{
    AssessmentQuestions, Choices, PairKeys, QuestionParts, Questions, TextKeys,
};
use crate::store::{StoreError, Tx};

/// Rows a multi-row insert takes: with the widest of these rows (nine columns),
/// 4,500 bound values, well under SQLite's 32,766 and PostgreSQL's 65,535.
pub(super) const ROWS: usize = 500;
/// Questions a statement takes: fewer, since each carries its markup (images
/// inline, a megabyte or more) and perhaps its template.
const QUESTION_ROWS: usize = 50;

/// A question to write: its new ID and revision, its topic, what it is.
pub(super) struct QuestionRow<'a> {
    pub id: i64,
    pub revision: i32,
    pub topic: Option<i32>,
    pub question: &'a PlannedQuestion,
}

impl Tx {
    /// `rows` into `table`'s `columns`, `per` rows a statement.
    pub(super) async fn insert_many<const N: usize>(
        &mut self,
        table: impl Iden + 'static,
        columns: [impl IntoIden + Clone; N],
        rows: Vec<[SimpleExpr; N]>,
        per: usize,
    ) -> Result<(), StoreError> {
        let table = table.into_iden();
        for chunk in rows.chunks(per) {
            let mut insert = Query::insert();
            insert.into_table(table.clone()).columns(columns.clone());
            for row in chunk {
                insert.values_panic(row.clone());
            }
            self.execute(&insert).await?;
        }
        Ok(())
    }

    /// Assessment `id`'s questions, in `questions`' order.
    pub(super) async fn list_questions(
        &mut self,
        area: CustomerArea,
        id: i64,
        questions: impl Iterator<Item = i64>,
    ) -> Result<(), StoreError> {
        let rows = questions
            .enumerate()
            .map(|(index, question)| {
                [
                    area.id().into(),
                    id.into(),
                    (index as i32 + 1).into(),
                    question.into(),
                ]
            })
            .collect();
        self.insert_many(
            AssessmentQuestions::Table,
            [
                AssessmentQuestions::CustomerId,
                AssessmentQuestions::AssessmentId,
                AssessmentQuestions::Position,
                AssessmentQuestions::QuestionId,
            ],
            rows,
            ROWS,
        )
        .await
    }

    /// `rows`, new, with their choices, keys, parts and pairs, and what each keeps
    /// beside them (a template, its most choices, its picture).
    pub(super) async fn insert_imported_questions(
        &mut self,
        area: CustomerArea,
        rows: &[QuestionRow<'_>],
        at: i64,
    ) -> Result<(), StoreError> {
        let questions = rows
            .iter()
            .map(|row| question_values(area, row, at))
            .collect();
        self.insert_many(
            Questions::Table,
            imported_question_columns(),
            questions,
            QUESTION_ROWS,
        )
        .await?;
        let choices = rows
            .iter()
            .flat_map(|row| {
                row.question.choices.iter().map(|choice| {
                    [
                        area.id().into(),
                        row.id.into(),
                        choice.order.into(),
                        choice.text.as_str().into(),
                        choice.correct.into(),
                        choice.mapped_value.into(),
                        choice.fixed.into(),
                        choice.part.into(),
                    ]
                })
            })
            .collect();
        self.insert_many(
            Choices::Table,
            [
                Choices::CustomerId,
                Choices::QuestionId,
                Choices::ChoiceOrder,
                Choices::Text,
                Choices::IsCorrect,
                Choices::MappedValue,
                Choices::Fixed,
                Choices::PartNumber,
            ],
            choices,
            ROWS,
        )
        .await?;
        let keys = rows
            .iter()
            .flat_map(|row| {
                row.question
                    .text_keys
                    .iter()
                    .enumerate()
                    .map(|(order, key)| {
                        [
                            area.id().into(),
                            row.id.into(),
                            (order as i32 + 1).into(),
                            key.text.as_str().into(),
                            key.case_sensitive.into(),
                            key.mapped_value.into(),
                            key.numeric.map(|range| range.low).into(),
                            key.numeric.map(|range| range.high).into(),
                            key.part.into(),
                        ]
                    })
            })
            .collect();
        self.insert_many(
            TextKeys::Table,
            [
                TextKeys::CustomerId,
                TextKeys::QuestionId,
                TextKeys::KeyOrder,
                TextKeys::Text,
                TextKeys::CaseSensitive,
                TextKeys::MappedValue,
                TextKeys::NumericLow,
                TextKeys::NumericHigh,
                TextKeys::PartNumber,
            ],
            keys,
            ROWS,
        )
        .await?;
        self.insert_parts(area, rows).await
    }

    /// The matchings' parts and pairs, the blanks' texts of `rows`.
    async fn insert_parts(
        &mut self,
        area: CustomerArea,
        rows: &[QuestionRow<'_>],
    ) -> Result<(), StoreError> {
        let texts = rows
            .iter()
            .flat_map(|row| {
                row.question
                    .parts
                    .texts
                    .iter()
                    .enumerate()
                    .map(|(index, text)| {
                        [
                            area.id().into(),
                            row.id.into(),
                            (index as i32 + 1).into(),
                            text.as_str().into(),
                        ]
                    })
            })
            .collect();
        self.insert_many(
            QuestionParts::Table,
            [
                QuestionParts::CustomerId,
                QuestionParts::QuestionId,
                QuestionParts::PartNumber,
                QuestionParts::Text,
            ],
            texts,
            ROWS,
        )
        .await?;
        let pairs = rows
            .iter()
            .flat_map(|row| {
                row.question.parts.keys.iter().map(|key| {
                    [
                        area.id().into(),
                        row.id.into(),
                        key.part.into(),
                        key.choice.into(),
                        key.correct.into(),
                        key.mapped_value.into(),
                    ]
                })
            })
            .collect();
        self.insert_many(
            PairKeys::Table,
            [
                PairKeys::CustomerId,
                PairKeys::QuestionId,
                PairKeys::PartNumber,
                PairKeys::ChoiceOrder,
                PairKeys::IsCorrect,
                PairKeys::MappedValue,
            ],
            pairs,
            ROWS,
        )
        .await
    }
}

/// The seeds' question columns and what an import keeps beside them.
fn imported_question_columns() -> [Questions; 20] {
    let mut columns = [Questions::Id; 20];
    columns[..16].copy_from_slice(&QUESTION_COLUMNS);
    columns[16..].copy_from_slice(&[
        Questions::TemplateXml,
        Questions::MaxChoices,
        Questions::PictureWidth,
        Questions::PictureHeight,
    ]);
    columns
}

/// A question's row, in `imported_question_columns`' order.
fn question_values(area: CustomerArea, row: &QuestionRow<'_>, at: i64) -> [SimpleExpr; 20] {
    let question = row.question;
    let (map_default, map_lower, map_upper) = question.rule.map_columns();
    [
        row.id.into(),
        area.id().into(),
        row.revision.into(),
        question.language.as_deref().into(),
        question.title.as_str().into(),
        question.kind.as_str().into(),
        question.max_score.into(),
        row.topic.into(),
        question.markup.as_str().into(),
        question.shuffle_choices.into(),
        question.rule.name().into(),
        map_default.into(),
        map_lower.into(),
        map_upper.into(),
        at.into(),
        at.into(),
        question.template.as_deref().into(),
        question.max_choices.into(),
        question.picture.map(|p| p.width).into(),
        question.picture.map(|p| p.height).into(),
    ]
}
