//! Annotations' rows (`Annotations`, our extension): the one a URL addresses,
//! the answer block one is placed on, and the writes, each in the transaction
//! it is given.

use sea_query::{Expr, Query};

use crate::model::annotations::CheckedAnnotation;
use crate::model::area::CustomerArea;
use crate::model::scoring::TaskKey;
use crate::store::read::{plan, Scope};
use crate::store::schema::{Annotations, Answers};
use crate::store::{
    now_millis, ConditionalDelete, ConditionalUpdate, RevisedRow, Store, StoreError, Tx,
};

/// One answer block of a task: what an annotation is placed on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnswerBlock {
    pub task: TaskKey,
    pub occurrence: i16,
    pub block_number: i16,
}

/// An annotation as stored.
#[derive(Debug, Clone)]
pub struct StoredAnnotation {
    pub id: i32,
    pub block: AnswerBlock,
    pub kind: String,
    pub points: Option<String>,
    pub text_start: Option<i32>,
    pub text_end: Option<i32>,
    pub note: Option<String>,
    pub marked_by: String,
    pub created_at: i64,
    /// The concurrency token: `ModifiedDateTime`.
    pub modified_at: i64,
}

type Row = (
    i32,
    i64,
    i32,
    i16,
    i16,
    String,
    Option<String>,
    Option<i32>,
    Option<i32>,
    Option<String>,
    String,
    i64,
    i64,
);

const COLUMNS: [&str; 13] = [
    "id",
    "question_id",
    "result_id",
    "occurrence",
    "block_number",
    "kind",
    "points",
    "text_start",
    "text_end",
    "note",
    "marked_by",
    "created_at",
    "modified_at",
];

impl Store {
    /// The annotation `scope` addresses (the reader's own, for a scorer), if any.
    pub async fn annotation_at(
        &self,
        area: CustomerArea,
        scope: &Scope,
    ) -> Result<Option<StoredAnnotation>, StoreError> {
        let row: Option<Row> = self
            .fetch_optional(&plan::first_row(scope, area, &COLUMNS))
            .await?;
        Ok(row.map(
            |(
                id,
                question_id,
                result_id,
                occurrence,
                block_number,
                kind,
                points,
                start,
                end,
                note,
                marked_by,
                created_at,
                modified_at,
            )| {
                StoredAnnotation {
                    id,
                    block: AnswerBlock {
                        task: TaskKey {
                            question_id,
                            result_id,
                        },
                        occurrence,
                        block_number,
                    },
                    kind,
                    points,
                    text_start: start,
                    text_end: end,
                    note,
                    marked_by,
                    created_at,
                    modified_at,
                }
            },
        ))
    }
}

impl Tx {
    /// The media type and content of an answer block of the area, if it exists.
    pub async fn answer_block(
        &mut self,
        area: CustomerArea,
        block: AnswerBlock,
    ) -> Result<Option<(String, Vec<u8>)>, StoreError> {
        self.fetch_optional(
            &Query::select()
                .columns([Answers::MediaType, Answers::Content])
                .from(Answers::Table)
                .and_where(Expr::col(Answers::CustomerId).eq(area.id()))
                .and_where(Expr::col(Answers::ResultId).eq(block.task.result_id))
                .and_where(Expr::col(Answers::QuestionId).eq(block.task.question_id))
                .and_where(Expr::col(Answers::Occurrence).eq(block.occurrence))
                .and_where(Expr::col(Answers::BlockNumber).eq(block.block_number))
                .to_owned(),
        )
        .await
    }

    /// How many annotations `marked_by` has placed on `task`.
    pub async fn annotations_placed(
        &mut self,
        area: CustomerArea,
        task: TaskKey,
        marked_by: &str,
    ) -> Result<i64, StoreError> {
        self.fetch_scalar(
            &Query::select()
                .expr(Expr::col(Annotations::Id).count())
                .from(Annotations::Table)
                .and_where(Expr::col(Annotations::CustomerId).eq(area.id()))
                .and_where(Expr::col(Annotations::ResultId).eq(task.result_id))
                .and_where(Expr::col(Annotations::QuestionId).eq(task.question_id))
                .and_where(Expr::col(Annotations::MarkedBy).eq(marked_by))
                .to_owned(),
        )
        .await
    }

    /// Places an annotation; returns its ID.
    pub async fn insert_annotation(
        &mut self,
        area: CustomerArea,
        block: AnswerBlock,
        annotation: &CheckedAnnotation,
        marked_by: &str,
    ) -> Result<i32, StoreError> {
        let now = now_millis();
        let (start, end) = annotation.range().unzip();
        self.fetch_scalar(
            &Query::insert()
                .into_table(Annotations::Table)
                .columns([
                    Annotations::CustomerId,
                    Annotations::QuestionId,
                    Annotations::ResultId,
                    Annotations::Occurrence,
                    Annotations::BlockNumber,
                    Annotations::Kind,
                    Annotations::Points,
                    Annotations::TextStart,
                    Annotations::TextEnd,
                    Annotations::Note,
                    Annotations::MarkedBy,
                    Annotations::CreatedAt,
                    Annotations::ModifiedAt,
                ])
                .values_panic([
                    area.id().into(),
                    block.task.question_id.into(),
                    block.task.result_id.into(),
                    block.occurrence.into(),
                    block.block_number.into(),
                    annotation.kind.as_str().into(),
                    annotation.points_text().into(),
                    start.into(),
                    end.into(),
                    annotation.text.clone().into(),
                    marked_by.into(),
                    now.into(),
                    now.into(),
                ])
                .returning_col(Annotations::Id)
                .to_owned(),
        )
        .await
    }

    /// Moves or rewrites an annotation if its `ModifiedDateTime` is still
    /// `expected_modified_at` (one statement: of two writers, one wins).
    pub async fn update_annotation(
        &mut self,
        area: CustomerArea,
        id: i32,
        expected_modified_at: i64,
        annotation: &CheckedAnnotation,
    ) -> Result<ConditionalUpdate, StoreError> {
        let modified_at = now_millis().max(expected_modified_at + 1);
        let (start, end) = annotation.range().unzip();
        let written = self
            .execute(
                &Query::update()
                    .table(Annotations::Table)
                    .values([
                        (Annotations::Points, annotation.points_text().into()),
                        (Annotations::TextStart, start.into()),
                        (Annotations::TextEnd, end.into()),
                        (Annotations::Note, annotation.text.clone().into()),
                        (Annotations::ModifiedAt, modified_at.into()),
                    ])
                    .and_where(Expr::col(Annotations::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Annotations::Id).eq(id))
                    .and_where(Expr::col(Annotations::ModifiedAt).eq(expected_modified_at))
                    .to_owned(),
            )
            .await?;
        Ok(if written == 1 {
            ConditionalUpdate::Written { modified_at }
        } else {
            ConditionalUpdate::Stale
        })
    }

    /// Removes an annotation; with `expected_modified_at`, only that revision.
    pub async fn delete_annotation(
        &mut self,
        area: CustomerArea,
        id: i32,
        expected_modified_at: Option<i64>,
    ) -> Result<ConditionalDelete, StoreError> {
        let row = RevisedRow {
            table: Annotations::Table,
            customer: Annotations::CustomerId,
            id: Annotations::Id,
            modified_at: Annotations::ModifiedAt,
        };
        self.delete_revision(row, area, id, expected_modified_at)
            .await
    }
}
