//! The Markdown tables: each database's figures side by side.

use std::fmt::Write;

use crate::processes::Run;
use crate::{scoring, Measured};

/// A database's scoring figures, by the database's name.
struct Scored<'a> {
    name: &'static str,
    scoring: &'a scoring::Figures,
}

pub fn tables(measured: &[Measured]) -> String {
    let mut out = String::new();
    if measured.iter().any(|m| !m.reads.is_empty()) {
        reads(&mut out, measured);
    }
    if measured.iter().any(|m| !m.large_pages.is_empty()) {
        large_pages(&mut out, measured);
    }
    let scored: Vec<Scored> = measured
        .iter()
        .filter_map(|m| {
            m.scoring.as_ref().map(|scoring| Scored {
                name: m.name,
                scoring,
            })
        })
        .collect();
    if !scored.is_empty() {
        scoring(&mut out, &scored);
        over_time(&mut out, &scored);
        steps(&mut out, &scored);
    }
    uploads(&mut out, measured);
    purges(&mut out, measured);
    for m in measured {
        out.push_str(&m.plans);
    }
    out
}

fn uploads(out: &mut String, measured: &[Measured]) {
    let rows: Vec<_> = measured
        .iter()
        .filter_map(|m| m.uploads.as_ref().map(|u| (m.name, u)))
        .collect();
    if rows.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "| answer uploads, 50 questions (40 choice, 10 typed) | uploads | seconds | uploads/s | p50 | p99 | Q1 polls meanwhile | Q1 p99 meanwhile |\n|---|---|---|---|---|---|---|---|"
    );
    for (name, u) in rows {
        let _ = writeln!(
            out,
            "| {name} | {} | {:.1} | {:.0} | {:.1} ms | {:.1} ms | {} | {:.1} ms |",
            u.uploads,
            u.seconds,
            u.per_second(),
            u.p50_ms,
            u.p99_ms,
            u.polls,
            u.poll_p99_ms
        );
    }
    out.push('\n');
}

fn purges(out: &mut String, measured: &[Measured]) {
    let rows: Vec<_> = measured
        .iter()
        .filter_map(|m| m.purge.as_ref().map(|p| (m.name, p)))
        .collect();
    if rows.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "| purge of one assessment's results | results | seconds | results/s | pace, last fifth against first | `Results?$top=50` reads meanwhile | their p99 | Q1 polls meanwhile | Q1 p99 meanwhile |\n|---|---|---|---|---|---|---|---|---|"
    );
    for (name, p) in rows {
        let _ = writeln!(
            out,
            "| {name} | {} | {:.1} | {:.0} | {:+.1} % | {} | {:.1} ms | {} | {:.1} ms |",
            p.results,
            p.seconds,
            p.per_second(),
            p.trend_percent,
            p.reads,
            p.read_p99_ms,
            p.polls,
            p.poll_p99_ms
        );
    }
    out.push('\n');
}

fn header<T>(out: &mut String, first: &str, per_database: &[&str], measured: &[T])
where
    T: Named,
{
    let mut names = vec![first.to_owned()];
    for m in measured {
        names.extend(
            per_database
                .iter()
                .map(|column| format!("{} {column}", m.name())),
        );
    }
    let _ = writeln!(out, "| {} |", names.join(" | "));
    let _ = writeln!(out, "|{}", "---|".repeat(names.len()));
}

