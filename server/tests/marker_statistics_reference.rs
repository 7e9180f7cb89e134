//! Each marker's figures (model::marker_statistics, docs/marking-quality.md)
//! checked against an independent computation with pandas, NumPy and SciPy (the
//! agreement check's private environment, SCOREDESK_AGREEMENT_PYTHON), to 1e-9,
//! on a simulated marking session of 2,000 scripts by ten markers: most in line,
//! one harsh, one who drifts lower as he goes, one slow; each with breaks. And
//! the figures against the check scripts' definitive marks
//! (model::seed_figures), on forty markers' seeds, against pandas and NumPy.

// A test binary: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used)]

use scoredesk_server::model::marker_statistics::{
    drift_windows, marker_statistics, question_figures, MarkedScript, BREAK_MS, DRIFT_WINDOW,
};
use scoredesk_server::model::seed_figures::{
    marker_seed_figures, question_seed_figures, SeedFigures, SeedScored, SEED_DRIFT_AT_LEAST,
};
use serde_json::{json, Value};

mod python_reference;
use python_reference::close;

/// Ten markers of 200 scripts each out of `max`, by a fixed seed: a true mark
/// with a mark of noise; "harsh" marks two lower, "drifting" one lower every
/// 50 scripts; gaps of 20 s to 5 min, "slow" three times as long, and now and
/// then a break of an hour.
fn session(max: i32, seed: u64) -> Vec<MarkedScript> {
    let mut next = python_reference::uniform(seed);
    let markers = [
        "ann", "bob", "cid", "dee", "eve", "fay", "gus", "harsh", "drifting", "slow",
    ];
    let mut scripts = Vec::new();
    let mut result_id = 0;
    for marker in markers {
        let mut at: i64 = 1_800_000_000_000;
        for n in 0..200 {
            let truth = (next() * f64::from(max + 1)).floor() as i32;
            let noise = (next() * 3.0).floor() as i32 - 1;
            let shift = match marker {
                "harsh" => -2,
                "drifting" => -(n / 50),
                _ => 0,
            };
            let mut gap = 20_000 + (next() * 280_000.0) as i64;
            if marker == "slow" {
                gap *= 3;
            }
            if next() < 0.03 {
                gap += 3_600_000;
            }
            at += gap;
            result_id += 1;
            scripts.push(MarkedScript {
                result_id,
                marker: marker.to_owned(),
                total: (truth + noise + shift).clamp(0, max),
                at,
            });
        }
    }
    scripts
}

fn reference(scripts: &[MarkedScript]) -> Value {
    let rows: Vec<Value> = scripts
        .iter()
        .map(|s| json!([s.result_id, s.marker, s.total, s.at]))
        .collect();
    python_reference::run(
        "SCOREDESK_AGREEMENT_PYTHON",
        "pandas, NumPy and SciPy",
        "marker_statistics/reference.py",
        &json!({ "scripts": rows, "break_ms": BREAK_MS, "window": DRIFT_WINDOW }),
    )
}

#[test]
fn a_marking_session_of_2000_scripts_agrees_with_numpy_and_scipy() {
    let scripts = session(20, 38);
    let theirs = reference(&scripts);
    let ours = marker_statistics(&scripts);
    assert_eq!(ours.len(), 10);
    for marker in &ours {
        let reference = &theirs["markers"][&marker.marker];
        let name = &marker.marker;
        assert_eq!(
            marker.scripts as u64,
            reference["scripts"].as_u64().unwrap()
        );
        close(marker.mean, &reference["mean"], &format!("{name}'s mean"));
        close(
            marker.spread.unwrap(),
            &reference["spread"],
            &format!("{name}'s spread"),
        );
        close(
            marker.pace.median_seconds.unwrap(),
            &reference["median_seconds"],
            &format!("{name}'s median gap"),
        );
        close(
            marker.pace.marking_minutes,
            &reference["marking_minutes"],
            &format!("{name}'s marking time"),
        );
        close(
            marker.drift_per_hundred.unwrap(),
            &reference["drift_per_hundred"],
            &format!("{name}'s drift"),
        );
        close(
            marker.mean_difference.unwrap(),
            &reference["mean_difference"],
            &format!("{name}'s mean difference"),
        );
        close(
            marker.mean_difference_z.unwrap(),
            &reference["welch_t"],
            &format!("{name}'s Welch statistic"),
        );
        let windows: Vec<f64> = drift_windows(&scripts)
            .into_iter()
            .filter(|w| &w.marker == name)
            .map(|w| w.difference)
            .collect();
        let expected = reference["windows"].as_array().unwrap();
        assert_eq!(windows.len(), expected.len(), "{name}'s windows");
        for (ours, theirs) in windows.iter().zip(expected) {
            close(*ours, theirs, &format!("{name}'s window"));
        }
    }
    close(
        question_figures(&scripts).pace.median_seconds.unwrap(),
        &theirs["median_seconds"],
        "the question's median gap",
    );
    // The session is what it is meant to be: the harsh marker stands out, the
    // drifting one drifts, the slow one is slow; the others are in line.
    let of = |name: &str| ours.iter().find(|m| m.marker == name).unwrap();
    assert!(of("harsh").mean_difference_z.unwrap() < -2.0);
    assert!(of("drifting").drift_per_hundred.unwrap() < -1.0);
    assert!(of("slow").pace.median_seconds.unwrap() > 2.0 * of("ann").pace.median_seconds.unwrap());
    // The scripts differ far more than the drift (marks of 0 to 20), so a
    // marker in line has a slope of his own by chance, smaller than the drift.
    let drift = |name: &str| of(name).drift_per_hundred.unwrap().abs();
    assert!(
        drift("ann") < drift("drifting"),
        "{} {}",
        drift("ann"),
        drift("drifting")
    );
}

