//! Limits on password checks, so that they cannot be turned against the server.
//!
//! Each check is an argon2 hash (about 19 MiB and tens of milliseconds of CPU, on
//! purpose). Without limits, a few hundred concurrent wrong passwords exhaust memory
//! and threads (issue 10 measured 5.2 GB from 64). So:
//! - hashes run on `at_once` threads of their own, and at most `waiting` more
//!   sign-ins wait their turn; beyond that a sign-in is refused at once with 429. The
//!   threads are fixed, not borrowed from tokio's blocking pool: the allocator keeps
//!   a hash's memory in the arena of the thread that ran it, so memory grows with the
//!   number of threads that ever hashed (348 MB with two hashes at once spread over
//!   tokio's threads, in the flood test), not with the hashes in flight;
//! - failed sign-ins are counted per account name and per client address in a fixed
//!   window; once either reaches its limit, further attempts get 429 with
//!   `Retry-After` *before* any hash is spent, until the window ends. An address over
//!   its limit is refused even credentials verified before, and attempts refused for
//!   the account's limit count against the address: otherwise a guess could still be
//!   tested, at no cost, against a remembered session from that address;
//! - an unknown account name costs the same hash as a known one (against a dummy
//!   hash), so answer times do not tell which names exist.
//!
//! Credentials verified before from the same address are remembered
//! (`CredentialCache`), so a scorer who signed in keeps working while a flood from
//! elsewhere is refused.

use std::net::IpAddr;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use moka::sync::Cache;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The limits, from the settings (docs/operations.md, "Sign-in limits").
#[derive(Debug, Clone, Copy)]
pub struct SignInLimits {
    pub at_once: usize,
    pub waiting: usize,
    pub failures_per_account: u32,
    pub failures_per_address: u32,
    pub window: Duration,
}

/// Why a sign-in was refused before its password was checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Too many failures for this account name or address: wait `retry_after`.
    TooManyFailures { retry_after: Duration },
    /// Too many password checks in progress already.
    Busy,
}

/// What is counted: the account name as typed, and the client's address.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Counted {
    Account(String),
    Address(IpAddr),
}

struct Window {
    started: Instant,
    failures: AtomicU32,
}

/// The shared state of the limits; cheap to clone.
#[derive(Clone)]
pub struct SignInGuard {
    limits: SignInLimits,
    hashing: Arc<Semaphore>,
    /// Admission: hashing plus waiting. Holding one of these is being in line.
    admitted: Arc<Semaphore>,
    /// The threads hashes run on, as many as `hashing` has permits.
    hashers: Arc<rayon::ThreadPool>,
    /// Bounded and expiring: a flood of made-up names cannot grow it without limit.
    windows: Cache<Counted, Arc<Window>>,
}

/// The most account names and addresses whose failures are remembered at once.
const MAX_COUNTED: u64 = 50_000;

/// Being in line for a password check, and then holding one of its slots.
pub struct CheckSlot {
    _admitted: OwnedSemaphorePermit,
    _hashing: OwnedSemaphorePermit,
}

impl SignInGuard {
    pub fn new(limits: SignInLimits) -> Self {
        let at_once = limits.at_once.max(1);
        let hashers = rayon::ThreadPoolBuilder::new()
            .num_threads(at_once)
            .thread_name(|n| format!("password-check-{n}"))
            .build()
            .expect("starting the password-check threads");
        Self {
            limits,
            hashing: Arc::new(Semaphore::new(at_once)),
            admitted: Arc::new(Semaphore::new(at_once + limits.waiting)),
            hashers: Arc::new(hashers),
            windows: Cache::builder()
                .max_capacity(MAX_COUNTED)
                .time_to_live(limits.window)
                .build(),
        }
    }

    /// Refuses an address that has used up its failures: before anything else, even
    /// credentials verified before.
    pub fn check_address(&self, address: Option<IpAddr>) -> Result<(), Refusal> {
        let Some(address) = address else {
            return Ok(());
        };
        self.refusal(&Counted::Address(address), self.limits.failures_per_address)
    }

    /// Refuses an account name that has used up its failures; the refused attempt
    /// counts against the address, so that guesses stay limited there.
    pub fn check_account(&self, username: &str, address: Option<IpAddr>) -> Result<(), Refusal> {
        let refused = self.refusal(
            &Counted::Account(username.to_owned()),
            self.limits.failures_per_account,
        );
        if refused.is_err() {
            if let Some(address) = address {
                self.count(Counted::Address(address));
            }
        }
        refused
    }

    fn refusal(&self, counted: &Counted, limit: u32) -> Result<(), Refusal> {
        match self.windows.get(counted) {
            Some(window) if window.failures.load(Ordering::Relaxed) >= limit => {
                Err(Refusal::TooManyFailures {
                    retry_after: self.limits.window.saturating_sub(window.started.elapsed()),
                })
            }
            _ => Ok(()),
        }
    }