fn large_pages(out: &mut String, measured: &[Measured]) {
    header(
        out,
        "large page, read alone (medians of 9)",
        &["bytes", "first byte", "last byte", "peak heap"],
        measured,
    );
    let pages = measured.first().map_or(0, |m| m.large_pages.len());
    for index in 0..pages {
        let mut cells = vec![measured[0].large_pages[index].name.clone()];
        for m in measured {
            let page = &m.large_pages[index];
            cells.push(format!("{:.2} MB", page.bytes as f64 / 1e6));
            cells.push(format!("{:.1} ms", page.first_byte_ms));
            cells.push(format!("{:.1} ms", page.total_ms));
            cells.push(format!("{:.2} MB", page.peak_heap as f64 / 1e6));
        }
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    out.push('\n');
}

fn reads(out: &mut String, measured: &[Measured]) {
    header(
        out,
        "query",
        &[
            "req/s",
            "p50",
            "p99",
            "bare req/s",
            "bare p99",
            "ours / bare",
        ],
        measured,
    );
    let queries = measured.first().map(|m| m.reads.len()).unwrap_or(0);
    for index in 0..queries {
        let mut cells = vec![measured[0].reads[index].0.clone()];
        for m in measured {
            let (_, ours, bare) = &m.reads[index];
            cells.push(format!("{:.0}", ours.requests_per_second));
            cells.push(format!("{:.2} ms", ours.p50_ms));
            cells.push(format!("{:.2} ms", ours.p99_ms));
            cells.push(format!("{:.0}", bare.requests_per_second));
            cells.push(format!("{:.2} ms", bare.p99_ms));
            cells.push(format!(
                "{:.2}",
                ours.requests_per_second / bare.requests_per_second
            ));
        }
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    out.push('\n');
}

fn scoring(out: &mut String, measured: &[Scored]) {
    let _ = writeln!(
        out,
        "| scoring round trips | scorers | round trips | seconds | round trips/s | requests/s | p50 | p99 | trend over the run |\n|---|---|---|---|---|---|---|---|---|"
    );
    for m in measured {
        let f = m.scoring;
        let kept = format!("{:+.1} %", trend_percent(&f.over_time));
        let _ = writeln!(
            out,
            "| {} ({} requests each) | {} | {} | {:.0} | {:.1} | {:.0} | {:.1} ms | {:.1} ms | {kept} |",
            m.name,
            f.requests_per_round_trip,
            f.workers,
            f.round_trips,
            f.seconds,
            f.round_trips_per_second(),
            f.round_trips_per_second() * f.requests_per_round_trip as f64,
            f.p50_ms,
            f.p99_ms,
        );
    }
    out.push('\n');
}

fn over_time(out: &mut String, measured: &[Scored]) {
    header(
        out,
        "tasks scored by then",
        &["round trips/s", "p99"],
        measured,
    );
    let slices = measured
        .iter()
        .map(|m| m.scoring.over_time.len())
        .max()
        .unwrap_or(0);
    for index in 0..slices {
        let scored = measured
            .iter()
            .find_map(|m| m.scoring.over_time.get(index).map(|s| s.0))
            .unwrap_or(0);
        let mut cells = vec![scored.to_string()];
        for m in measured {
            match m.scoring.over_time.get(index) {
                Some((_, rate, p99)) => {
                    cells.push(format!("{rate:.1}"));
                    cells.push(format!("{p99:.1} ms"));
                }
                None => cells.extend(["".to_owned(), "".to_owned()]),
            }
        }
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    out.push('\n');
}

fn steps(out: &mut String, measured: &[Scored]) {
    header(
        out,
        "step of a round trip (mean per round trip)",
        &["ms"],
        measured,
    );
    let steps = measured
        .first()
        .map(|m| m.scoring.step_ms.len())
        .unwrap_or(0);
    for index in 0..steps {
        let mut cells = vec![measured[0].scoring.step_ms[index].0.to_owned()];
        for m in measured {
            cells.push(
                m.scoring
                    .step_ms
                    .get(index)
                    .map(|(_, ms)| format!("{ms:.1}"))
                    .unwrap_or_default(),
            );
        }
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
}

/// The scoring round trips per count of server processes.
pub fn processes(runs: &[Run]) -> String {
    let mut out = String::from(
        "| server processes | scorers | round trips | round trips/s | p50 | p99 | trend over the run |\n|---|---|---|---|---|---|---|\n",
    );
    for run in runs {
        let f = &run.scoring;
        let _ = writeln!(
            out,
            "| {} | {} | {} | {:.1} | {:.1} ms | {:.1} ms | {:+.1} % |",
            run.processes,
            f.workers,
            f.round_trips,
            f.round_trips_per_second(),
            f.p50_ms,
            f.p99_ms,
            trend_percent(&f.over_time),
        );
    }
    out.push_str(
        "\n| server processes | tasks scored by then | round trips/s | p99 |\n|---|---|---|---|\n",
    );
    for run in runs {
        for (scored, rate, p99) in &run.scoring.over_time {
            let _ = writeln!(
                out,
                "| {} | {scored} | {rate:.1} | {p99:.1} ms |",
                run.processes
            );
        }
    }
    out
}

/// The change in throughput from the first slice to the last along a least-squares
/// line through all of them, as a percentage of the mean: a steady decay shows
/// through one slice's noise, and a dip in the middle does not pass for one.
fn trend_percent(slices: &[(usize, f64, f64)]) -> f64 {
    let n = slices.len() as f64;
    if slices.len() < 2 {
        return 0.0;
    }
    let mean_x = (n - 1.0) / 2.0;
    let mean_y = slices.iter().map(|s| s.1).sum::<f64>() / n;
    let (mut covariance, mut variance) = (0.0, 0.0);
    for (x, slice) in slices.iter().enumerate() {
        let dx = x as f64 - mean_x;
        covariance += dx * (slice.1 - mean_y);
        variance += dx * dx;
    }
    let slope = covariance / variance;
    slope * (n - 1.0) / mean_y * 100.0
}

/// What a table's column headers are named after.
trait Named {
    fn name(&self) -> &str;
}

impl Named for Measured {
    fn name(&self) -> &str {
        self.name
    }
}

impl Named for Scored<'_> {
    fn name(&self) -> &str {
        self.name
    }
}

#[cfg(test)]
mod tests {
    use super::trend_percent;

    #[test]
    fn a_steady_decay_is_measured_and_a_flat_run_is_not() {
        let flat: Vec<_> = (0..10).map(|i| (i, 100.0, 1.0)).collect();
        assert!(trend_percent(&flat).abs() < 1e-9);
        let falling: Vec<_> = (0..10).map(|i| (i, 100.0 - 2.0 * i as f64, 1.0)).collect();
        let trend = trend_percent(&falling);
        assert!((trend - (-18.0 / 91.0 * 100.0)).abs() < 1e-6, "{trend}");
    }
}
