//! The writes of one request, or of one `$batch` change set: a transaction begun at
//! the first write (so reads before it hold no lock) and committed only when every
//! write in it succeeded. Dropped without [`WriteScope::commit`], it rolls back.

use crate::store::{Store, StoreError, Tx};

pub struct WriteScope<'s> {
    store: &'s Store,
    tx: Option<Tx>,
    change_set: bool,
}

impl<'s> WriteScope<'s> {
    /// The writes of one request.
    pub fn new(store: &'s Store) -> Self {
        Self {
            store,
            tx: None,
            change_set: false,
        }
    }

    /// The writes of a `$batch` change set: all of them or none.
    pub fn change_set(store: &'s Store) -> Self {
        Self {
            store,
            tx: None,
            change_set: true,
        }
    }

    /// Whether other writes share this scope's transaction, so that a write must
    /// go into it rather than into a transaction of its own.
    pub fn is_change_set(&self) -> bool {
        self.change_set
    }

    /// The scope's transaction, begun now if this is its first write.
    pub async fn tx(&mut self) -> Result<&mut Tx, StoreError> {
        if self.tx.is_none() {
            self.tx = Some(self.store.begin().await?);
        }
        Ok(self.tx.as_mut().expect("begun above"))
    }

    /// Commits what was written, if anything was.
    pub async fn commit(self) -> Result<(), StoreError> {
        match self.tx {
            Some(tx) => tx.commit().await,
            None => Ok(()),
        }
    }
}
