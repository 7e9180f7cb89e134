//! Who is asking: HTTP Basic credentials, password hashes and their checks, the
//! limits on sign-ins, and the principal an account becomes. The gate that applies
//! them to requests is `feeds::pipeline::gate`.

mod address;
mod credentials;
mod guesses;
pub mod links;
mod password;
mod sign_in;

pub use address::client_address;
pub use credentials::{BasicCredentials, CredentialCache};
pub use guesses::{Delay, GuessLimits, Guesses};
pub use password::{dummy_hash, hash_password, verify_password};
pub use sign_in::{Refusal, SignInGuard, SignInLimits};

pub use crate::model::access::Role;
use crate::model::area::CustomerArea;

/// An authenticated account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Principal {
    pub account_id: i32,
    pub username: String,
    /// `None`: a server administrator of every customer area.
    pub area: Option<CustomerArea>,
    pub role: Role,
}

impl Principal {
    /// Whether this account may use customer area `area` at all.
    pub fn may_use(&self, area: CustomerArea) -> bool {
        self.area.is_none_or(|own| own == area)
    }
}
