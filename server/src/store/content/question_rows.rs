//! The columns every read of an assessment's or a snapshot's questions shares: the
//! question's kind, maximum, topic and scoring rule, and a text entry's keys.

use sea_query::{Expr, Order, Query};

use crate::model::area::CustomerArea;
use crate::model::points::Picture;
use crate::model::question_kind::QuestionKind;
use crate::model::result_scores::Topic;
use crate::model::scoring_rule::{ScoringRule, TextKey};
use crate::model::typed_number::NumberRange;
use crate::store::schema::{Questions, TextKeys, Topics};
use crate::store::{Store, StoreError};

/// A question's ID, type, maximum score, topic ID, topic path and scoring rule
/// (name, map default, lower, upper), joined from the `question` column of `from`;
/// callers add their own columns after these.
pub(in crate::store) fn question_columns(
    from: impl sea_query::Iden + Copy + 'static,
    question: impl sea_query::Iden + Copy + 'static,
) -> sea_query::SelectStatement {
    Query::select()
        .column((Questions::Table, Questions::Id))
        .column((Questions::Table, Questions::QuestionType))
        .column((Questions::Table, Questions::MaxScore))
        .column((Topics::Table, Topics::Id))
        .column((Topics::Table, Topics::Path))
        .column((Questions::Table, Questions::ScoringRule))
        .column((Questions::Table, Questions::MapDefault))
        .column((Questions::Table, Questions::MapLower))
        .column((Questions::Table, Questions::MapUpper))
        .from(from)
        .inner_join(
            Questions::Table,
            Expr::col((Questions::Table, Questions::Id)).equals((from, question)),
        )
        .left_join(
            Topics::Table,
            Expr::col((Topics::Table, Topics::Id)).equals((Questions::Table, Questions::TopicId)),
        )
        .to_owned()
}

pub(in crate::store) fn kind_of(kind: &str) -> Result<QuestionKind, StoreError> {
    QuestionKind::parse(kind).ok_or_else(|| StoreError::Corrupt(format!("question type '{kind}'")))
}

pub(in crate::store) fn rule_of(
    name: &str,
    default: Option<f64>,
    lower: Option<f64>,
    upper: Option<f64>,
) -> Result<ScoringRule, StoreError> {
    ScoringRule::from_columns(name, default, lower, upper)
        .ok_or_else(|| StoreError::Corrupt(format!("scoring rule '{name}'")))
}

/// A text key's blank, text, case sensitivity, mapped value and number range's ends.
type KeyRow = (i32, String, bool, Option<f64>, Option<f64>, Option<f64>);

impl Store {
    /// A text-entry question's accepted answers, in order (a fill-in-the-blanks
    /// question's, each with its blank; none for other kinds).
    pub(in crate::store) async fn text_keys(
        &self,
        area: CustomerArea,
        kind: QuestionKind,
        question_id: i64,
    ) -> Result<Vec<TextKey>, StoreError> {
        if !matches!(kind, QuestionKind::TextEntry | QuestionKind::FillIn) {
            return Ok(Vec::new());
        }
        let rows: Vec<KeyRow> = self
            .fetch_all(
                &Query::select()
                    .columns([
                        TextKeys::PartNumber,
                        TextKeys::Text,
                        TextKeys::CaseSensitive,
                        TextKeys::MappedValue,
                        TextKeys::NumericLow,
                        TextKeys::NumericHigh,
                    ])
                    .from(TextKeys::Table)
                    .and_where(Expr::col(TextKeys::CustomerId).eq(area.id()))
                    .and_where(Expr::col(TextKeys::QuestionId).eq(question_id))
                    .order_by(TextKeys::KeyOrder, Order::Asc)
                    .to_owned(),
            )
            .await?;
        Ok(rows
            .into_iter()
            .map(
                |(part, text, case_sensitive, mapped_value, low, high)| TextKey {
                    part,
                    text,
                    case_sensitive,
                    mapped_value,
                    numeric: low.zip(high).map(|(low, high)| NumberRange { low, high }),
                },
            )
            .collect())
    }
}

pub(in crate::store) fn topic_of(id: Option<i32>, path: Option<String>) -> Option<Topic> {
    id.map(|id| Topic {
        id,
        path: path.unwrap_or_default(),
    })
}

/// A point question's picture, from its stored width and height.
pub(in crate::store) fn picture_of(width: Option<f64>, height: Option<f64>) -> Option<Picture> {
    width
        .zip(height)
        .map(|(width, height)| Picture { width, height })
}
