//! Counting wrong passwords so that guessing is stopped without stopping work.
//!
//! Failures are counted in fixed windows (`window`) under three keys, and each key
//! limits only whom it must (docs/operations.md, "Sign-in limits"):
//! - **the account from one address** (`per_pair`): past it, new sign-ins of that
//!   account from that address get 429 before any hash. Other addresses are not
//!   locked; a client whose credentials were verified before is still served.
//!   Each refused attempt counts on; at twice the limit the pair is *closed*, and
//!   even remembered credentials of that account from that address wait for the
//!   window's end. Without that, a guesser who shares the owner's address could
//!   test guesses against the owner's remembered session at request speed (a
//!   match is served, a miss refused): closing bounds that to `per_pair` more.
//! - **the account from everywhere** (`per_pair` too): past it, every password
//!   check of that account waits a short, bounded delay first ([`Delay`]), so that
//!   a new address slows a distributed guesser down without locking anyone out.
//! - **the address for every name** (`per_address`): past it, that address's
//!   password checks go one at a time, spaced so that it keeps exactly its
//!   allowance (`window / per_address` apart), with a short line and 429 beyond.
//!   A spray of made-up names from a shared school address thus slows the sprayer,
//!   while whoever was signed in there keeps working and a new sign-in from there
//!   is served within a few seconds of the spray ending.

use std::net::IpAddr;
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use moka::sync::Cache;

use super::Refusal;

/// The numbers, from the settings.
#[derive(Debug, Clone, Copy)]
pub struct GuessLimits {
    /// Failures of one account name from one address, and from all addresses.
    pub per_pair: u32,
    /// Failures from one address, whatever the name.
    pub per_address: u32,
    pub window: Duration,
}

/// The longest an account under attack delays a password check.
pub const MOST_DELAY: Duration = Duration::from_secs(3);
/// Password checks of a slowed address that may wait for their turn.
const ADDRESS_LINE: usize = 4;
/// The most keys counted at once: a flood of made-up names cannot grow it further.
const MAX_COUNTED: u64 = 100_000;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Counted {
    Pair(String, IpAddr),
    Account(String),
    Address(IpAddr),
}

struct Window {
    started: Instant,
    failures: AtomicU32,
}

/// An address over its allowance: its checks go one at a time, spaced.
struct AddressLane {
    next: tokio::sync::Mutex<tokio::time::Instant>,
    waiting: AtomicUsize,
}

/// What a password check must wait for before it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Delay {
    /// The account has failed past its limit from elsewhere: wait this long.
    pub account: Option<Duration>,
    /// The address has failed past its limit: take its lane.
    pub address_lane: bool,
}

#[derive(Clone)]
pub struct Guesses {
    limits: GuessLimits,
    windows: Cache<Counted, Arc<Window>>,
    lanes: Cache<IpAddr, Arc<AddressLane>>,
}

impl Guesses {
    pub fn new(limits: GuessLimits) -> Self {
        let limits = GuessLimits {
            per_pair: limits.per_pair.max(1),
            per_address: limits.per_address.max(1),
            window: limits.window.max(Duration::from_secs(1)),
        };
        Self {
            limits,
            windows: Cache::builder()
                .max_capacity(MAX_COUNTED)
                .time_to_live(limits.window)
                .build(),
            // A lane outlives its address's window only while requests use it.
            lanes: Cache::builder()
                .max_capacity(MAX_COUNTED)
                .time_to_idle(limits.window)
                .build(),
        }
    }

    fn failures(&self, counted: &Counted) -> Option<(u32, Duration)> {
        self.windows.get(counted).map(|window| {
            let left = self.limits.window.saturating_sub(window.started.elapsed());
            (window.failures.load(Ordering::Relaxed), left)
        })
    }

    fn too_many(retry_after: Duration) -> Refusal {
        Refusal::TooManyFailures { retry_after }
    }

    /// Refuses everything of `name` from `address` once that pair is closed:
    /// checked before remembered credentials are.
    pub fn check_closed(&self, name: &str, address: IpAddr) -> Result<(), Refusal> {
        match self.failures(&Counted::Pair(name.to_owned(), address)) {
            Some((failures, left)) if failures >= 2 * self.limits.per_pair => {
                Err(Self::too_many(left))
            }
            _ => Ok(()),
        }
    }

    /// Refuses at once, before the account is even read, an attempt that would
    /// only be refused after it: `address` is past its failures and its lane is
    /// full. A flood from one address then costs no database read per guess (the
    /// soak measured the pool saturated by them). Attempts with a session skip
    /// this (`feeds::pipeline::gate`).
    pub fn check_lane_full(&self, address: IpAddr) -> Result<(), Refusal> {
        let over = self
            .failures(&Counted::Address(address))
            .is_some_and(|(failures, _)| failures >= self.limits.per_address);
        let full = self
            .lanes
            .get(&address)
            .is_some_and(|lane| lane.waiting.load(Ordering::Acquire) >= ADDRESS_LINE);
        if over && full {
            let spacing = self.limits.window / self.limits.per_address;
            return Err(Refusal::TooManyFailures {
                retry_after: spacing * ADDRESS_LINE as u32,
            });
        }
        Ok(())
    }

