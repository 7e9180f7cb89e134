//! The soak's pass criteria (issue 31): no 5xx and no request unanswered, no
//! unexpected status, nothing lost or doubled, and RSS and p99 flat: the last
//! ten minutes within 20 % of minutes 10 to 20 (on a shorter run, the last sixth
//! against the second sixth).

use crate::checks::Check;
use crate::recorder::quantile_ms;
use crate::sampler::Sample;

/// How far the late window may sit above the early one.
const FLAT: f64 = 1.20;

pub struct Windows {
    pub early: (f64, f64),
    pub late: (f64, f64),
}

pub fn windows(minutes: f64) -> Windows {
    let (early, span) = if minutes >= 30.0 {
        (10.0, 10.0)
    } else {
        (minutes / 6.0, minutes / 6.0)
    };
    Windows {
        early: (early * 60.0, (early + span) * 60.0),
        late: ((minutes - span) * 60.0, minutes * 60.0 + 30.0),
    }
}

fn within(samples: &[Sample], (from, to): (f64, f64)) -> impl Iterator<Item = &Sample> {
    samples
        .iter()
        .filter(move |s| s.seconds > from && s.seconds <= to)
}

fn mean(values: impl Iterator<Item = f64>) -> f64 {
    let (sum, n) = values.fold((0.0, 0usize), |(s, n), v| (s + v, n + 1));
    if n == 0 {
        f64::NAN
    } else {
        sum / n as f64
    }
}

fn p99(samples: &[Sample], span: (f64, f64)) -> f64 {
    let mut times: Vec<u32> = within(samples, span)
        .flat_map(|s| s.times.iter().copied())
        .collect();
    quantile_ms(&mut times, 0.99)
}

pub fn judge(samples: &[Sample], minutes: f64, failures: u64, checks: &[Check]) -> Vec<Check> {
    let w = windows(minutes);
    let server_errors: u64 = samples
        .iter()
        .flat_map(|s| s.statuses.iter())
        .filter(|(status, _)| **status >= 500 || **status == 0)
        .map(|(_, n)| n)
        .sum();
    let rss = (
        mean(within(samples, w.early).map(|s| s.rss_mb)),
        mean(within(samples, w.late).map(|s| s.rss_mb)),
    );
    let latency = (p99(samples, w.early), p99(samples, w.late));
    let mut verdict = vec![
        Check {
            name: "no 5xx, no request unanswered".into(),
            passed: server_errors == 0,
            detail: format!("{server_errors}"),
        },
        Check {
            name: "no unexpected status, no broken race".into(),
            passed: failures == 0,
            detail: format!("{failures}"),
        },
        Check {
            name: "RSS flat: mean of the late window within 20 % of the early one".into(),
            passed: rss.1 <= rss.0 * FLAT,
            detail: format!("{:.1} MB then {:.1} MB", rss.0, rss.1),
        },
        Check {
            name: "p99 flat: the late window's within 20 % of the early one's".into(),
            passed: latency.1 <= latency.0 * FLAT,
            detail: format!("{:.1} ms then {:.1} ms", latency.0, latency.1),
        },
    ];
    verdict.extend(checks.iter().map(|c| Check {
        name: c.name.clone(),
        passed: c.passed,
        detail: c.detail.clone(),
    }));
    verdict
}
