//! The comment bank's rows (`BankedComments`, our extension feed): the one a URL
//! addresses, the dimensions a comment may name, and the writes, each in the
//! transaction it is given.

use sea_query::{Expr, Iden, Query};

use crate::model::area::CustomerArea;
use crate::store::read::{plan, Scope};
use crate::store::schema::{BankedComments, Dimensions, Questions, Rubrics};
use crate::store::{now_millis, ConditionalUpdate, Store, StoreError, Tx};

/// A banked comment as stored.
#[derive(Debug, Clone)]
pub struct StoredBankedComment {
    pub id: i32,
    pub question_id: i64,
    pub dimension_order: Option<i32>,
    pub text: String,
    pub created_by: String,
    pub created_at: i64,
    /// The concurrency token: `ModifiedDateTime`.
    pub modified_at: i64,
}

/// A comment to add to the bank, checked.
pub struct NewBankedComment<'a> {
    pub question_id: i64,
    pub dimension_order: Option<i32>,
    pub text: &'a str,
    pub created_by: &'a str,
}

/// A table whose rows carry a `ModifiedDateTime` revision, by its columns.
#[derive(Debug, Clone, Copy)]
pub struct RevisedRow<T> {
    pub table: T,
    pub customer: T,
    pub id: T,
    pub modified_at: T,
}

/// What a conditional delete did.
#[derive(Debug, PartialEq, Eq)]
pub enum ConditionalDelete {
    Deleted,
    /// No such comment (any more).
    Missing,
    /// It was changed since the revision the client read.
    Stale,
}

impl Store {
    /// The banked comment `scope` addresses, if there is one.
    pub async fn banked_comment_at(
        &self,
        area: CustomerArea,
        scope: &Scope,
    ) -> Result<Option<StoredBankedComment>, StoreError> {
        type Row = (i32, i64, Option<i32>, String, String, i64, i64);
        let select = plan::first_row(
            scope,
            area,
            &[
                "id",
                "question_id",
                "dimension_order",
                "text",
                "created_by",
                "created_at",
                "modified_at",
            ],
        );
        let row: Option<Row> = self.fetch_optional(&select).await?;
        Ok(row.map(
            |(id, question_id, dimension_order, text, created_by, created_at, modified_at)| {
                StoredBankedComment {
                    id,
                    question_id,
                    dimension_order,
                    text,
                    created_by,
                    created_at,
                    modified_at,
                }
            },
        ))
    }

    /// Whether question `question_id` is in the area.
    pub async fn question_exists(
        &self,
        area: CustomerArea,
        question_id: i64,
    ) -> Result<bool, StoreError> {
        let found: Option<(i64,)> = self
            .fetch_optional(
                &Query::select()
                    .column(Questions::Id)
                    .from(Questions::Table)
                    .and_where(Expr::col(Questions::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Questions::Id).eq(question_id))
                    .to_owned(),
            )
            .await?;
        Ok(found.is_some())
    }

    /// The orders of the dimensions of the question's current rubric (none without one).
    pub async fn question_dimension_orders(
        &self,
        area: CustomerArea,
        question_id: i64,
    ) -> Result<Vec<i32>, StoreError> {
        let rows: Vec<(i32,)> = self
            .fetch_all(
                &Query::select()
                    .column((Dimensions::Table, Dimensions::DimensionOrder))
                    .from(Dimensions::Table)
                    .inner_join(
                        Rubrics::Table,
                        Expr::col((Rubrics::Table, Rubrics::Id))
                            .equals((Dimensions::Table, Dimensions::RubricId)),
                    )
                    .and_where(Expr::col((Rubrics::Table, Rubrics::CustomerId)).eq(area.id()))
                    .and_where(Expr::col((Rubrics::Table, Rubrics::QuestionId)).eq(question_id))
                    .and_where(Expr::col((Rubrics::Table, Rubrics::ReplacedAt)).is_null())
                    .order_by(
                        (Dimensions::Table, Dimensions::DimensionOrder),
                        sea_query::Order::Asc,
                    )
                    .to_owned(),
            )
            .await?;
        Ok(rows.into_iter().map(|(order,)| order).collect())
    }
}

