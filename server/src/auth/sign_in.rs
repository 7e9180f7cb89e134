//! The line for password checks, so that they cannot be turned against the server.
//!
//! Each check is an argon2 hash (about 19 MiB and tens of milliseconds of CPU, on
//! purpose). Without a bound, a few hundred concurrent wrong passwords exhaust
//! memory and threads (issue 10 measured 5.2 GB from 64). So hashes run on
//! `at_once` threads of their own, and at most `waiting` more sign-ins wait their
//! turn; beyond that a sign-in is refused at once with 429. The threads are fixed,
//! not borrowed from tokio's blocking pool: the allocator keeps a hash's memory in
//! the arena of the thread that ran it, so memory grows with the number of threads
//! that ever hashed, not with the hashes in flight.
//!
//! One address holds at most a quarter of the line's places at once, so that a
//! flood from one address (before its failures reach their limit) cannot take
//! every place from the sign-ins of other addresses.
//!
//! An unknown account name waits in the same line, so that its answer takes as long
//! as a known one's, but gives its place up as soon as its turn comes and then only
//! sleeps as long as one of the last real hashes took, drawn at random (within
//! their middle half): a flood of
//! made-up names costs the guesser time, not the threads the next real sign-in
//! needs, and its answer times follow the real ones' spread.
//!
//! Equal checks in flight at once (a client that opens with ten requests before its
//! first answer) run once and share the answer, so that they take one place in
//! the line and count one failure at most.
//!
//! Which attempts get a check at all is [`super::guesses`]'s decision.

use std::collections::VecDeque;
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use moka::sync::Cache;
use tokio::sync::{OnceCell, OwnedSemaphorePermit, Semaphore};

pub use super::guesses::GuessLimits;
use super::guesses::Guesses;
use super::password::{dummy_hash, verify_password};

/// The limits, from the settings (docs/operations.md, "Sign-in limits").
#[derive(Debug, Clone, Copy)]
pub struct SignInLimits {
    pub at_once: usize,
    pub waiting: usize,
    pub guesses: GuessLimits,
}

/// Why a sign-in was refused before its password was checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Too many failures for this account or address: wait `retry_after`.
    TooManyFailures { retry_after: Duration },
    /// Too many password checks in progress already.
    Busy,
}

/// The shared state of the limits; cheap to clone.
#[derive(Clone)]
pub struct SignInGuard {
    /// What the failures so far allow (auth::guesses).
    pub guesses: Guesses,
    hashing: Arc<Semaphore>,
    /// Admission: hashing plus waiting. Holding one of these is being in line.
    admitted: Arc<Semaphore>,
    /// The threads hashes run on, as many as `hashing` has permits.
    hashers: Arc<rayon::ThreadPool>,
    /// Places in the line each address holds now.
    places: Cache<IpAddr, Arc<AtomicUsize>>,
    places_per_address: usize,
    /// Checks in flight, by `CredentialCache::check_key` (bounded in time too, in
    /// case a waiter's request is dropped before it removes its entry).
    in_flight: Cache<[u8; 32], Arc<OnceCell<bool>>>,
    /// How long the last hashes took; empty until the first one.
    hash_times: Arc<HashTimes>,
}

/// Being in line for a password check, and then holding one of its slots.
pub struct CheckSlot {
    _admitted: OwnedSemaphorePermit,
    _hashing: OwnedSemaphorePermit,
    _place: AddressPlace,
}

/// One of an address's places in the line, given back when dropped.
struct AddressPlace(Arc<AtomicUsize>);

