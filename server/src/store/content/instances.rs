//! A template question's instance: the draw a snapshot makes of it, written as a
//! question of its own (new ID, the template's topic) that names its template,
//! in the snapshot's transaction.

use sea_query::{Expr, Query};

use super::import::IMPORT_LOCK;
use super::import_rows::QuestionRow;
use crate::model::area::CustomerArea;
use crate::model::content::PlannedQuestion;
use crate::store::schema::Questions;
use crate::store::{StoreError, Tx};

impl Tx {
    /// Stores `instance`, drawn from template question `template_id` of `area`;
    /// its new question ID.
    pub async fn insert_question_instance(
        &mut self,
        area: CustomerArea,
        template_id: i64,
        instance: &PlannedQuestion,
        at: i64,
    ) -> Result<i64, StoreError> {
        // IDs are chosen as imports choose them, under the same lock.
        self.advisory_lock(IMPORT_LOCK).await?;
        let id = self.next_content_id().await?;
        let (topic,): (Option<i32>,) = self
            .fetch_optional(
                &Query::select()
                    .column(Questions::TopicId)
                    .from(Questions::Table)
                    .and_where(Expr::col(Questions::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Questions::Id).eq(template_id))
                    .to_owned(),
            )
            .await?
            .ok_or_else(|| StoreError::Corrupt(format!("template question {template_id}")))?;
        let row = QuestionRow {
            id,
            revision: 1,
            topic,
            question: instance,
        };
        self.insert_imported_questions(area, &[row], at).await?;
        self.execute(
            &Query::update()
                .table(Questions::Table)
                .value(Questions::InstanceOf, template_id)
                .and_where(Expr::col(Questions::CustomerId).eq(area.id()))
                .and_where(Expr::col(Questions::Id).eq(id))
                .to_owned(),
        )
        .await?;
        Ok(id)
    }
}
