//! The people the soak plays, each a task looping until the end: scorers (who
//! also mark second and third rounds and are served check scripts), a lead
//! marker who releases those the check scripts paused, coordinators, an administrator, readers, a password flood, newcomers signing
//! in during it, and an operator importing QTI packages with the CLI.

pub mod admin;
pub mod coordinator;
pub mod flood;
pub mod importer;
pub mod lead;
pub mod newcomer;
pub mod reader;
pub mod scorer;
pub mod second_marker;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::Rng;

use crate::ledger::Ledger;
use crate::recorder::Recorder;

/// The address the flood comes from; some real people share it, as in a school.
pub const FLOOD_ADDRESS: &str = "203.0.113.66";

/// What every actor shares.
pub struct Load {
    pub ledger: Ledger,
    pub recorder: Arc<Recorder>,
    pub stopping: AtomicBool,
    pub started: Instant,
    /// Every result up to this one existed when the load began: a newer one in
    /// the seed group is a seed copy served to the scorer who finds it.
    pub copies_after: i64,
}

impl Load {
    pub fn stopping(&self) -> bool {
        self.stopping.load(Ordering::Relaxed)
    }

    /// Whether the wrong-password flood runs now: minutes 3 to 6 of every ten, so
    /// that the windows the verdict compares (minutes 10 to 20, the last ten)
    /// hold as much flood as each other.
    pub fn flooding(&self) -> bool {
        let minute = self.started.elapsed().as_secs() / 60;
        (3..6).contains(&(minute % 10))
    }

    /// How long ago the last flood stopped (minute 6 of the ten), when none runs.
    pub fn since_flood(&self) -> Option<Duration> {
        let elapsed = self.started.elapsed();
        let minute = elapsed.as_secs() / 60;
        (!self.flooding() && minute % 10 >= 6).then(|| {
            let stopped = (minute - minute % 10 + 6) * 60;
            elapsed.saturating_sub(Duration::from_secs(stopped))
        })
    }

    /// Sleeps `from` to `to` milliseconds, or less if the load is stopping.
    pub async fn pause(&self, from: u64, to: u64) {
        let millis = rand::rng().random_range(from..=to);
        let until = Instant::now() + Duration::from_millis(millis);
        while Instant::now() < until && !self.stopping() {
            let left = until.saturating_duration_since(Instant::now());
            tokio::time::sleep(left.min(Duration::from_millis(500))).await;
        }
    }
}