impl Drop for AddressPlace {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
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
            guesses: Guesses::new(limits.guesses),
            hashing: Arc::new(Semaphore::new(at_once)),
            admitted: Arc::new(Semaphore::new(at_once + limits.waiting)),
            hashers: Arc::new(hashers),
            places: Cache::builder()
                .max_capacity(100_000)
                .time_to_idle(Duration::from_secs(60))
                .build(),
            places_per_address: ((at_once + limits.waiting) / 4).max(1),
            in_flight: Cache::builder()
                .max_capacity(10_000)
                .time_to_live(Duration::from_secs(30))
                .build(),
            hash_times: Arc::default(),
        }
    }

    /// Whether `password` is the one of `stored` (`None`: an unknown name), checked
    /// under the limits for `username` from `address`, once for all equal checks in
    /// flight (`key`). A failure is counted and logged by the check that ran.
    pub async fn check_once(
        &self,
        key: [u8; 32],
        username: &str,
        address: IpAddr,
        password: &str,
        stored: Option<String>,
    ) -> Result<bool, Refusal> {
        let cell = self.in_flight.get_with(key, Default::default);
        let check = || async {
            let delay = self.guesses.before_check(username, address)?;
            // Counted as a failure until it proves otherwise; forgiven if it is
            // refused, signs in, or its client hangs up first.
            let attempt = Attempt {
                guesses: &self.guesses,
                username,
                address,
                failed: false,
            };
            let known = stored.is_some();
            self.guesses.wait(delay, address).await?;
            let slot = self.slot(address).await?;
            let matches = self.check(slot, password.to_owned(), stored).await;
            if !matches {
                attempt.fail();
                tracing::warn!(%username, %address, known_account = known, "failed sign-in");
            }
            Ok(matches)
        };
        let answer = cell.get_or_try_init(check).await.copied();
        // Only checks in flight are shared: the next attempt is checked (and
        // counted) again.
        self.in_flight.invalidate(&key);
        answer
    }

    /// Waits for a slot to check a password in: refused at once when the line is
    /// full, or `address` holds its share of it already.
    async fn slot(&self, address: IpAddr) -> Result<CheckSlot, Refusal> {
        let held = self
            .places
            .get_with(address, || Arc::new(AtomicUsize::new(0)));
        let place = AddressPlace(held);
        if place.0.fetch_add(1, Ordering::AcqRel) >= self.places_per_address {
            return Err(Refusal::Busy);
        }
        let admitted = Arc::clone(&self.admitted)
            .try_acquire_owned()
            .map_err(|_| Refusal::Busy)?;
        let hashing = Arc::clone(&self.hashing)
            .acquire_owned()
            .await
            .expect("the hashing semaphore is never closed");
        Ok(CheckSlot {
            _admitted: admitted,
            _hashing: hashing,
            _place: place,
        })
    }

    /// Whether `password` matches `stored` (the account's hash, `None` for an
    /// unknown name), checked in `slot`. The slot is held until the hash is done (a
    /// client that hangs up does not free it while the hash still runs).
    async fn check(&self, slot: CheckSlot, password: String, stored: Option<String>) -> bool {
        if stored.is_none() {
            if let Some(took) = self.hash_times.one() {
                drop(slot);
                tokio::time::sleep(took).await;
                return false;
            }
        }
        let (done, outcome) = tokio::sync::oneshot::channel();
        let hash_times = Arc::clone(&self.hash_times);
        self.hashers.spawn(move || {
            let started = Instant::now();
            let matches = verify_password(&password, stored.as_deref().unwrap_or(dummy_hash()));
            hash_times.record(started.elapsed());
            drop(slot);
            let _ = done.send(matches && stored.is_some());
        });
        outcome
            .await
            .expect("a password-check thread always answers")
    }
}

/// An attempt counted as a failure in advance (auth::guesses).
struct Attempt<'a> {
    guesses: &'a Guesses,
    username: &'a str,
    address: IpAddr,
    failed: bool,
}

impl Attempt<'_> {
    fn fail(mut self) {
        self.failed = true;
    }
}

impl Drop for Attempt<'_> {
    fn drop(&mut self) {
        if !self.failed {
            self.guesses.forgive(self.username, self.address);
        }
    }
}

/// The times of the last [`KEPT_TIMES`] hashes.
#[derive(Default)]
struct HashTimes(Mutex<VecDeque<Duration>>);

const KEPT_TIMES: usize = 32;

impl HashTimes {
    fn record(&self, took: Duration) {
        let mut times = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if times.len() == KEPT_TIMES {
            times.pop_front();
        }
        times.push_back(took);
    }

