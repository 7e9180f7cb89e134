//! What an imported question keeps beside its rows: a template question's
//! template (docs/content.md, "Template items"), so that each snapshot can draw
//! its own instance of it, and a multiple response's most choices.

use sea_query::{Expr, Query};

use crate::model::area::CustomerArea;
use crate::store::schema::Questions;
use crate::store::{StoreError, Tx};

impl Tx {
    /// Keeps `template` (QTI XML) and `max_choices` with question `id` of
    /// `area`; nothing when it has neither.
    pub(super) async fn keep_extras(
        &mut self,
        area: CustomerArea,
        id: i64,
        template: Option<&str>,
        max_choices: Option<i32>,
    ) -> Result<(), StoreError> {
        if template.is_none() && max_choices.is_none() {
            return Ok(());
        }
        self.execute(
            &Query::update()
                .table(Questions::Table)
                .value(Questions::TemplateXml, template)
                .value(Questions::MaxChoices, max_choices)
                .and_where(Expr::col(Questions::CustomerId).eq(area.id()))
                .and_where(Expr::col(Questions::Id).eq(id))
                .to_owned(),
        )
        .await
        .map(drop)
    }
}
