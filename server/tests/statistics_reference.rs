//! The item analysis (model::statistics, docs/statistics.md) checked against an
//! independent computation: numpy and scipy (pinned in a private environment that
//! scripts/test makes, SCOREDESK_STATS_PYTHON) on the same results, to 1e-9. Two
//! data sets of several hundred results: questions of several marks, and questions
//! scored 0 or 1, where alpha must equal KR-20 computed by its own formula.

// A test binary: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used)]

use scoredesk_server::model::statistics::{item_statistics, test_statistics, ScoreRow};
use serde_json::{json, Value};

mod python_reference;
use python_reference::close;

/// Results of a test whose questions depend on one ability, from a fixed seed:
/// `maxima[j]` marks each, some questions nearly all right or wrong, one at random.
fn results(count: usize, maxima: &[f64], seed: u64) -> Vec<ScoreRow> {
    let mut next = python_reference::uniform(seed);
    (0..count)
        .map(|_| {
            let ability = next();
            maxima
                .iter()
                .enumerate()
                .map(|(j, &max)| {
                    let chance = match j % 5 {
                        0 => 0.95,
                        1 => 0.08,
                        2 => next(),
                        _ => (ability + next()) / 2.0,
                    };
                    (0..max as usize).filter(|_| next() < chance).count() as f64
                })
                .collect()
        })
        .collect()
}

fn reference(rows: &[ScoreRow], maxima: &[f64]) -> Value {
    python_reference::run(
        "SCOREDESK_STATS_PYTHON",
        "numpy and scipy",
        "statistics/reference.py",
        &json!({ "rows": rows, "maxima": maxima }),
    )
}

fn check(rows: &[ScoreRow], maxima: &[f64]) -> Value {
    let theirs = reference(rows, maxima);
    let test = test_statistics(rows);
    assert_eq!(test.n as u64, theirs["n"].as_u64().unwrap());
    close(test.mean, &theirs["mean"], "mean");
    close(
        test.standard_deviation.unwrap(),
        &theirs["sd"],
        "standard deviation",
    );
    close(test.alpha.unwrap(), &theirs["alpha"], "alpha");
    close(
        test.standard_error_of_measurement.unwrap(),
        &theirs["sem"],
        "SEM",
    );
    for (j, item) in item_statistics(rows, maxima).iter().enumerate() {
        close(
            item.facility,
            &theirs["facility"][j],
            &format!("facility of {j}"),
        );
        close(
            item.discrimination.unwrap(),
            &theirs["discrimination"][j],
            &format!("discrimination of {j}"),
        );
    }
    theirs
}

#[test]
fn questions_of_several_marks_agree_with_numpy_and_scipy() {
    let maxima = [4.0, 1.0, 3.0, 5.0, 2.0, 6.0, 1.0, 2.0, 3.0, 4.0, 10.0, 1.0];
    let rows = results(450, &maxima, 34);
    check(&rows, &maxima);
}

#[test]
fn right_or_wrong_questions_give_kr20() {
    let maxima = [1.0; 20];
    let rows = results(380, &maxima, 2026);
    let theirs = check(&rows, &maxima);
    let ours = test_statistics(&rows);
    assert!(ours.dichotomous);
    close(ours.alpha.unwrap(), &theirs["kr20"], "alpha against KR-20");
}