    /// Before a password is checked (the credentials were not verified before):
    /// refused while the pair is over its limit (which counts towards closing it),
    /// otherwise what the check must first wait for. An attempt let through is
    /// counted as a failure at once, so that attempts in flight together see each
    /// other; [`Guesses::forgive`] takes it back if it was not one.
    pub fn before_check(&self, name: &str, address: IpAddr) -> Result<Delay, Refusal> {
        let pair = Counted::Pair(name.to_owned(), address);
        if let Some((failures, left)) = self.failures(&pair) {
            if failures >= self.limits.per_pair {
                self.count(pair);
                return Err(Self::too_many(left));
            }
        }
        let account = self
            .failures(&Counted::Account(name.to_owned()))
            .filter(|(failures, _)| *failures >= self.limits.per_pair)
            .map(|(failures, _)| self.account_delay(failures));
        let address_lane = self
            .failures(&Counted::Address(address))
            .is_some_and(|(failures, _)| failures >= self.limits.per_address);
        self.record_failure(name, address);
        Ok(Delay {
            account,
            address_lane,
        })
    }

    /// One spacing of the account's allowance per limit's worth of failures, at
    /// most [`MOST_DELAY`].
    fn account_delay(&self, failures: u32) -> Duration {
        let spacing = self.limits.window / self.limits.per_pair;
        let multiples = failures / self.limits.per_pair;
        spacing.saturating_mul(multiples).min(MOST_DELAY)
    }

    /// Waits for `delay`, without holding anything another sign-in needs.
    pub async fn wait(&self, delay: Delay, address: IpAddr) -> Result<(), Refusal> {
        if let Some(pause) = delay.account {
            tokio::time::sleep(pause).await;
        }
        if delay.address_lane {
            self.take_lane(address).await?;
        }
        Ok(())
    }

    async fn take_lane(&self, address: IpAddr) -> Result<(), Refusal> {
        let spacing = self.limits.window / self.limits.per_address;
        let lane = self.lanes.get_with(address, || {
            Arc::new(AddressLane {
                next: tokio::sync::Mutex::new(tokio::time::Instant::now()),
                waiting: AtomicUsize::new(0),
            })
        });
        let _in_line = InLine::join(&lane, spacing)?;
        let mut next = lane.next.lock().await;
        tokio::time::sleep_until(*next).await;
        *next = tokio::time::Instant::now().max(*next) + spacing;
        Ok(())
    }

    /// Takes back what [`Guesses::before_check`] counted, for an attempt that
    /// signed in or was refused before its password was checked.
    pub fn forgive(&self, name: &str, address: IpAddr) {
        for counted in [
            Counted::Pair(name.to_owned(), address),
            Counted::Account(name.to_owned()),
            Counted::Address(address),
        ] {
            if let Some(window) = self.windows.get(&counted) {
                let _ = window
                    .failures
                    .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1));
            }
        }
    }

    /// Counts a wrong password (or an unknown name) against all three keys.
    fn record_failure(&self, name: &str, address: IpAddr) {
        self.count(Counted::Pair(name.to_owned(), address));
        self.count(Counted::Account(name.to_owned()));
        self.count(Counted::Address(address));
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

/// A place in an address's lane, given back however the wait ends (a client that
/// hangs up included).
struct InLine<'a>(&'a AddressLane);

impl<'a> InLine<'a> {
    fn join(lane: &'a AddressLane, spacing: Duration) -> Result<Self, Refusal> {
        if lane.waiting.fetch_add(1, Ordering::AcqRel) >= ADDRESS_LINE {
            lane.waiting.fetch_sub(1, Ordering::AcqRel);
            return Err(Refusal::TooManyFailures {
                retry_after: spacing * ADDRESS_LINE as u32,
            });
        }
        Ok(Self(lane))
    }
}

