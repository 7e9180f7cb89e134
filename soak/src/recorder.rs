//! What the load saw, per route: each request's time and status, gathered in the
//! window the sampler drains every 10 s, and in totals for the whole run. A status
//! the route does not expect is kept with its body (the first few), because each
//! one fails the soak.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::Duration;

/// One sampling window's requests.
#[derive(Default)]
pub struct Window {
    /// Microseconds per request, by route.
    pub times: BTreeMap<&'static str, Vec<u32>>,
    /// Requests by status.
    pub statuses: BTreeMap<u16, u64>,
}

#[derive(Default)]
struct State {
    window: Window,
    /// Requests by (route, status) over the whole run.
    totals: BTreeMap<(&'static str, u16), u64>,
    /// Failures: a status the route does not expect, a transport error, a wrong body.
    failures: Vec<String>,
    failure_count: u64,
}

#[derive(Default)]
pub struct Recorder {
    state: Mutex<State>,
}

/// Failures kept word for word; the rest are counted.
const FAILURES_KEPT: usize = 40;

impl Recorder {
    pub fn record(&self, route: &'static str, status: u16, took: Duration) {
        let micros = took.as_micros().min(u128::from(u32::MAX)) as u32;
        let mut state = self.lock();
        state.window.times.entry(route).or_default().push(micros);
        *state.window.statuses.entry(status).or_default() += 1;
        *state.totals.entry((route, status)).or_default() += 1;
    }

    pub fn fail(&self, what: String) {
        let mut state = self.lock();
        state.failure_count += 1;
        if state.failures.len() < FAILURES_KEPT {
            state.failures.push(what);
        }
    }

    /// The window since the last call, and a new one begun.
    pub fn drain(&self) -> Window {
        std::mem::take(&mut self.lock().window)
    }

    pub fn totals(&self) -> BTreeMap<(&'static str, u16), u64> {
        self.lock().totals.clone()
    }

    pub fn failures(&self) -> (u64, Vec<String>) {
        let state = self.lock();
        (state.failure_count, state.failures.clone())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // A panic while recording loses nothing worth stopping the soak for.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The `p`-th quantile of `times` (sorted in place), in milliseconds; 0 when empty.
pub fn quantile_ms(times: &mut [u32], p: f64) -> f64 {
    if times.is_empty() {
        return 0.0;
    }
    times.sort_unstable();
    let index = ((times.len() as f64 * p).ceil() as usize).clamp(1, times.len()) - 1;
    f64::from(times[index]) / 1000.0
}