/// Forty markers' seeds, by a fixed seed: each scores 3 to 14 seeds (5 % of a
/// few hundred scripts), times shuffled against results so that order is by
/// time; most within a mark of the definitive total, "harsh-*" two under,
/// "drifting-*" a mark further under every three seeds.
fn seeds_scored(seed: u64) -> Vec<SeedScored> {
    let mut next = python_reference::uniform(seed);
    let mut seeds = Vec::new();
    for m in 0..40 {
        let marker = match m {
            0..=3 => format!("harsh-{m}"),
            4..=7 => format!("drifting-{m}"),
            _ => format!("marker-{m}"),
        };
        let count = 3 + (next() * 12.0).floor() as i32;
        let mut at: i64 = 1_800_000_000_000;
        for n in 0..count {
            let noise = (next() * 3.0).floor() as i32 - 1;
            let shift = if marker.starts_with("harsh") {
                -2
            } else if marker.starts_with("drifting") {
                -(n / 3)
            } else {
                0
            };
            at += 60_000 + (next() * 3_600_000.0) as i64;
            seeds.push(SeedScored {
                // Results out of time order: the figures must follow time.
                result_id: 100_000 - m * 100 - n,
                marker: marker.clone(),
                deviation: noise + shift,
                at,
            });
        }
    }
    seeds
}

#[test]
fn forty_markers_seeds_agree_with_numpy() {
    let seeds = seeds_scored(535);
    let rows: Vec<Value> = seeds
        .iter()
        .map(|s| json!([s.result_id, s.marker, s.deviation, s.at]))
        .collect();
    let theirs = python_reference::run(
        "SCOREDESK_AGREEMENT_PYTHON",
        "pandas and NumPy",
        "marker_statistics/seeds.py",
        &json!({ "seeds": rows, "at_least": SEED_DRIFT_AT_LEAST }),
    );
    let check = |ours: &SeedFigures, reference: &Value, name: &str| {
        assert_eq!(
            ours.seeds as u64,
            reference["seeds"].as_u64().unwrap(),
            "{name}"
        );
        close(
            ours.mean_deviation.unwrap(),
            &reference["mean"],
            &format!("{name}'s mean deviation"),
        );
        close(
            ours.mean_absolute_deviation.unwrap(),
            &reference["absolute"],
            &format!("{name}'s mean absolute deviation"),
        );
        close(
            ours.exact.unwrap(),
            &reference["exact"],
            &format!("{name}'s exact share"),
        );
        match ours.drift_per_ten {
            Some(drift) => close(
                drift,
                &reference["drift_per_ten"],
                &format!("{name}'s drift"),
            ),
            None => assert!(reference["drift_per_ten"].is_null(), "{name}: {reference}"),
        }
    };
    check(
        &question_seed_figures(&seeds),
        &theirs["question"],
        "the question",
    );
    let ours = marker_seed_figures(&seeds);
    assert_eq!(ours.len(), 40);
    for (name, figures) in &ours {
        check(figures, &theirs["markers"][name], name);
    }
    // The session is what it is meant to be: harsh markers sit under the
    // definitive marks, drifting ones drift (those with five seeds or more).
    assert!(ours["harsh-0"].mean_deviation.unwrap() < -1.0);
    let drifts: Vec<f64> = (4..=7)
        .filter_map(|m| ours[&format!("drifting-{m}")].drift_per_ten)
        .collect();
    assert!(
        !drifts.is_empty() && drifts.iter().all(|d| *d < -1.0),
        "{drifts:?}"
    );
}
