//! Running wrk and reading its figures.

use std::process::Command;

use anyhow::{bail, Context};

pub struct Figures {
    pub requests_per_second: f64,
    pub p50_ms: f64,
    pub p99_ms: f64,
}

pub fn run(
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
