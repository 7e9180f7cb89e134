//! The samples drawn as SVG line charts (plotters), the flood's minutes shaded,
//! for docs/reliability.md: memory, threads and files; p99 per route; requests
//! and refusals per second; pool and database size.

use std::path::{Path, PathBuf};

use plotters::coord::ranged1d::ValueFormatter;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

use crate::sampler::{Sample, EVERY};

type Series = (String, Vec<(f64, f64)>);

const COLOURS: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(23, 190, 207),
];

/// A chart of `series` over the run; `log` for a logarithmic y axis (latencies
/// and rates whose spikes would flatten the rest).
fn chart(
    path: &Path,
    title: &str,
    y_label: &str,
    series: &[Series],
    samples: &[Sample],
    log: bool,
) -> anyhow::Result<()> {
    let root = SVGBackend::new(path, (900, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(plotting)?;
    let x_max = samples.last().map_or(1.0, |s| s.seconds / 60.0).max(1.0);
    // A log axis shows only what is above 0.
    let shown = |y: f64| y.is_finite() && (!log || y > 0.0);
    let values = || {
        series
            .iter()
            .flat_map(|(_, points)| points.iter().map(|(_, y)| *y))
            .filter(|y| shown(*y))
    };
    let mut builder = ChartBuilder::on(&root);
    builder
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(60);
    if log {
        let y_max = values().fold(1.0_f64, f64::max) * 2.0;
        let y_min = values().fold(f64::MAX, f64::min).min(y_max / 10.0) / 2.0;
        let chart = builder
            .build_cartesian_2d(0.0..x_max, (y_min..y_max).log_scale())
            .map_err(plotting)?;
        lines(chart, y_label, series, samples, (y_min, y_max), shown)?;
    } else {
        let y_max = values().fold(0.0_f64, f64::max).max(1e-3) * 1.1;
        let chart = builder
            .build_cartesian_2d(0.0..x_max, 0.0..y_max)
            .map_err(plotting)?;
        lines(chart, y_label, series, samples, (0.0, y_max), shown)?;
    }
    root.present().map_err(plotting)?;
    Ok(())
}

/// The mesh, the flood's minutes shaded from `y_min` to `y_max`, each series'
/// `shown` points as a line, and the legend, on either kind of y axis.
fn lines<'a, Y>(
    mut chart: ChartContext<'a, SVGBackend<'a>, Cartesian2d<RangedCoordf64, Y>>,
    y_label: &str,
    series: &[Series],
    samples: &[Sample],
    (y_min, y_max): (f64, f64),
    shown: impl Fn(f64) -> bool,
) -> anyhow::Result<()>
where
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    chart
        .configure_mesh()
        .x_desc("minutes")
        .y_desc(y_label)
        .draw()
        .map_err(plotting)?;
    let step = EVERY.as_secs_f64() / 60.0;
    let shade = RGBColor(250, 225, 225).filled();
    chart
        .draw_series(samples.iter().filter(|s| s.flooding).map(|s| {
            let x = s.seconds / 60.0;
            Rectangle::new([(x - step, y_min), (x, y_max)], shade)
        }))
        .map_err(plotting)?;
    for (i, (name, points)) in series.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let drawn = points.iter().copied().filter(|(_, y)| shown(*y));
        chart
            .draw_series(LineSeries::new(drawn, colour.stroke_width(2)))
            .map_err(plotting)?
            .label(name.as_str())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], colour.stroke_width(2))
            });
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()
        .map_err(plotting)?;
    Ok(())
}

/// plotters' errors borrow their backend; ours carry the words.
fn plotting(error: impl std::fmt::Display) -> anyhow::Error {
    anyhow::anyhow!("{error}")
}

fn over_time(samples: &[Sample], value: impl Fn(&Sample) -> f64) -> Vec<(f64, f64)> {
    samples
        .iter()
        .map(|s| (s.seconds / 60.0, value(s)))
        .collect()
}

/// The routes plotted for p99: the work of each kind of person.
const ROUTES: [&str; 6] = [
    "scorer: poll",
    "scorer: save",
    "coordinator: upload",
    "reader: Results page (JSON)",
    "reader: Results page (Atom)",
    "admin: purge",
];

/// Writes the charts as `<prefix>-<name>.svg` in `dir`; returns their paths.
pub fn draw(dir: &Path, prefix: &str, samples: &[Sample]) -> anyhow::Result<Vec<PathBuf>> {
    let file = |name: &str| dir.join(format!("{prefix}-{name}.svg"));
    let mut written = Vec::new();
    let memory = file("memory");
    chart(
        &memory,
        &format!("{prefix}: server memory, threads, open files (flood shaded)"),
        "MB / count",
        &[
            ("RSS (MB)".into(), over_time(samples, |s| s.rss_mb)),
            ("threads".into(), over_time(samples, |s| s.threads as f64)),
            (
                "open files".into(),
                over_time(samples, |s| s.open_files as f64),
            ),
        ],
        samples,
        false,
    )?;
    written.push(memory);
    let latency = file("p99");
    let mut series: Vec<Series> = vec![(
        "every real request".into(),
        over_time(samples, |s| s.p99_ms),
    )];
    for route in ROUTES {
        series.push((
            route.to_owned(),
            over_time(samples, |s| {
                s.routes.get(route).map_or(f64::NAN, |r| r.p99_ms)
            }),
        ));
    }
    chart(
        &latency,
        &format!("{prefix}: p99 per 10 s, log scale (flood shaded)"),
        "ms",
        &series,
        samples,
        true,
    )?;
    written.push(latency);
    let rates = file("requests");
    let per_second = |s: &Sample, keep: &dyn Fn(u16) -> bool| {
        s.statuses
            .iter()
            .filter(|(k, _)| keep(**k))
            .map(|(_, n)| *n as f64)
            .sum::<f64>()
            / EVERY.as_secs_f64()
    };
    chart(
        &rates,
        &format!("{prefix}: requests per second by status, log scale (flood shaded)"),
        "requests/s",
        &[
            (
                "2xx".into(),
                over_time(samples, |s| per_second(s, &|k| (200..300).contains(&k))),
            ),
            (
                "401".into(),
                over_time(samples, |s| per_second(s, &|k| k == 401)),
            ),
            (
                "429".into(),
                over_time(samples, |s| per_second(s, &|k| k == 429)),
            ),
            (
                "400, 409, 412".into(),
                over_time(samples, |s| {
                    per_second(s, &|k| matches!(k, 400 | 409 | 412))
                }),
            ),
            (
                "5xx or none".into(),
                over_time(samples, |s| per_second(s, &|k| k >= 500 || k == 0)),
            ),
        ],
        samples,
        true,
    )?;
    written.push(rates);
    let store = file("database");
    chart(
        &store,
        &format!("{prefix}: database size"),
        "MB",
        &[(
            "database (MB)".into(),
            over_time(samples, |s| s.database_mb),
        )],
        samples,
        false,
    )?;
    written.push(store);
    let pool = file("pool");
    chart(
        &pool,
        &format!("{prefix}: the connection pool, sampled every 10 s (flood shaded)"),
        "connections",
        &[
            ("in use".into(), over_time(samples, |s| s.pool_in_use)),
            ("idle".into(), over_time(samples, |s| s.pool_idle)),
        ],
        samples,
        false,
    )?;
    written.push(pool);
    Ok(written)
}
