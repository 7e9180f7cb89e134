//! Who is asking: HTTP Basic credentials checked against service accounts, and the
//! customer area they may use.

mod credentials;
mod middleware;
mod password;

pub use credentials::{BasicCredentials, CredentialCache};
pub use middleware::{require_customer_area, CustomerArea};
pub use password::{hash_password, verify_password};

use std::fmt;
use std::str::FromStr;

/// What an account may do (the contract's three roles).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// Everything in its customer area (or every area, for a server administrator).
    Admin,
    /// The scoring feeds and what they read.
    Scorer,
    /// External-delivery feeds and reading results.
    Coordinator,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Admin => "admin",
            Role::Scorer => "scorer",
            Role::Coordinator => "coordinator",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Role {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text {
            "admin" => Ok(Role::Admin),
            "scorer" => Ok(Role::Scorer),
            "coordinator" => Ok(Role::Coordinator),
            other => Err(format!(
                "unknown role '{other}': use admin, scorer or coordinator"
            )),
        }
    }
}

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
