//! Parsing `Authorization: Basic` and remembering credentials already verified.

use std::net::IpAddr;
use std::time::{Duration, Instant};

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use hmac::{Hmac, Mac};
use moka::sync::Cache;
use sha2::Sha256;

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

/// Credentials verified before, remembered for the client's session, so that
/// argon2's deliberate slowness is paid once per account, password and address,
/// the account row is read once in a while rather than on every request, and the
/// sign-in limits never refuse a client that was signed in before they began
/// (auth::guesses says the one exception, a closed pair).
///
/// An entry says that a password matched an account's stored hash, from a client
/// address, and keeps the account as it was read then. Another address checks the
/// password again (under the sign-in limits), so a guess cannot be tested against
/// someone else's session. The key is an HMAC-SHA-256, under a per-process secret,
/// of the user name, the password and the address: a wrong password gives another
/// key, and the table holds no password.
///
/// How long what it knows holds:
/// - the verified password, for the session: until it has gone unused for
///   `session` (`sign_in_session_minutes`), or the stored hash changed;
/// - the account (role, area, hash), `account_ttl` (`account_cache_seconds`): after
///   it, the row is read again, and a changed hash means the password is checked
///   again; a removed account is refused;
/// - nothing at all after an account change made through this process's store
///   ([`Store::accounts_generation`](crate::store::Store::accounts_generation)).
///
/// So a password change or a removed account takes effect at once on the process
/// that made it, and within `account_ttl` on the others (docs/operations.md).
#[derive(Clone)]
pub struct CredentialCache {
    secret: [u8; 32],
    account_ttl: Duration,
    verified: Cache<[u8; 32], Verified>,
}

/// The most sessions remembered at once (a few hundred bytes each).
const MAX_SESSIONS: u64 = 50_000;

/// What an entry remembers: the account as read (its hash, and who it is).
#[derive(Clone)]
struct Verified {
    password_hash: String,
    principal: Principal,
    read_at: Instant,
    generation: u64,
}

impl CredentialCache {
    pub fn new(session: Duration, account_ttl: Duration) -> Self {
        Self {
            secret: rand::random(),
            account_ttl,
            // Only verified credentials enter, so guessing cannot fill it.
            verified: Cache::builder()
                .max_capacity(MAX_SESSIONS)
                .time_to_idle(session)
                .build(),
        }
    }

    fn key(&self, credentials: &BasicCredentials, address: IpAddr) -> [u8; 32] {
        self.digest(credentials, address, &[])
    }

    /// A key for one password check: the credentials, the address and the stored
    /// hash they are checked against (`None` for an unknown name), so that equal
    /// checks in flight at once run once (auth::SignInGuard::check_once).
    pub fn check_key(
        &self,
        credentials: &BasicCredentials,
        address: IpAddr,
        stored_hash: Option<&str>,
    ) -> [u8; 32] {
        let stored = stored_hash.map_or(&b"\0unknown"[..], str::as_bytes);
        self.digest(credentials, address, &[b"check", stored])
    }

    fn digest(&self, credentials: &BasicCredentials, address: IpAddr, more: &[&[u8]]) -> [u8; 32] {
        let mut mac =
            <Hmac<Sha256> as Mac>::new_from_slice(&self.secret).expect("HMAC takes any key");
        let address = address.to_string();
        let parts = [
            credentials.username.as_bytes(),
            credentials.password.as_bytes(),
            address.as_bytes(),
        ];
        for part in parts.iter().chain(more) {
            mac.update(&(part.len() as u64).to_le_bytes());
            mac.update(part);
        }
        mac.finalize().into_bytes().into()
    }

    /// Who `credentials` were verified as from `address`, if that was recent and
    /// the account was read within `account_ttl` and since the last account change
    /// (`generation`): no need to read it again.
    pub fn recent_principal(
        &self,
        credentials: &BasicCredentials,
        address: IpAddr,
        generation: u64,
    ) -> Option<Principal> {
        let entry = self.verified.get(&self.key(credentials, address))?;
        let fresh = entry.generation == generation && entry.read_at.elapsed() < self.account_ttl;
        fresh.then_some(entry.principal)
    }

    /// Whether `credentials` were found, recently and from `address`, to match
    /// `stored_hash`, the account's hash as read now.
    /// Whether `credentials` from `address` have a session at all, whatever the
    /// account's hash is now: what decides whether an attempt from a flooding
    /// address is worth reading the account for (`feeds::pipeline::gate`).
    pub fn has_session(&self, credentials: &BasicCredentials, address: IpAddr) -> bool {
        self.verified.contains_key(&self.key(credentials, address))
    }

    pub fn is_verified(
        &self,
        credentials: &BasicCredentials,
        stored_hash: &str,
        address: IpAddr,
    ) -> bool {
        self.verified
            .get(&self.key(credentials, address))
            .is_some_and(|entry| entry.password_hash == stored_hash)
    }

    /// Remembers that `credentials` from `address` match `stored_hash`, the hash of
    /// the account of `principal` as just read.
    pub fn remember(
        &self,
        credentials: &BasicCredentials,
        stored_hash: &str,
        principal: &Principal,
        address: IpAddr,
        generation: u64,
    ) {
        let entry = Verified {
            password_hash: stored_hash.to_owned(),
            principal: principal.clone(),
            read_at: Instant::now(),
            generation,
        };
        self.verified.insert(self.key(credentials, address), entry);
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

    fn principal() -> Principal {
        Principal {
            account_id: 1,
            username: "ann".into(),
            area: crate::model::area::CustomerArea::new(1),
            role: crate::model::access::Role::Scorer,
        }
    }

    #[test]
    fn a_cached_entry_is_missed_by_a_wrong_or_changed_password() {
        let cache = CredentialCache::new(Duration::from_secs(60), Duration::from_secs(60));
        let right = BasicCredentials {
            username: "ann".into(),
            password: "right".into(),
        };
        let here = IpAddr::from([10, 0, 0, 1]);
        cache.remember(&right, "$hash-1", &principal(), here, 0);
        assert!(cache.is_verified(&right, "$hash-1", here));
        assert!(
            !cache.is_verified(&right, "$hash-1", IpAddr::from([10, 0, 0, 2])),
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

    #[test]
    fn the_account_is_known_without_a_read_until_it_is_stale_or_an_account_changed() {
        let cache = CredentialCache::new(Duration::from_secs(60), Duration::from_millis(50));
        let ann = BasicCredentials {
            username: "ann".into(),
            password: "right".into(),
        };
        let here = IpAddr::from([10, 0, 0, 1]);
        assert!(cache.recent_principal(&ann, here, 0).is_none());
        cache.remember(&ann, "$hash-1", &principal(), here, 7);
        let known = cache.recent_principal(&ann, here, 7).expect("fresh");
        assert_eq!(known.username, "ann");
        assert!(
            cache.recent_principal(&ann, here, 8).is_none(),
            "an account changed in this process: read again"
        );
        assert!(cache
            .recent_principal(&ann, IpAddr::from([10, 0, 0, 2]), 7)
            .is_none());
        std::thread::sleep(Duration::from_millis(60));
        assert!(
            cache.recent_principal(&ann, here, 7).is_none(),
            "past the account's lifetime: read again"
        );
        assert!(
            cache.is_verified(&ann, "$hash-1", here),
            "the password itself stays verified for its own lifetime"
        );
    }
}
