//! Who signs in where: customer areas, their service accounts, and the key that
//! signs print links.

mod areas;
mod signing_key;

pub use areas::{AccountRecord, NewAccount};

#[cfg(test)]
mod lead_role_migration;
