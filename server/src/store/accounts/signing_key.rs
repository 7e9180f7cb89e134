//! The server's link-signing key (migration 12): made once, by whichever process
//! needs it first, and then the same for every process on the database.

use rand::RngCore;
use sea_query::{Expr, OnConflict, Query};

use crate::store::schema::SigningKeys;
use crate::store::{now_millis, Store, StoreError, Tx};

/// Bytes of a new key.
const KEY_BYTES: usize = 32;

impl Store {
    /// The key, made now if there is none. Two processes making it at once both end
    /// up with the one that was stored first.
    pub async fn signing_key(&self) -> Result<Vec<u8>, StoreError> {
        let mut tx = self.begin().await?;
        let key = tx.signing_key().await?;
        tx.commit().await?;
        Ok(key)
    }
}

impl Tx {
    /// [`Store::signing_key`] inside a transaction already open (a write that
    /// needs the key, as second marking's choice of tasks does): on SQLite a
    /// second writer beside it would wait for this one's end.
    pub async fn signing_key(&mut self) -> Result<Vec<u8>, StoreError> {
        let select = Query::select()
            .column(SigningKeys::Secret)
            .from(SigningKeys::Table)
            .and_where(Expr::col(SigningKeys::Id).eq(1))
            .to_owned();
        if let Some((key,)) = self.fetch_optional::<(Vec<u8>,)>(&select).await? {
            return Ok(key);
        }
        let mut key = vec![0u8; KEY_BYTES];
        rand::rng().fill_bytes(&mut key);
        self.execute(
            &Query::insert()
                .into_table(SigningKeys::Table)
                .columns([SigningKeys::Id, SigningKeys::Secret, SigningKeys::CreatedAt])
                .values_panic([1.into(), key.into(), now_millis().into()])
                .on_conflict(OnConflict::column(SigningKeys::Id).do_nothing().to_owned())
                .to_owned(),
        )
        .await?;
        let (key,) = self
            .fetch_optional::<(Vec<u8>,)>(&select)
            .await?
            .ok_or(StoreError::NotFound)?;
        Ok(key)
    }
}
