//! What an imported question keeps beside its rows: a template question's
//! template (docs/content.md, "Template items"), so that each snapshot can draw
//! its own instance of it, a multiple response's most choices (a point
//! question's most points), and a point question's picture size.

use sea_query::{Expr, Query};

use crate::model::area::CustomerArea;
use crate::model::content::PlannedQuestion;
use crate::store::schema::Questions;
use crate::store::{StoreError, Tx};

impl Tx {
    /// Keeps `question`'s template (QTI XML), most choices and picture with
    /// question `id` of `area`; nothing when it has none of them.
    pub(super) async fn keep_extras(
        &mut self,
        area: CustomerArea,
        id: i64,
        question: &PlannedQuestion,
    ) -> Result<(), StoreError> {
        let (template, max_choices, picture) = (
            question.template.as_deref(),
            question.max_choices,
            question.picture,
        );
        if template.is_none() && max_choices.is_none() && picture.is_none() {
            return Ok(());
        }
        self.execute(
            &Query::update()
                .table(Questions::Table)
                .value(Questions::TemplateXml, template)
                .value(Questions::MaxChoices, max_choices)
                .value(Questions::PictureWidth, picture.map(|p| p.width))
                .value(Questions::PictureHeight, picture.map(|p| p.height))
                .and_where(Expr::col(Questions::CustomerId).eq(area.id()))
                .and_where(Expr::col(Questions::Id).eq(id))
                .to_owned(),
        )
        .await
        .map(drop)
    }
}
