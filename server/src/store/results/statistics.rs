//! The `ItemStatistics` rows of an assessment (docs/statistics.md), replaced whole
//! in one transaction each time its figures are computed, so a reader sees one
//! computation's rows, never a mix of two.

use sea_query::{Expr, Query};

use crate::model::area::CustomerArea;
use crate::model::report::analysis::Analysis;
use crate::store::schema::ItemStatistics;
use crate::store::{Store, StoreError};

impl Store {
    /// Replaces assessment `assessment_id`'s stored item statistics by `analysis`'s,
    /// computed at `at` (milliseconds).
    pub async fn replace_item_statistics(
        &self,
        area: CustomerArea,
        assessment_id: i64,
        analysis: &Analysis,
        at: i64,
    ) -> Result<(), StoreError> {
        let mut tx = self.begin().await?;
        tx.execute(
            &Query::delete()
                .from_table(ItemStatistics::Table)
                .and_where(Expr::col(ItemStatistics::CustomerId).eq(area.id()))
                .and_where(Expr::col(ItemStatistics::AssessmentId).eq(assessment_id))
                .to_owned(),
        )
        .await?;
        if !analysis.items.is_empty() {
            let mut insert = Query::insert()
                .into_table(ItemStatistics::Table)
                .columns([
                    ItemStatistics::CustomerId,
                    ItemStatistics::AssessmentId,
                    ItemStatistics::QuestionId,
                    ItemStatistics::Position,
                    ItemStatistics::MaxScore,
                    ItemStatistics::N,
                    ItemStatistics::Facility,
                    ItemStatistics::Discrimination,
                    ItemStatistics::Flags,
                    ItemStatistics::ComputedAt,
                ])
                .to_owned();
            for item in &analysis.items {
                let flags: Vec<&str> = item.statistics.flags.iter().map(|f| f.as_str()).collect();
                // Ten values for ten columns: values_panic cannot panic here.
                insert.values_panic([
                    area.id().into(),
                    assessment_id.into(),
                    item.question_id.into(),
                    (item.position as i32).into(),
                    item.max_score.into(),
                    (analysis.n as i32).into(),
                    item.statistics.facility.into(),
                    item.statistics.discrimination.into(),
                    flags.join(",").into(),
                    at.into(),
                ]);
            }
            tx.execute(&insert).await?;
        }
        tx.commit().await
    }
}