impl Drop for InLine<'_> {
    fn drop(&mut self) {
        self.0.waiting.fetch_sub(1, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guesses(per_pair: u32, per_address: u32, window: Duration) -> Guesses {
        Guesses::new(GuessLimits {
            per_pair,
            per_address,
            window,
        })
    }

    fn address(last: u8) -> IpAddr {
        IpAddr::from([10, 0, 0, last])
    }

    const NONE: Delay = Delay {
        account: None,
        address_lane: false,
    };

    #[test]
    fn an_account_is_refused_only_from_the_address_that_failed() {
        let g = guesses(3, 100, Duration::from_secs(60));
        for _ in 0..3 {
            assert_eq!(g.before_check("ann", address(1)), Ok(NONE));
        }
        let Err(Refusal::TooManyFailures { retry_after }) = g.before_check("ann", address(1))
        else {
            panic!("the guessing address must be refused")
        };
        assert!(retry_after > Duration::from_secs(55) && retry_after <= Duration::from_secs(60));
        let elsewhere = g
            .before_check("ann", address(2))
            .expect("not locked elsewhere");
        assert_eq!(
            elsewhere.account,
            Some(Duration::from_secs(20).min(MOST_DELAY)),
            "a new address waits a bounded delay"
        );
        assert_eq!(
            g.before_check("bob", address(1)),
            Ok(NONE),
            "other names are not"
        );
    }

    #[test]
    fn a_pair_closes_to_remembered_credentials_only_at_twice_its_limit() {
        let g = guesses(3, 100, Duration::from_secs(60));
        for _ in 0..3 {
            g.record_failure("ann", address(1));
        }
        for _ in 0..2 {
            assert!(g.before_check("ann", address(1)).is_err());
            assert_eq!(g.check_closed("ann", address(1)), Ok(()));
        }
        assert!(g.before_check("ann", address(1)).is_err());
        assert!(
            g.check_closed("ann", address(1)).is_err(),
            "six attempts: even a remembered session from there waits"
        );
        assert_eq!(g.check_closed("ann", address(2)), Ok(()));
    }

    #[test]
    fn the_account_delay_grows_with_the_failures_and_stays_bounded() {
        let g = guesses(10, 1000, Duration::from_secs(10));
        assert_eq!(g.account_delay(10), Duration::from_secs(1));
        assert_eq!(g.account_delay(25), Duration::from_secs(2));
        assert_eq!(g.account_delay(10_000), MOST_DELAY);
    }

    #[test]
    fn an_address_past_its_limit_takes_its_lane_whatever_the_name() {
        let g = guesses(100, 5, Duration::from_secs(60));
        for name in ["a", "b", "c", "d", "e"] {
            g.record_failure(name, address(9));
        }
        assert!(g.before_check("f", address(9)).unwrap().address_lane);
        assert!(!g.before_check("f", address(8)).unwrap().address_lane);
    }

    #[tokio::test]
    async fn a_flooding_address_whose_lane_is_full_is_refused_before_any_read() {
        // 5 per 500 ms.
        let g = guesses(100, 5, Duration::from_millis(500));
        let flooding = address(7);
        assert!(g.check_lane_full(flooding).is_ok());
        for n in 0..5 {
            g.before_check(&format!("guess-{n}"), flooding).unwrap();
        }
        assert!(
            g.check_lane_full(flooding).is_ok(),
            "past its failures, its lane still free"
        );
        g.take_lane(flooding).await.unwrap();
        let waiting: Vec<_> = (0..ADDRESS_LINE)
            .map(|_| {
                let g = g.clone();
                tokio::spawn(async move { g.take_lane(flooding).await })
            })
            .collect();
        while g
            .lanes
            .get(&flooding)
            .unwrap()
            .waiting
            .load(Ordering::Acquire)
            < ADDRESS_LINE
        {
            tokio::task::yield_now().await;
        }
        assert!(
            g.check_lane_full(flooding).is_err(),
            "refused without a read"
        );
        assert!(
            g.check_lane_full(address(8)).is_ok(),
            "another address is not"
        );
        for waiter in waiting {
            assert_eq!(waiter.await.unwrap(), Ok(()));
        }
        assert!(g.check_lane_full(flooding).is_ok(), "the lane drained");
    }

    #[tokio::test]
    async fn a_slowed_address_is_served_at_its_allowance_with_a_short_line() {
        // 5 per 500 ms: one check every 100 ms.
        let g = guesses(100, 5, Duration::from_millis(500));
        let started = tokio::time::Instant::now();
        for _ in 0..3 {
            g.take_lane(address(9)).await.unwrap();
        }
        assert!(started.elapsed() >= Duration::from_millis(200));
        let waiting: Vec<_> = (0..ADDRESS_LINE)
            .map(|_| {
                let g = g.clone();
                tokio::spawn(async move { g.take_lane(address(9)).await })
            })
            .collect();
        tokio::task::yield_now().await;
        while g
            .lanes
            .get(&address(9))
            .unwrap()
            .waiting
            .load(Ordering::Acquire)
            < ADDRESS_LINE
        {
            tokio::task::yield_now().await;
        }
        assert!(
            g.take_lane(address(9)).await.is_err(),
            "the line is full: refused at once"
        );
        for waiter in waiting {
            assert_eq!(waiter.await.unwrap(), Ok(()));
        }
        assert_eq!(
            g.lanes
                .get(&address(9))
                .unwrap()
                .waiting
                .load(Ordering::Acquire),
            0,
            "every place given back"
        );
    }
}
