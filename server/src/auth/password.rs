//! Password hashing with argon2id (the crate's recommended parameters).

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{Output, PasswordHash, PasswordHasher, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};

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

/// The most memory one check may use, in argon2 blocks of 1 KiB: a stored hash that
/// asks for more is refused rather than allowed to allocate it.
const MAX_BLOCKS: usize = 256 * 1024;

thread_local! {
    /// The memory this thread hashes in, kept from one check to the next. Allocating
    /// 19 MiB per check instead leaves each one in the allocator's arenas (see
    /// `sign_in`): reusing it keeps a checking thread at one hash's memory.
    static MEMORY: std::cell::RefCell<Vec<Block>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Whether `password` matches the stored PHC string. A malformed stored hash never
/// matches. The hash runs in this thread's reused memory; the comparison is the
/// constant-time one of `password_hash::Output`.
pub fn verify_password(password: &str, stored: &str) -> bool {
    MEMORY.with(|memory| verify_in(password, stored, &mut memory.borrow_mut()).unwrap_or(false))
}

fn verify_in(password: &str, stored: &str, memory: &mut Vec<Block>) -> Option<bool> {
    let parsed = PasswordHash::new(stored).ok()?;
    let expected = parsed.hash?;
    let algorithm = Algorithm::try_from(parsed.algorithm).ok()?;
    let version = match parsed.version {
        Some(version) => Version::try_from(version).ok()?,
        None => Version::default(),
    };
    let params = Params::try_from(&parsed).ok()?;
    let mut salt = [0u8; 64];
    let salt = parsed.salt?.decode_b64(&mut salt).ok()?;
    let blocks = params.block_count();
    if blocks > MAX_BLOCKS {
        return None;
    }
    if memory.len() < blocks {
        memory.resize(blocks, Block::default());
    }
    let mut computed = vec![0u8; expected.len()];
    Argon2::new(algorithm, version, params)
        .hash_password_into_with_memory(
            password.as_bytes(),
            salt,
            &mut computed,
            &mut memory[..blocks],
        )
        .ok()?;
    Some(Output::new(&computed).ok()? == expected)
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
    fn checks_in_reused_memory_agree_with_the_crates_own_verifier() {
        use argon2::PasswordVerifier;
        let stored = hash_password("correct horse").unwrap();
        let parsed = PasswordHash::new(&stored).unwrap();
        for guess in ["correct horse", "correct horsE", "", "correct horse "] {
            let theirs = Argon2::default()
                .verify_password(guess.as_bytes(), &parsed)
                .is_ok();
            assert_eq!(verify_password(guess, &stored), theirs, "{guess:?}");
            assert_eq!(
                verify_password(guess, &stored),
                theirs,
                "again, reusing: {guess:?}"
            );
        }
    }

    #[test]
    fn a_malformed_stored_hash_never_matches() {
        assert!(!verify_password("", "not a hash"));
    }
}
