//! What the load knows it wrote, kept apart from the server, so that the database
//! can be reconciled against it at the end: no write lost, none doubled.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// A scoring task, as (QuestionID, ResultID).
pub type Task = (i64, i64);

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scored {
    pub score: i64,
    /// The comment of the ScoringResult PUT that won (owner or rival).
    pub comment: String,
}

/// A marking the load submitted: of a task kept for a second marking (round 1,
/// the scorer's own marks), or of a round taken from the queue (2 or 3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Marked {
    pub round: i64,
    pub marker: String,
    pub total: i64,
}

#[derive(Clone, Copy, Debug)]
pub struct Uploaded {
    pub result: i64,
    pub expected_total: i64,
}

#[derive(Default)]
pub struct Ledger {
    /// Tasks set to Status 3, with their ScoringResult as last written.
    pub scored: Mutex<BTreeMap<Task, Scored>>,
    /// Tasks claimed (Status 1) and not finished when the load stopped.
    pub claimed: Mutex<BTreeSet<Task>>,
    /// The markings of double-marked tasks, by task: the scorer's first (his
    /// finish kept the task at 2) and each round taken and submitted.
    pub markings: Mutex<BTreeMap<Task, Vec<Marked>>>,
    /// Rounds taken and not submitted when the load stopped: (task, marker).
    pub rounds_taken: Mutex<BTreeSet<(Task, String)>>,
    /// The lead's seeds, by task, with their definitive totals.
    pub seeds: Mutex<BTreeMap<Task, i64>>,
    /// Seed copies scored (found in the seed group), by result: marker and total.
    pub copies_scored: Mutex<BTreeMap<i64, (String, i64)>>,
    /// A rival's saves of another scorer's seed copy (each must be 404).
    pub copy_saves_hidden: AtomicU64,
    /// Pauses the lead released.
    pub releases: AtomicU64,
    /// Takes, finishes and rounds refused (403) because the marker was paused.
    pub refused_paused: AtomicU64,
    /// Takes that lost to another marker's (409), as they may.
    pub takes_lost: AtomicU64,
    /// Accepted uploads, by AttemptID.
    pub uploads: Mutex<BTreeMap<i64, Uploaded>>,
    /// Results whose purge finished successfully.
    pub purged: Mutex<BTreeSet<i64>>,
    /// Imports: (customer area, questions created).
    pub imports: Mutex<Vec<(i32, usize)>>,
    pub races: AtomicU64,
    /// Races where both PUTs succeeded (a doubled write) or neither did.
    pub races_broken: AtomicU64,
    pub replays: AtomicU64,
    pub refused_uploads: AtomicU64,
    pub second_uploads: AtomicU64,
}

pub fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

impl Ledger {
    pub fn count(counter: &AtomicU64) -> u64 {
        counter.load(Ordering::Relaxed)
    }

    pub fn add(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }
}
