//! A matching's parts and the pairs that score it (`question_parts`,
//! `pair_keys`): read with the question wherever it is marked or shown, written
//! when it is imported (`import_rows.rs`).

use sea_query::{Expr, Order, Query};

use crate::model::area::CustomerArea;
use crate::model::matching::{PairKey, Parts};
use crate::model::question_kind::QuestionKind;
use crate::store::schema::{PairKeys, QuestionParts};
use crate::store::{Store, StoreError};

impl Store {
    /// A matching's parts and pairs, a fill-in-the-blanks question's blanks
    /// (empty for other kinds).
    pub(in crate::store) async fn parts(
        &self,
        area: CustomerArea,
        kind: QuestionKind,
        question_id: i64,
    ) -> Result<Parts, StoreError> {
        if !matches!(kind, QuestionKind::Matching | QuestionKind::FillIn) {
            return Ok(Parts::default());
        }
        let texts: Vec<(String,)> = self
            .fetch_all(
                &Query::select()
                    .column(QuestionParts::Text)
                    .from(QuestionParts::Table)
                    .and_where(Expr::col(QuestionParts::CustomerId).eq(area.id()))
                    .and_where(Expr::col(QuestionParts::QuestionId).eq(question_id))
                    .order_by(QuestionParts::PartNumber, Order::Asc)
                    .to_owned(),
            )
            .await?;
        let keys: Vec<(i32, i32, bool, Option<f64>)> = self
            .fetch_all(
                &Query::select()
                    .columns([
                        PairKeys::PartNumber,
                        PairKeys::ChoiceOrder,
                        PairKeys::IsCorrect,
                        PairKeys::MappedValue,
                    ])
                    .from(PairKeys::Table)
                    .and_where(Expr::col(PairKeys::CustomerId).eq(area.id()))
                    .and_where(Expr::col(PairKeys::QuestionId).eq(question_id))
                    .order_by(PairKeys::PartNumber, Order::Asc)
                    .order_by(PairKeys::ChoiceOrder, Order::Asc)
                    .to_owned(),
            )
            .await?;
        Ok(Parts {
            texts: texts.into_iter().map(|(text,)| text).collect(),
            keys: keys
                .into_iter()
                .map(|(part, choice, correct, mapped_value)| PairKey {
                    part,
                    choice,
                    correct,
                    mapped_value,
                })
                .collect(),
        })
    }
}
