//! Who is asking: HTTP Basic credentials checked against service accounts, and the
//! customer area they may use.

mod credentials;
mod middleware;
mod password;
mod sign_in;

pub use credentials::{BasicCredentials, CredentialCache};
pub use middleware::{require_customer_area, CustomerArea};
pub use password::{hash_password, verify_password};
pub use sign_in::{SignInGuard, SignInLimits};

pub use crate::model::access::Role;

/// An authenticated account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Principal {
    pub account_id: i32,
    pub username: String,
    /// `None`: a server administrator of every customer area.
    pub customer_id: Option<i32>,
    pub role: Role,
}

impl Principal {
    /// Whether this account may use customer area `customer_id` at all.
    pub fn may_use(&self, customer_id: i32) -> bool {
        self.customer_id.is_none_or(|own| own == customer_id)
    }
}
