//! Customer areas and the service accounts that sign in to them.

use sea_query::{Expr, Query};

use crate::model::area::CustomerArea;
use crate::store::schema::{Accounts, Customers};
use crate::store::{now_millis, Store, StoreError, Tx};

/// An account as stored: the password only as its argon2 hash.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AccountRecord {
    pub id: i32,
    /// `None` for a server administrator of every customer area.
    pub customer_id: Option<i32>,
    pub username: String,
    pub password_hash: String,
    pub role: String,
}

impl AccountRecord {
    /// The account's area; `None` for a server administrator. A stored area that is no
    /// area (0 or below) is an error, never read as "every area".
    pub fn area(&self) -> Result<Option<CustomerArea>, StoreError> {
        self.customer_id
            .map(|id| {
                CustomerArea::new(id).ok_or_else(|| {
                    StoreError::Corrupt(format!("account {} has area {id}", self.id))
                })
            })
            .transpose()
    }
}

/// An account to create; `password_hash` is already hashed.
pub struct NewAccount<'a> {
    pub customer_id: Option<i32>,
    pub username: &'a str,
    pub password_hash: &'a str,
    pub role: &'a str,
}

impl Store {
    pub async fn find_account(&self, username: &str) -> Result<Option<AccountRecord>, StoreError> {
        let query = Query::select()
            .columns([
                Accounts::Id,
                Accounts::CustomerId,
                Accounts::Username,
                Accounts::PasswordHash,
                Accounts::Role,
            ])
            .from(Accounts::Table)
            .and_where(Expr::col(Accounts::Username).eq(username))
            .to_owned();
        self.fetch_optional(&query).await
    }

    /// The name of a customer area, if it exists.
    pub async fn customer_name(&self, customer_id: i32) -> Result<Option<String>, StoreError> {
        let query = Query::select()
            .column(Customers::Name)
            .from(Customers::Table)
            .and_where(Expr::col(Customers::Id).eq(customer_id))
            .to_owned();
        Ok(self
            .fetch_optional::<(String,)>(&query)
            .await?
            .map(|(name,)| name))
    }

    pub async fn customer_exists(&self, customer_id: i32) -> Result<bool, StoreError> {
        let query = Query::select()
            .expr(Expr::col(Customers::Id).count())
            .from(Customers::Table)
            .and_where(Expr::col(Customers::Id).eq(customer_id))
            .to_owned();
        Ok(self.fetch_scalar::<i64>(&query).await? > 0)
    }

    /// Creates a customer area and returns its ID.
    pub async fn insert_customer(&self, name: &str) -> Result<i32, StoreError> {
        let mut tx = self.begin().await?;
        let id = tx.insert_customer(name).await?.id();
        tx.commit().await?;
        Ok(id)
    }

    pub async fn insert_account(&self, account: NewAccount<'_>) -> Result<i32, StoreError> {
        let mut tx = self.begin().await?;
        let id = tx.insert_account(account).await?;
        tx.commit().await?;
        Ok(id)
    }
}

impl Store {
    /// Replaces an account's password hash; `NotFound` if there is no such account.
    pub async fn set_password(
        &self,
        username: &str,
        password_hash: &str,
    ) -> Result<(), StoreError> {
        let update = Query::update()
            .table(Accounts::Table)
            .value(Accounts::PasswordHash, password_hash)
            .and_where(Expr::col(Accounts::Username).eq(username))
            .to_owned();
        let changed = self.execute(&update).await?;
        self.account_changed();
        match changed {
            0 => Err(StoreError::NotFound),
            _ => Ok(()),
        }
    }
}

impl Tx {
    pub async fn insert_customer(&mut self, name: &str) -> Result<CustomerArea, StoreError> {
        let insert = Query::insert()
            .into_table(Customers::Table)
            .columns([Customers::Name, Customers::CreatedAt])
            .values_panic([name.into(), now_millis().into()])
            .returning_col(Customers::Id)
            .to_owned();
        let id: i32 = self.fetch_scalar(&insert).await?;
        CustomerArea::new(id)
            .ok_or_else(|| StoreError::Corrupt(format!("a new area numbered {id}")))
    }

    pub async fn insert_account(&mut self, account: NewAccount<'_>) -> Result<i32, StoreError> {
        let insert = Query::insert()
            .into_table(Accounts::Table)
            .columns([
                Accounts::CustomerId,
                Accounts::Username,
                Accounts::PasswordHash,
                Accounts::Role,
                Accounts::CreatedAt,
            ])
            .values_panic([
                account.customer_id.into(),
                account.username.into(),
                account.password_hash.into(),
                account.role.into(),
                now_millis().into(),
            ])
            .returning_col(Accounts::Id)
            .to_owned();
        self.fetch_scalar(&insert).await
    }

    pub async fn account_exists(&mut self, username: &str) -> Result<bool, StoreError> {
        let query = Query::select()
            .expr(Expr::col(Accounts::Id).count())
            .from(Accounts::Table)
            .and_where(Expr::col(Accounts::Username).eq(username))
            .to_owned();
        Ok(self.fetch_scalar::<i64>(&query).await? > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn account(customer_id: Option<i32>) -> AccountRecord {
        AccountRecord {
            id: 9,
            customer_id,
            username: "someone".into(),
            password_hash: String::new(),
            role: "admin".into(),
        }
    }

    #[test]
    fn a_stored_area_below_one_is_an_error_not_every_area() {
        assert_eq!(account(Some(4)).area().unwrap(), CustomerArea::new(4));
        assert_eq!(account(None).area().unwrap(), None);
        for id in [0, -1] {
            let error = account(Some(id)).area().unwrap_err();
            assert!(matches!(error, StoreError::Corrupt(_)), "{error:?}");
        }
    }
}
