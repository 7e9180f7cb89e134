//! How many results a purge removes in one transaction. Bigger groups are
//! cheaper per result (a commit and its WAL pages shared, one set-based statement
//! per table), but a group holds SQLite's one write lock for as long as it takes,
//! and writers (uploads, scorers' saves) wait behind it; so each group is sized
//! from the last one's pace to take about [`GroupSize::TARGET`].

use std::time::Duration;

/// The size of the next group, worked out from how long the last took.
#[derive(Debug, Clone, Copy)]
pub struct GroupSize {
    size: usize,
}

impl GroupSize {
    /// How long a group should hold the database's write lock.
    pub const TARGET: Duration = Duration::from_millis(50);
    /// The first group: small, so that a slow database is found out at once.
    pub const FIRST: usize = 32;
    pub const LEAST: usize = 4;
    /// The most results in one statement's `IN` list and one transaction.
    pub const MOST: usize = 1_000;

    pub fn new() -> Self {
        Self { size: Self::FIRST }
    }

    pub fn get(&self) -> usize {
        self.size
    }

    /// After a group of `removed` results took `took`: the pace it showed, taken
    /// to the target, but never more than doubled or halved at a step (one slow
    /// checkpoint does not send the size to the floor).
    pub fn after(&mut self, removed: usize, took: Duration) {
        if removed == 0 {
            return;
        }
        let per_result = took.as_secs_f64() / removed as f64;
        let fits = if per_result > 0.0 {
            (Self::TARGET.as_secs_f64() / per_result) as usize
        } else {
            Self::MOST
        };
        self.size = fits
            .clamp(self.size / 2, self.size * 2)
            .clamp(Self::LEAST, Self::MOST);
    }
}

impl Default for GroupSize {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_fast_database_grows_the_groups_to_fill_the_target_a_doubling_at_a_time() {
        let mut size = GroupSize::new();
        // 0.1 ms a result: 500 fit in 50 ms.
        let mut seen = Vec::new();
        for _ in 0..6 {
            let n = size.get();
            size.after(n, Duration::from_micros(100 * n as u64));
            seen.push(size.get());
        }
        assert_eq!(seen, [64, 128, 256, 500, 500, 500]);
    }

    #[test]
    fn a_slow_group_halves_the_next_and_the_size_stays_within_its_bounds() {
        let mut size = GroupSize::new();
        size.after(32, ms(2_000));
        assert_eq!(size.get(), 16);
        for _ in 0..10 {
            size.after(size.get(), ms(2_000));
        }
        assert_eq!(size.get(), GroupSize::LEAST);
        for _ in 0..20 {
            size.after(size.get(), Duration::ZERO);
        }
        assert_eq!(size.get(), GroupSize::MOST);
    }

    #[test]
    fn a_group_that_found_nothing_to_remove_changes_nothing() {
        let mut size = GroupSize::new();
        size.after(0, ms(1));
        assert_eq!(size.get(), GroupSize::FIRST);
    }
}
