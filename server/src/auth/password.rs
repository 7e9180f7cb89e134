//! Password hashing with argon2id (the crate's recommended parameters).

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;

/// Hashes `password` into a PHC string (algorithm, parameters, salt and hash).
pub fn hash_password(password: &str) -> anyhow::Result<String> {
    let salt = SaltString::generate(&mut OsRng);
    let hash = Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map_err(|e| anyhow::anyhow!("hashing the password failed: {e}"))?;
    Ok(hash.to_string())
}

/// A hash that no password matches, made with the same parameters as real ones:
/// checking an unknown account name against it costs what checking a known one does,
/// so answer times do not tell which names exist.
pub fn dummy_hash() -> &'static str {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DUMMY.get_or_init(|| {
        let unguessable: [u8; 32] = rand::random();
        hash_password(&format!("{unguessable:?}")).expect("hashing a random password")
    })
}

/// Whether `password` matches the stored PHC string. A malformed stored hash never matches.
pub fn verify_password(password: &str, stored: &str) -> bool {
    PasswordHash::new(stored)
        .map(|parsed| {
            Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
        })
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hashed_password_verifies_and_a_different_one_does_not() {
        let stored = hash_password("correct horse").unwrap();
        assert!(stored.starts_with("$argon2id$"));
        assert!(verify_password("correct horse", &stored));
        assert!(!verify_password("correct horsE", &stored));
    }

    #[test]
    fn the_dummy_hash_has_the_parameters_of_a_real_one() {
        let real = hash_password("x").unwrap();
        let parameters = |hash: &str| hash.rsplitn(3, '$').nth(2).unwrap().to_owned();
        assert_eq!(parameters(dummy_hash()), parameters(&real));
        assert!(!verify_password("", dummy_hash()));
    }

    #[test]
    fn a_malformed_stored_hash_never_matches() {
        assert!(!verify_password("", "not a hash"));
    }
}
