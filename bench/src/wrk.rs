//! Running wrk and reading its figures.
//!
//! Ours and the bare handler are loaded in turns (A B B A A B …), a slice of the
//! run's seconds each, instead of one after the other: on a machine whose speed
//! drifts (other work, the CPU's clock, the page cache) a ratio of two runs made
//! seconds apart measures the drift as much as the servers, and the turns put
//! both under the same drift.

use std::process::Command;

use anyhow::{bail, Context};

pub struct Figures {
    pub requests_per_second: f64,
    pub p50_ms: f64,
    pub p99_ms: f64,
}

/// One side of a comparison: the URL wrk loads and the Authorization it sends.
pub struct Target<'a> {
    pub url: &'a str,
    pub authorization: Option<&'a str>,
}

/// Turns each side gets. In the order A B B A A B B A A B the two sides' mean
/// positions in the run are 4.4 and 4.6 of 10, so a steady drift weighs on both
/// alike.
const TURNS: u32 = 5;

/// Loads `a` and `b` in turns for `seconds` each in all (whole seconds a turn, so
/// rounded down to a multiple of [`TURNS`], and at least one a turn). Requests a second are
/// each side's mean over its turns (every turn is as long), p50 the median of
/// its turns' p50s, p99 the worst of its turns' p99s.
pub fn run_in_turns(
    a: &Target,
    b: &Target,
    seconds: u32,
    connections: u32,
) -> anyhow::Result<(Figures, Figures)> {
    let slice = (seconds / TURNS).max(1);
    let mut turns_a = Vec::new();
    let mut turns_b = Vec::new();
    for turn in 0..2 * TURNS {
        let (target, turns) = if is_a_turn(turn) {
            (a, &mut turns_a)
        } else {
            (b, &mut turns_b)
        };
        turns.push(run(target.url, target.authorization, slice, connections)?);
    }
    Ok((combined(&turns_a), combined(&turns_b)))
}

/// Turns 0, 1, 2, 3, 4, 5 … go to A, B, B, A, A, B …
fn is_a_turn(turn: u32) -> bool {
    matches!(turn % 4, 0 | 3)
}

fn combined(turns: &[Figures]) -> Figures {
    let count = turns.len() as f64;
    let mut p50s: Vec<f64> = turns.iter().map(|turn| turn.p50_ms).collect();
    p50s.sort_by(f64::total_cmp);
    Figures {
        requests_per_second: turns
            .iter()
            .map(|turn| turn.requests_per_second)
            .sum::<f64>()
            / count,
        p50_ms: p50s[p50s.len() / 2],
        p99_ms: turns.iter().map(|turn| turn.p99_ms).fold(0.0, f64::max),
    }
}

fn run(
    url: &str,
    authorization: Option<&str>,
    seconds: u32,
    connections: u32,
) -> anyhow::Result<Figures> {
    let mut command = Command::new("wrk");
    command.args([
        "-t2",
        &format!("-c{connections}"),
        &format!("-d{seconds}s"),
        "--latency",
    ]);
    if let Some(value) = authorization {
        command.args(["-H", &format!("Authorization: {value}")]);
    }
    let output = command
        .arg(url)
        .output()
        .context("running wrk (apt-get install wrk)")?;
    let text = String::from_utf8_lossy(&output.stdout);
    if text.contains("Non-2xx or 3xx responses") {
        bail!("{url} answered with errors:\n{text}");
    }
    let number_after = |label: &str| -> Option<&str> {
        text.lines()
            .find_map(|line| line.trim().strip_prefix(label))
            .map(str::trim)
    };
    let requests_per_second = number_after("Requests/sec:")
        .context("no Requests/sec")?
        .parse()?;
    let p50_ms = duration_ms(number_after("50%").context("no p50")?)?;
    let p99_ms = duration_ms(number_after("99%").context("no p99")?)?;
    Ok(Figures {
        requests_per_second,
        p50_ms,
        p99_ms,
    })
}

/// wrk writes `850.00us`, `1.23ms` or `1.05s`.
fn duration_ms(text: &str) -> anyhow::Result<f64> {
    let (number, factor) = if let Some(n) = text.strip_suffix("us") {
        (n, 0.001)
    } else if let Some(n) = text.strip_suffix("ms") {
        (n, 1.0)
    } else if let Some(n) = text.strip_suffix('s') {
        (n, 1000.0)
    } else {
        bail!("unreadable duration '{text}'")
    };
    Ok(number.parse::<f64>()? * factor)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_turns_go_a_b_b_a_and_weigh_both_sides_alike() {
        let order: String = (0..2 * TURNS)
            .map(|turn| if is_a_turn(turn) { 'A' } else { 'B' })
            .collect();
        assert_eq!(order, "ABBAABBAAB");
    }

    #[test]
    fn a_side_is_its_mean_rate_its_median_p50_and_its_worst_p99() {
        let turn = |rate, p50, p99| Figures {
            requests_per_second: rate,
            p50_ms: p50,
            p99_ms: p99,
        };
        let side = combined(&[
            turn(100.0, 3.0, 9.0),
            turn(200.0, 1.0, 4.0),
            turn(300.0, 2.0, 5.0),
        ]);
        assert_eq!(side.requests_per_second, 200.0);
        assert_eq!(side.p50_ms, 2.0);
        assert_eq!(side.p99_ms, 9.0);
    }
}
