//! The soak's report in Markdown: what ran, requests per route by status, the
//! verdict, the failures kept word for word, and the plots.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use crate::checks::Check;
use crate::sampler::Sample;
use crate::setup::World;

#[allow(clippy::too_many_arguments)]
pub fn write(
    name: &str,
    minutes: f64,
    world: &World,
    samples: &[Sample],
    totals: &BTreeMap<(&'static str, u16), u64>,
    verdict: &[Check],
    failures: &[String],
    plots: &[PathBuf],
) -> String {
    let mut out = String::new();
    let passed = verdict.iter().all(|c| c.passed);
    let _ = writeln!(
        out,
        "## Soak on {name}: {minutes:.0} minutes, {}\n",
        if passed { "passed" } else { "FAILED" }
    );
    let last = samples.last();
    let _ = writeln!(
        out,
        "Area {}, {} samples; at the end RSS {:.1} MB, {} threads, {} open files, database {:.0} MB.\n",
        world.customer,
        samples.len(),
        last.map_or(0.0, |s| s.rss_mb),
        last.map_or(0, |s| s.threads),
        last.map_or(0, |s| s.open_files),
        last.map_or(0.0, |s| s.database_mb),
    );
    out.push_str("| check | passed | figures |\n|---|---|---|\n");
    for check in verdict {
        let _ = writeln!(
            out,
            "| {} | {} | {} |",
            check.name,
            if check.passed { "yes" } else { "**no**" },
            check.detail.replace('|', "/")
        );
    }
    out.push_str("\n| route | requests by status |\n|---|---|\n");
    let mut by_route: BTreeMap<&str, Vec<(u16, u64)>> = BTreeMap::new();
    for ((route, status), n) in totals {
        by_route.entry(route).or_default().push((*status, *n));
    }
    for (route, statuses) in by_route {
        let list: Vec<String> = statuses.iter().map(|(s, n)| format!("{s}: {n}")).collect();
        let _ = writeln!(out, "| {route} | {} |", list.join(", "));
    }
    if !failures.is_empty() {
        out.push_str("\nFailures (first ones):\n\n");
        for failure in failures {
            let _ = writeln!(out, "- `{}`", failure.replace('`', "'"));
        }
    }
    out.push('\n');
    for plot in plots {
        let file = plot
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default();
        let _ = writeln!(out, "![{file}](reliability/{file})");
    }
    out
}
