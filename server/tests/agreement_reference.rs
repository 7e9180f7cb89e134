//! Agreement between markers (model::agreement, docs/marking-quality.md) checked
//! against an independent computation: scikit-learn's `cohen_kappa_score` with
//! quadratic weights and pingouin's ICC1 (pinned in a private environment that
//! scripts/test makes, SCOREDESK_AGREEMENT_PYTHON), to 1e-9, on a simulated
//! marking session of 2,000 double-marked scripts: markers who agree, one who is
//! harsh, one who marks at random; and on a question marked 0 or 1.

// A test binary: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used)]

use scoredesk_server::model::agreement::agreement;
use serde_json::{json, Value};

mod python_reference;
use python_reference::close;

/// 2,000 scripts of a question out of `max`: each has a true mark; the first
/// marking is near it, the second near it too, or lower (a harsh marker), or
/// anything (a careless one), by a fixed seed.
fn session(count: usize, max: i32, seed: u64) -> Vec<(i32, i32)> {
    let mut next = python_reference::uniform(seed);
    (0..count)
        .map(|script| {
            let truth = (next() * f64::from(max + 1)).floor() as i32;
            let mut near = |shift: i32| {
                let noise = (next() * 3.0).floor() as i32 - 1;
                (truth + noise + shift).clamp(0, max)
            };
            let first = near(0);
            let second = match script % 10 {
                0..=5 => near(0),
                6 | 7 => near(-2),
                _ => (next() * f64::from(max + 1)).floor() as i32,
            };
            (first, second)
        })
        .collect()
}

fn reference(pairs: &[(i32, i32)], max: i32) -> Value {
    let pairs: Vec<[i32; 2]> = pairs.iter().map(|(a, b)| [*a, *b]).collect();
    python_reference::run(
        "SCOREDESK_AGREEMENT_PYTHON",
        "scikit-learn and pingouin",
        "agreement/reference.py",
        &json!({ "pairs": pairs, "max": max }),
    )
}

fn check(pairs: &[(i32, i32)], max: i32) {
    let ours = agreement(pairs, max).unwrap();
    let theirs = reference(pairs, max);
    assert_eq!(ours.pairs as u64, theirs["pairs"].as_u64().unwrap());
    close(ours.exact, &theirs["exact"], "exact");
    close(ours.within_one, &theirs["within_one"], "within one");
    close(
        ours.quadratic_kappa.unwrap(),
        &theirs["quadratic_kappa"],
        "quadratic kappa",
    );
    close(ours.icc.unwrap(), &theirs["icc"], "ICC1");
}

#[test]
fn a_marking_session_of_2000_scripts_agrees_with_scikit_learn_and_pingouin() {
    let pairs = session(2_000, 20, 38);
    let figures = agreement(&pairs, 20).unwrap();
    // The session is what it is meant to be: markers mostly agree.
    assert!(figures.quadratic_kappa.unwrap() > 0.5 && figures.exact < 0.5);
    check(&pairs, 20);
}

#[test]
fn a_question_of_one_mark_agrees_with_them_too() {
    check(&session(2_000, 1, 7), 1);
}

#[test]
fn marks_that_never_reach_the_top_of_the_range_still_weigh_by_the_whole_range() {
    // Totals of 0 to 5 on a question out of 12: the labels are 0..=12, as the
    // question's, not the marks seen.
    let pairs: Vec<(i32, i32)> = session(500, 5, 3);
    check(&pairs, 12);
}