    /// Waits for a slot to check a password in: refused at once when the line is full,
    /// and again after waiting if failures meanwhile used up the limits.
    pub async fn slot(
        &self,
        username: &str,
        address: Option<IpAddr>,
    ) -> Result<CheckSlot, Refusal> {
        self.check_address(address)?;
        self.check_account(username, address)?;
        let admitted = Arc::clone(&self.admitted)
            .try_acquire_owned()
            .map_err(|_| Refusal::Busy)?;
        let hashing = Arc::clone(&self.hashing)
            .acquire_owned()
            .await
            .expect("the hashing semaphore is never closed");
        self.check_address(address)?;
        self.check_account(username, address)?;
        Ok(CheckSlot {
            _admitted: admitted,
            _hashing: hashing,
        })
    }

    /// Runs `check` on a password-check thread, holding `slot` until it is done (a
    /// client that hangs up does not free the slot while the hash still runs).
    pub async fn run<T: Send + 'static>(
        &self,
        slot: CheckSlot,
        check: impl FnOnce() -> T + Send + 'static,
    ) -> T {
        let (done, outcome) = tokio::sync::oneshot::channel();
        self.hashers.spawn(move || {
            let result = check();
            drop(slot);
            let _ = done.send(result);
        });
        outcome
            .await
            .expect("a password-check thread always answers")
    }

    /// Counts a failed sign-in against the account name and the address.
    pub fn record_failure(&self, username: &str, address: Option<IpAddr>) {
        self.count(Counted::Account(username.to_owned()));
        if let Some(address) = address {
            self.count(Counted::Address(address));
        }
    }

    fn count(&self, counted: Counted) {
        let window = self.windows.get_with(counted, || {
            Arc::new(Window {
                started: Instant::now(),
                failures: AtomicU32::new(0),
            })
        });
        window.failures.fetch_add(1, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guard(at_once: usize, waiting: usize) -> SignInGuard {
        SignInGuard::new(SignInLimits {
            at_once,
            waiting,
            failures_per_account: 3,
            failures_per_address: 5,
            window: Duration::from_secs(60),
        })
    }

    fn address(last: u8) -> Option<IpAddr> {
        Some(IpAddr::from([10, 0, 0, last]))
    }

    #[test]
    fn an_account_name_is_refused_after_its_failures_until_the_window_ends() {
        let guard = guard(1, 1);
        for _ in 0..3 {
            assert_eq!(guard.check_account("ann", address(1)), Ok(()));
            guard.record_failure("ann", address(1));
        }
        let Err(Refusal::TooManyFailures { retry_after }) = guard.check_account("ann", address(2))
        else {
            panic!("the fourth attempt must be refused, from any address")
        };
        assert!(retry_after > Duration::from_secs(55) && retry_after <= Duration::from_secs(60));
        assert_eq!(
            guard.check_account("bob", address(2)),
            Ok(()),
            "other names are not"
        );
    }

    #[test]
    fn an_address_is_refused_after_its_failures_whatever_the_name() {
        let guard = guard(1, 1);
        for name in ["a", "b", "c", "d", "e"] {
            guard.record_failure(name, address(9));
        }
        assert!(guard.check_address(address(9)).is_err());
        assert_eq!(guard.check_address(address(8)), Ok(()));
        assert_eq!(guard.check_address(None), Ok(()));
    }

    #[test]
    fn attempts_refused_for_the_account_count_against_the_address() {
        let guard = guard(1, 1);
        for _ in 0..3 {
            guard.record_failure("ann", address(1));
        }
        // 3 failures at the address; each refusal for the account adds one.
        assert!(guard.check_account("ann", address(1)).is_err());
        assert_eq!(guard.check_address(address(1)), Ok(()));
        assert!(guard.check_account("ann", address(1)).is_err());
        assert!(
            guard.check_address(address(1)).is_err(),
            "5 attempts: the address waits"
        );
    }

    #[tokio::test]
    async fn the_line_for_password_checks_is_bounded() {
        let guard = guard(1, 1);
        let first = guard.slot("a", None).await.unwrap();
        let waiting = tokio::spawn({
            let guard = guard.clone();
            async move { guard.slot("b", None).await.map(drop) }
        });
        tokio::task::yield_now().await;
        while guard.admitted.available_permits() > 0 {
            tokio::task::yield_now().await;
        }
        assert_eq!(guard.slot("c", None).await.err(), Some(Refusal::Busy));
        drop(first);
        assert_eq!(waiting.await.unwrap(), Ok(()));
    }
}
