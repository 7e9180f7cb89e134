//! Renaming an assessment, and deleting one nothing uses (issue 33: an assessment
//! imported by mistake could not be removed). What uses it is read in the deleting
//! transaction; the foreign keys of snapshots, attempts, results and tasks make a
//! use that arrives at the same moment fail the delete as a conflict instead of
//! orphaning it.

use sea_query::{Expr, IntoIden, Query, SelectStatement};

use crate::model::area::CustomerArea;
use crate::model::delivery_use::AssessmentUse;
use crate::store::schema::{
    AssessmentQuestions, AssessmentSnapshots, Assessments, Attempts, ContentSources,
    ItemStatistics, Results, ScoreBands, ScoringTasks,
};
use crate::store::{StoreError, Tx};

/// `(ID, name, language, description, created, modified)`.
type AssessmentRow = (i64, String, Option<String>, Option<String>, i64, i64);

/// An assessment's stored values, as a MERGE compares them.
pub struct StoredAssessment {
    pub id: i64,
    pub name: String,
    pub language: Option<String>,
    pub description: Option<String>,
    pub created_at: i64,
    pub modified_at: i64,
}

impl Tx {
    /// Assessment `id` of `area` as stored; `None` when there is none.
    pub async fn assessment(
        &mut self,
        area: CustomerArea,
        id: i64,
    ) -> Result<Option<StoredAssessment>, StoreError> {
        let row: Option<AssessmentRow> = self
            .fetch_optional(
                &Query::select()
                    .columns([
                        Assessments::Id,
                        Assessments::Name,
                        Assessments::Language,
                        Assessments::Description,
                        Assessments::CreatedAt,
                        Assessments::ModifiedAt,
                    ])
                    .from(Assessments::Table)
                    .and_where(Expr::col(Assessments::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Assessments::Id).eq(id))
                    .to_owned(),
            )
            .await?;
        Ok(row.map(
            |(id, name, language, description, created_at, modified_at)| StoredAssessment {
                id,
                name,
                language,
                description,
                created_at,
                modified_at,
            },
        ))
    }

    /// Changes an assessment's name and description (each only when given).
    pub async fn rename_assessment(
        &mut self,
        area: CustomerArea,
        id: i64,
        name: Option<&str>,
        description: Option<Option<&str>>,
        at: i64,
    ) -> Result<u64, StoreError> {
        let mut update = Query::update();
        update
            .table(Assessments::Table)
            .value(Assessments::ModifiedAt, at)
            .and_where(Expr::col(Assessments::CustomerId).eq(area.id()))
            .and_where(Expr::col(Assessments::Id).eq(id));
        if let Some(name) = name {
            update.value(Assessments::Name, name);
        }
        if let Some(description) = description {
            update.value(Assessments::Description, description);
        }
        self.execute(&update.to_owned()).await
    }

    /// What refers to assessment `id`: its snapshots, attempts, results and tasks.
    pub async fn assessment_use(
        &mut self,
        area: CustomerArea,
        id: i64,
    ) -> Result<AssessmentUse, StoreError> {
        fn count<T: IntoIden + Copy + 'static>(
            (area, id): (CustomerArea, i64),
            table: T,
            id_column: T,
            customer: T,
            assessment: T,
        ) -> SelectStatement {
            Query::select()
                .expr(Expr::col(id_column).count())
                .from(table)
                .and_where(Expr::col(customer).eq(area.id()))
                .and_where(Expr::col(assessment).eq(id))
                .to_owned()
        }
        Ok(AssessmentUse {
            snapshots: self
                .fetch_scalar(&count(
                    (area, id),
                    AssessmentSnapshots::Table,
                    AssessmentSnapshots::Id,
                    AssessmentSnapshots::CustomerId,
                    AssessmentSnapshots::AssessmentId,
                ))
                .await?,
            attempts: self
                .fetch_scalar(&count(
                    (area, id),
                    Attempts::Table,
                    Attempts::Id,
                    Attempts::CustomerId,
                    Attempts::AssessmentId,
                ))
                .await?,
            results: self
                .fetch_scalar(&count(
                    (area, id),
                    Results::Table,
                    Results::Id,
                    Results::CustomerId,
                    Results::AssessmentId,
                ))
                .await?,
            tasks: self
                .fetch_scalar(&count(
                    (area, id),
                    ScoringTasks::Table,
                    ScoringTasks::ResultId,
                    ScoringTasks::CustomerId,
                    ScoringTasks::AssessmentId,
                ))
                .await?,
        })
    }

    /// Deletes assessment `id` (found unused in this transaction): its row, its
    /// list of questions, its score bands, its item statistics and its place in content imports. Its
    /// questions stay: deleting a question row makes the database look for its
    /// answers, and the answers table has no index that leads with the question
    /// (migration 13 keyed it by result, for uploads' sake), so that look would
    /// read every answer of every area. A question no assessment asks is listed by
    /// nothing but `Questions`, and importing the same package again finds it by
    /// its content source and uses it again rather than making a copy.
    pub async fn delete_assessment(
        &mut self,
        area: CustomerArea,
        id: i64,
    ) -> Result<u64, StoreError> {
        self.execute(
            &Query::delete()
                .from_table(AssessmentQuestions::Table)
                .and_where(Expr::col(AssessmentQuestions::CustomerId).eq(area.id()))
                .and_where(Expr::col(AssessmentQuestions::AssessmentId).eq(id))
                .to_owned(),
        )
        .await?;
        self.execute(
            &Query::delete()
                .from_table(ContentSources::Table)
                .and_where(Expr::col(ContentSources::CustomerId).eq(area.id()))
                .and_where(Expr::col(ContentSources::Kind).eq("assessment"))
                .and_where(Expr::col(ContentSources::TargetId).eq(id))
                .to_owned(),
        )
        .await?;
        self.execute(
            &Query::delete()
                .from_table(ItemStatistics::Table)
                .and_where(Expr::col(ItemStatistics::CustomerId).eq(area.id()))
                .and_where(Expr::col(ItemStatistics::AssessmentId).eq(id))
                .to_owned(),
        )
        .await?;
        self.execute(
            &Query::delete()
                .from_table(ScoreBands::Table)
                .and_where(Expr::col(ScoreBands::CustomerId).eq(area.id()))
                .and_where(Expr::col(ScoreBands::AssessmentId).eq(id))
                .to_owned(),
        )
        .await?;
        self.execute(
            &Query::delete()
                .from_table(Assessments::Table)
                .and_where(Expr::col(Assessments::CustomerId).eq(area.id()))
                .and_where(Expr::col(Assessments::Id).eq(id))
                .to_owned(),
        )
        .await
    }
}