impl Tx {
    /// Adds a comment to the bank; returns its ID.
    pub async fn insert_banked_comment(
        &mut self,
        area: CustomerArea,
        comment: NewBankedComment<'_>,
    ) -> Result<i32, StoreError> {
        let now = now_millis();
        self.fetch_scalar(
            &Query::insert()
                .into_table(BankedComments::Table)
                .columns([
                    BankedComments::CustomerId,
                    BankedComments::QuestionId,
                    BankedComments::DimensionOrder,
                    BankedComments::Text,
                    BankedComments::CreatedBy,
                    BankedComments::CreatedAt,
                    BankedComments::ModifiedAt,
                ])
                .values_panic([
                    area.id().into(),
                    comment.question_id.into(),
                    comment.dimension_order.into(),
                    comment.text.into(),
                    comment.created_by.into(),
                    now.into(),
                    now.into(),
                ])
                .returning_col(BankedComments::Id)
                .to_owned(),
        )
        .await
    }

    /// Rewrites a banked comment if its `ModifiedDateTime` is still
    /// `expected_modified_at` (one statement: of concurrent editors, one wins).
    pub async fn update_banked_comment(
        &mut self,
        area: CustomerArea,
        id: i32,
        expected_modified_at: i64,
        text: &str,
        dimension_order: Option<i32>,
    ) -> Result<ConditionalUpdate, StoreError> {
        let modified_at = now_millis().max(expected_modified_at + 1);
        let written = self
            .execute(
                &Query::update()
                    .table(BankedComments::Table)
                    .values([
                        (BankedComments::Text, text.into()),
                        (BankedComments::DimensionOrder, dimension_order.into()),
                        (BankedComments::ModifiedAt, modified_at.into()),
                    ])
                    .and_where(Expr::col(BankedComments::CustomerId).eq(area.id()))
                    .and_where(Expr::col(BankedComments::Id).eq(id))
                    .and_where(Expr::col(BankedComments::ModifiedAt).eq(expected_modified_at))
                    .to_owned(),
            )
            .await?;
        Ok(if written == 1 {
            ConditionalUpdate::Written { modified_at }
        } else {
            ConditionalUpdate::Stale
        })
    }

    /// Deletes a banked comment; with `expected_modified_at`, only that revision.
    pub async fn delete_banked_comment(
        &mut self,
        area: CustomerArea,
        id: i32,
        expected_modified_at: Option<i64>,
    ) -> Result<ConditionalDelete, StoreError> {
        let row = RevisedRow {
            table: BankedComments::Table,
            customer: BankedComments::CustomerId,
            id: BankedComments::Id,
            modified_at: BankedComments::ModifiedAt,
        };
        self.delete_revision(row, area, id, expected_modified_at)
            .await
    }

    /// Deletes row `id` of `row`'s table in the area; with
    /// `expected_modified_at`, only that revision (one statement: of two
    /// writers, one wins), and tells a row gone from a row changed.
    pub async fn delete_revision<T: Iden + Copy + 'static>(
        &mut self,
        row: RevisedRow<T>,
        area: CustomerArea,
        id: i32,
        expected_modified_at: Option<i64>,
    ) -> Result<ConditionalDelete, StoreError> {
        let mut delete = Query::delete()
            .from_table(row.table)
            .and_where(Expr::col(row.customer).eq(area.id()))
            .and_where(Expr::col(row.id).eq(id))
            .to_owned();
        if let Some(expected) = expected_modified_at {
            delete.and_where(Expr::col(row.modified_at).eq(expected));
        }
        if self.execute(&delete).await? == 1 {
            return Ok(ConditionalDelete::Deleted);
        }
        let still: Option<(i32,)> = self
            .fetch_optional(
                &Query::select()
                    .column(row.id)
                    .from(row.table)
                    .and_where(Expr::col(row.customer).eq(area.id()))
                    .and_where(Expr::col(row.id).eq(id))
                    .to_owned(),
            )
            .await?;
        Ok(match still {
            Some(_) => ConditionalDelete::Stale,
            None => ConditionalDelete::Missing,
        })
    }
}
