//! How long the app took to start: measured from the moment the process began
//! (`run`), so that the figure includes the window, the web view, the embedded
//! server and the first queue, as a scorer waits for them.

use std::sync::OnceLock;
use std::time::Instant;

static STARTED: OnceLock<Instant> = OnceLock::new();

/// Marks the start; called first thing in `run`.
pub fn mark() {
    STARTED.get_or_init(Instant::now);
}

/// Milliseconds since the start.
pub fn elapsed_ms() -> f64 {
    STARTED.get_or_init(Instant::now).elapsed().as_secs_f64() * 1000.0
}
