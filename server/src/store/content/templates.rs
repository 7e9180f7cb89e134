//! A template question's template (docs/content.md, "Template items"), kept with
//! the question so that each snapshot can draw its own instance of it.

use sea_query::{Expr, Query};

use crate::model::area::CustomerArea;
use crate::store::schema::Questions;
use crate::store::{StoreError, Tx};

impl Tx {
    /// Keeps `template` (QTI XML) with question `id` of `area`.
    pub(super) async fn keep_template(
        &mut self,
        area: CustomerArea,
        id: i64,
        template: &str,
    ) -> Result<(), StoreError> {
        self.execute(
            &Query::update()
                .table(Questions::Table)
                .value(Questions::TemplateXml, template)
                .and_where(Expr::col(Questions::CustomerId).eq(area.id()))
                .and_where(Expr::col(Questions::Id).eq(id))
                .to_owned(),
        )
        .await
        .map(drop)
    }
}
