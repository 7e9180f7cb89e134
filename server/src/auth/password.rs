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
    fn a_malformed_stored_hash_never_matches() {
        assert!(!verify_password("", "not a hash"));
    }
}
