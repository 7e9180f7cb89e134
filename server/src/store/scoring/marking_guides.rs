//! The marking guides of a snapshot's questions (model::marking_guide): each
//! question's current rubric (not a replaced one), its dimensions and their levels,
//! read in three statements whatever the number of questions.

use std::collections::HashMap;

use sea_query::{Expr, Order, Query, SelectStatement};

use crate::model::area::CustomerArea;
use crate::model::marking_guide::{GuideDimension, MarkingGuide};
use crate::store::schema::{DimensionLevels, Dimensions, Rubrics, SnapshotQuestions};
use crate::store::{Store, StoreError};

/// Joins `rubrics` to snapshot `snapshot`'s questions, keeping current rubrics of
/// `area` only.
fn of_snapshot(query: &mut SelectStatement, area: CustomerArea, snapshot: i32) {
    query
        .inner_join(
            SnapshotQuestions::Table,
            Expr::col((SnapshotQuestions::Table, SnapshotQuestions::QuestionId))
                .equals((Rubrics::Table, Rubrics::QuestionId)),
        )
        .and_where(
            Expr::col((SnapshotQuestions::Table, SnapshotQuestions::CustomerId)).eq(area.id()),
        )
        .and_where(
            Expr::col((SnapshotQuestions::Table, SnapshotQuestions::SnapshotId)).eq(snapshot),
        )
        .and_where(Expr::col((Rubrics::Table, Rubrics::CustomerId)).eq(area.id()))
        .and_where(Expr::col((Rubrics::Table, Rubrics::ReplacedAt)).is_null());
}

impl Store {
    /// The marking guide of each question of snapshot `snapshot` that has a
    /// rubric, by question ID.
    pub async fn marking_guides(
        &self,
        area: CustomerArea,
        snapshot: i32,
    ) -> Result<HashMap<i64, MarkingGuide>, StoreError> {
        let mut rubrics = Query::select();
        rubrics
            .column((Rubrics::Table, Rubrics::Id))
            .column((Rubrics::Table, Rubrics::QuestionId))
            .column((Rubrics::Table, Rubrics::Name))
            .column((Rubrics::Table, Rubrics::Instructions))
            .from(Rubrics::Table);
        of_snapshot(&mut rubrics, area, snapshot);
        let rubrics: Vec<(i32, i64, String, Option<String>)> = self.fetch_all(&rubrics).await?;

        let mut dimensions = Query::select();
        dimensions
            .column((Dimensions::Table, Dimensions::RubricId))
            .column((Dimensions::Table, Dimensions::DimensionOrder))
            .column((Dimensions::Table, Dimensions::Name))
            .column((Dimensions::Table, Dimensions::Instructions))
            .column((Dimensions::Table, Dimensions::MaxScore))
            .from(Dimensions::Table)
            .inner_join(
                Rubrics::Table,
                Expr::col((Rubrics::Table, Rubrics::Id))
                    .equals((Dimensions::Table, Dimensions::RubricId)),
            )
            .and_where(Expr::col((Dimensions::Table, Dimensions::CustomerId)).eq(area.id()))
            .order_by((Dimensions::Table, Dimensions::RubricId), Order::Asc)
            .order_by((Dimensions::Table, Dimensions::DimensionOrder), Order::Asc);
        of_snapshot(&mut dimensions, area, snapshot);
        let dimensions: Vec<(i32, i32, String, Option<String>, i16)> =
            self.fetch_all(&dimensions).await?;

        let mut levels = Query::select();
        levels
            .column((DimensionLevels::Table, DimensionLevels::RubricId))
            .column((DimensionLevels::Table, DimensionLevels::DimensionOrder))
            .column((DimensionLevels::Table, DimensionLevels::Score))
            .column((DimensionLevels::Table, DimensionLevels::Description))
            .from(DimensionLevels::Table)
            .inner_join(
                Rubrics::Table,
                Expr::col((Rubrics::Table, Rubrics::Id))
                    .equals((DimensionLevels::Table, DimensionLevels::RubricId)),
            )
            .and_where(
                Expr::col((DimensionLevels::Table, DimensionLevels::CustomerId)).eq(area.id()),
            )
            .order_by(
                (DimensionLevels::Table, DimensionLevels::RubricId),
                Order::Asc,
            )
            .order_by(
                (DimensionLevels::Table, DimensionLevels::DimensionOrder),
                Order::Asc,
            )
            .order_by((DimensionLevels::Table, DimensionLevels::Score), Order::Asc);
        of_snapshot(&mut levels, area, snapshot);
        let levels: Vec<(i32, i32, i16, String)> = self.fetch_all(&levels).await?;

        let mut guides: HashMap<i32, (i64, MarkingGuide)> = rubrics
            .into_iter()
            .map(|(id, question, name, instructions)| {
                let guide = MarkingGuide {
                    name,
                    instructions,
                    dimensions: Vec::new(),
                };
                (id, (question, guide))
            })
            .collect();
        for (rubric, order, name, instructions, max_score) in dimensions {
            if let Some((_, guide)) = guides.get_mut(&rubric) {
                guide.dimensions.push(GuideDimension {
                    order,
                    name,
                    instructions,
                    max_score: i32::from(max_score),
                    levels: Vec::new(),
                });
            }
        }
        for (rubric, order, score, description) in levels {
            let dimension = guides
                .get_mut(&rubric)
                .and_then(|(_, guide)| guide.dimensions.iter_mut().find(|d| d.order == order));
            if let Some(dimension) = dimension {
                dimension.levels.push((i32::from(score), description));
            }
        }
        Ok(guides.into_values().collect())
    }
}
