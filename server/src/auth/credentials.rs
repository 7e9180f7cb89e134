//! Parsing `Authorization: Basic` and remembering credentials already verified.

use std::time::Duration;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use moka::sync::Cache;
use sha2::{Digest, Sha256};

use super::Principal;

/// A user name and password from an `Authorization: Basic` header.
pub struct BasicCredentials {
    pub username: String,
    pub password: String,
}

impl BasicCredentials {
    /// Parses the header value; `None` for anything that is not well-formed Basic.
    pub fn parse(header: &str) -> Option<Self> {
        let (scheme, encoded) = header.trim().split_once(' ')?;
        if !scheme.eq_ignore_ascii_case("basic") {
            return None;
        }
        let decoded = STANDARD.decode(encoded.trim()).ok()?;
        let text = String::from_utf8(decoded).ok()?;
        let (username, password) = text.split_once(':')?;
        if username.is_empty() {
            return None;
        }
        Some(Self {
            username: username.to_owned(),
            password: password.to_owned(),
        })
    }
}

impl std::fmt::Debug for BasicCredentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BasicCredentials")
            .field("username", &self.username)
            .finish_non_exhaustive()
    }
}

/// Credentials verified recently, so that argon2's deliberate slowness is paid once
/// per account and password, not on every request.
///
/// The key is a SHA-256 over a per-process secret, the user name, the password *and
/// the stored hash*: a wrong password gives another key, and a changed password
/// changes the stored hash, so neither can hit an old entry. Entries expire after
/// `ttl` so that a deleted account or changed role is seen soon.
#[derive(Clone)]
pub struct CredentialCache {
    secret: [u8; 32],
    verified: Cache<[u8; 32], Principal>,
}

impl CredentialCache {
    pub fn new(ttl: Duration) -> Self {
        Self {
            secret: rand::random(),
            verified: Cache::builder()
                .max_capacity(10_000)
                .time_to_live(ttl)
                .build(),
        }
    }

    fn key(&self, credentials: &BasicCredentials, stored_hash: &str) -> [u8; 32] {
        let mut hasher = Sha256::new();
        hasher.update(self.secret);
        for part in [
            credentials.username.as_bytes(),
            credentials.password.as_bytes(),
            stored_hash.as_bytes(),
        ] {
            hasher.update((part.len() as u64).to_le_bytes());
            hasher.update(part);
        }
        hasher.finalize().into()
    }

    pub fn get(&self, credentials: &BasicCredentials, stored_hash: &str) -> Option<Principal> {
        self.verified.get(&self.key(credentials, stored_hash))
    }

    pub fn insert(&self, credentials: &BasicCredentials, stored_hash: &str, principal: Principal) {
        self.verified
            .insert(self.key(credentials, stored_hash), principal);
    }
}

#[cfg(test)]
mod tests {
    use super::super::Role;
    use super::*;

    fn basic(text: &str) -> String {
        format!("Basic {}", STANDARD.encode(text))
    }

    #[test]
    fn a_well_formed_basic_header_parses() {
        let parsed = BasicCredentials::parse(&basic("ann:pa:ss")).unwrap();
        assert_eq!(parsed.username, "ann");
        assert_eq!(parsed.password, "pa:ss");
    }

    #[test]
    fn malformed_basic_headers_are_refused() {
        for header in [
            "Bearer abc",
            "Basic",
            "Basic !!!",
            &basic("no-colon"),
            &basic(":empty-user"),
        ] {
            assert!(BasicCredentials::parse(header).is_none(), "{header}");
        }
    }

    #[test]
    fn a_cached_entry_is_missed_by_a_wrong_or_changed_password() {
        let cache = CredentialCache::new(Duration::from_secs(60));
        let principal = Principal {
            account_id: 1,
            username: "ann".into(),
            customer_id: Some(1),
            role: Role::Scorer,
        };
        let right = BasicCredentials {
            username: "ann".into(),
            password: "right".into(),
        };
        cache.insert(&right, "$hash-1", principal.clone());
        assert_eq!(cache.get(&right, "$hash-1"), Some(principal));
        let wrong = BasicCredentials {
            username: "ann".into(),
            password: "wrong".into(),
        };
        assert_eq!(cache.get(&wrong, "$hash-1"), None);
        assert_eq!(
            cache.get(&right, "$hash-2"),
            None,
            "a changed stored hash must miss"
        );
    }
}
