//! Parsing `Authorization: Basic` and remembering credentials already verified.

use std::net::IpAddr;
use std::time::Duration;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use moka::sync::Cache;
use sha2::{Digest, Sha256};

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
/// It remembers only *that* a password matched a stored hash, from a client address,
/// never who the account is: another address checks the password again (under the
/// sign-in limits), so a guess cannot be tested against someone else's session. And the account row is read on every request, and its role and area come from
/// that row, so a changed role or area takes effect at once, as a changed password
/// does. The key is a SHA-256 over a per-process secret, the user name, the password
/// *and the stored hash*: a wrong password gives another key, and a changed password
/// changes the stored hash, so neither can hit an old entry.
#[derive(Clone)]
pub struct CredentialCache {
    secret: [u8; 32],
    verified: Cache<[u8; 32], ()>,
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

    fn key(
        &self,
        credentials: &BasicCredentials,
        stored_hash: &str,
        address: Option<IpAddr>,
    ) -> [u8; 32] {
        let mut hasher = Sha256::new();
        hasher.update(self.secret);
        let address = address.map(|a| a.to_string()).unwrap_or_default();
        for part in [
            credentials.username.as_bytes(),
            credentials.password.as_bytes(),
            stored_hash.as_bytes(),
            address.as_bytes(),
        ] {
            hasher.update((part.len() as u64).to_le_bytes());
            hasher.update(part);
        }
        hasher.finalize().into()
    }

    /// Whether `credentials` were found to match `stored_hash` recently, from `address`.
    pub fn is_verified(
        &self,
        credentials: &BasicCredentials,
        stored_hash: &str,
        address: Option<IpAddr>,
    ) -> bool {
        self.verified
            .contains_key(&self.key(credentials, stored_hash, address))
    }

    /// Remembers that `credentials` from `address` match `stored_hash`.
    pub fn remember(
        &self,
        credentials: &BasicCredentials,
        stored_hash: &str,
        address: Option<IpAddr>,
    ) {
        self.verified
            .insert(self.key(credentials, stored_hash, address), ());
    }
}

#[cfg(test)]
mod tests {
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
        let right = BasicCredentials {
            username: "ann".into(),
            password: "right".into(),
        };
        let here = Some(IpAddr::from([10, 0, 0, 1]));
        cache.remember(&right, "$hash-1", here);
        assert!(cache.is_verified(&right, "$hash-1", here));
        assert!(
            !cache.is_verified(&right, "$hash-1", Some(IpAddr::from([10, 0, 0, 2]))),
            "another address checks again"
        );
        let wrong = BasicCredentials {
            username: "ann".into(),
            password: "wrong".into(),
        };
        assert!(!cache.is_verified(&wrong, "$hash-1", here));
        assert!(
            !cache.is_verified(&right, "$hash-2", here),
            "a changed stored hash must miss"
        );
    }
}
