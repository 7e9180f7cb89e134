//! How a runner paces itself: its lease, its polling, its schedule checks.

use std::time::Duration;

use crate::config::Settings;

/// How a runner paces itself (from the settings).
#[derive(Debug, Clone, Copy)]
pub struct Pace {
    /// How long a claimed job stays this process's without a renewal.
    pub lease: Duration,
    /// How often an idle runner looks for due jobs (queued by another process,
    /// or given back to be tried again).
    pub poll: Duration,
    /// How often the daily retention purges are looked for.
    pub schedule_check: Duration,
}

impl Pace {
    pub fn from_settings(settings: &Settings) -> Self {
        Self {
            lease: Duration::from_secs(settings.job_lease_seconds.max(1)),
            poll: Duration::from_millis(settings.job_poll_milliseconds.max(10)),
            schedule_check: Duration::from_secs(settings.retention_check_seconds.max(1)),
        }
    }
}
