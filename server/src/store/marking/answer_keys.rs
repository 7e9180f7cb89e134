//! The keying of typed answers written before answer groups existed
//! (migration 35): their keys are computed here, since NFKC is not SQL, and
//! written on each answer and its task.

use sea_query::{Expr, Query, SelectStatement};

use crate::model::answer_groups::answer_key;
use crate::store::schema::{Answers, ScoringTasks};
use crate::store::{Store, StoreError};

/// How many answers one transaction of the keying keys.
pub(super) const KEYING_BATCH: u64 = 500;

/// A typed answer without its key: area, result, question, occurrence, block,
/// media type, content.
type AwaitingKey = (i32, i32, i64, i16, i16, String, Vec<u8>);

/// The typed answers still without a key (in `answers_awaiting_key` alone). The
/// index's own condition is written out, not bound, so that both databases
/// can tell that the index holds every row the read wants.
pub(super) fn awaiting_keys(limit: u64) -> SelectStatement {
    Query::select()
        .columns([
            Answers::CustomerId,
            Answers::ResultId,
            Answers::QuestionId,
            Answers::Occurrence,
            Answers::BlockNumber,
            Answers::MediaType,
            Answers::Content,
        ])
        .from(Answers::Table)
        .and_where(Expr::col(Answers::AnswerKey).is_null())
        .and_where(Expr::cust("media_type LIKE 'text/plain%'"))
        .limit(limit)
        .to_owned()
}

impl Store {
    /// Keys the typed answers written before migration 35 (they alone are in
    /// the partial index `answers_awaiting_key`), and their tasks, a batch per
    /// transaction; returns how many. Once done, one read of an empty index.
    pub async fn key_typed_answers(&self) -> Result<u64, StoreError> {
        let mut keyed = 0;
        loop {
            let mut tx = self.begin().await?;
            let rows: Vec<AwaitingKey> = tx.fetch_all(&awaiting_keys(KEYING_BATCH)).await?;
            let mut written = 0;
            for (area, result, question, occurrence, block, media_type, content) in &rows {
                // A media type the index takes and the model does not (`text/plainx`)
                // keeps no key; the loop ends when a batch keys none.
                let Some(key) = answer_key(media_type, content) else {
                    continue;
                };
                let key = key.as_str();
                written += tx
                    .execute(
                        &Query::update()
                            .table(Answers::Table)
                            .value(Answers::AnswerKey, key)
                            .and_where(Expr::col(Answers::CustomerId).eq(*area))
                            .and_where(Expr::col(Answers::ResultId).eq(*result))
                            .and_where(Expr::col(Answers::QuestionId).eq(*question))
                            .and_where(Expr::col(Answers::Occurrence).eq(*occurrence))
                            .and_where(Expr::col(Answers::BlockNumber).eq(*block))
                            .to_owned(),
                    )
                    .await?;
                tx.execute(
                    &Query::update()
                        .table(ScoringTasks::Table)
                        .value(ScoringTasks::AnswerKey, key)
                        .and_where(Expr::col(ScoringTasks::CustomerId).eq(*area))
                        .and_where(Expr::col(ScoringTasks::QuestionId).eq(*question))
                        .and_where(Expr::col(ScoringTasks::ResultId).eq(*result))
                        .to_owned(),
                )
                .await?;
            }
            tx.commit().await?;
            keyed += written;
            if written == 0 {
                return Ok(keyed);
            }
        }
    }
}