    /// One of the recorded times, drawn at random and kept within their middle
    /// half (the first hash of a process, cold, takes three times as long); `None`
    /// before the first.
    fn one(&self) -> Option<Duration> {
        let mut times: Vec<Duration> = self
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .copied()
            .collect();
        if times.is_empty() {
            return None;
        }
        times.sort();
        let (low, high) = (times[times.len() / 4], times[(times.len() * 3) / 4]);
        Some(times[rand::random_range(0..times.len())].clamp(low, high))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guard(at_once: usize, waiting: usize) -> SignInGuard {
        SignInGuard::new(SignInLimits {
            at_once,
            waiting,
            guesses: GuessLimits {
                per_pair: 3,
                per_address: 5,
                window: Duration::from_secs(60),
            },
        })
    }

    fn address(last: u8) -> IpAddr {
        IpAddr::from([10, 0, 0, last])
    }

    #[tokio::test]
    async fn the_line_for_password_checks_is_bounded() {
        let guard = guard(1, 3);
        let first = guard.slot(address(1)).await.unwrap();
        let waiting = tokio::spawn({
            let guard = guard.clone();
            async move { guard.slot(address(2)).await.map(drop) }
        });
        tokio::task::yield_now().await;
        while guard.admitted.available_permits() > 2 {
            tokio::task::yield_now().await;
        }
        assert_eq!(
            guard.slot(address(1)).await.err(),
            Some(Refusal::Busy),
            "address 1 holds its one place of four"
        );
        let more: Vec<_> = (3..5)
            .map(|n| {
                let guard = guard.clone();
                tokio::spawn(async move { guard.slot(address(n)).await.map(drop) })
            })
            .collect();
        while guard.admitted.available_permits() > 0 {
            tokio::task::yield_now().await;
        }
        assert_eq!(
            guard.slot(address(5)).await.err(),
            Some(Refusal::Busy),
            "the line is full"
        );
        drop(first);
        assert_eq!(waiting.await.unwrap(), Ok(()));
        for other in more {
            assert_eq!(other.await.unwrap(), Ok(()));
        }
        assert!(
            guard.slot(address(1)).await.is_ok(),
            "its place was given back"
        );
    }

    #[tokio::test]
    async fn an_unknown_name_gives_its_slot_up_and_takes_as_long_as_a_hash() {
        let guard = guard(1, 0);
        let hash = crate::auth::hash_password("right").unwrap();
        let slot = guard.slot(address(1)).await.unwrap();
        let started = Instant::now();
        assert!(guard.check(slot, "right".into(), Some(hash)).await);
        let hashed = started.elapsed();
        let slot = guard.slot(address(1)).await.unwrap();
        let started = Instant::now();
        let unknown = guard.check(slot, "right".into(), None);
        tokio::pin!(unknown);
        // While it sleeps, its slot is free for a real sign-in.
        tokio::select! {
            biased;
            _ = &mut unknown => panic!("an unknown name answers no sooner than a hash"),
            slot = guard.slot(address(2)) => assert!(slot.is_ok()),
        }
        assert!(!unknown.await, "an unknown name never signs in");
        let slept = started.elapsed();
        let ratio = slept.as_secs_f64() / hashed.as_secs_f64();
        assert!((0.5..2.0).contains(&ratio), "{slept:?} against {hashed:?}");
    }

    #[tokio::test]
    async fn equal_checks_in_flight_run_once_and_count_once() {
        let guard = guard(1, 0);
        let hash = crate::auth::hash_password("right").unwrap();
        let checks = (0..10)
            .map(|_| guard.check_once([7; 32], "ann", address(1), "wrong", Some(hash.clone())));
        let answers = futures::future::join_all(checks).await;
        assert!(answers.iter().all(|a| *a == Ok(false)), "{answers:?}");
        for _ in 0..2 {
            assert!(guard.guesses.before_check("ann", address(1)).is_ok());
        }
        assert!(
            guard.guesses.before_check("ann", address(1)).is_err(),
            "one failure from the ten, two more: the limit of three"
        );
    }

    #[test]
    fn an_unknown_name_sleeps_one_of_the_last_hash_times() {
        let times = HashTimes::default();
        assert_eq!(times.one(), None);
        for ms in 0..40 {
            times.record(Duration::from_millis(ms));
        }
        for _ in 0..100 {
            let drawn = times.one().unwrap();
            assert!(
                drawn >= Duration::from_millis(8),
                "only the last 32 are kept: {drawn:?}"
            );
        }
    }
}
