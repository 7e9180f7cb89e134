//! Each marker's figures on a question (`MarkerStatistics`, `MarkerDrift`;
//! docs/marking-quality.md, "Figures"): scripts marked once through the spec's
//! sets and markings of a double-marked one, counted for whoever marked them;
//! a task saved but not scored, one scored without a known marker, and the
//! final mark of a double-marked task are not scripts of anyone; pace from the
//! gaps between scripts, breaks left out; each marker's mean against the
//! others'; drift; who may ask, and never of another area's question. Both
//! databases.

use reqwest::StatusCode;
use scoredesk_e2e::{on_both_backends, Backend, TestApp};
use serde_json::Value;

use crate::scoring_support::{
    open_tasks_with_rubric, scoring_result_of, task_status, Task, SCORER,
};
use crate::second_marking::{
    dimension_maxima, get_as, json_as, mark_and_submit, marking_as, plan, status_as, take,
    with_markers, LEAD, SECOND,
};

on_both_backends! {
    each_markers_scripts_pace_mean_and_drift_are_served_to_leads => figures;
}

/// A moment in 2027, and a minute after it, in milliseconds.
const BASE: i64 = 1_800_000_000_000;
const MINUTE: i64 = 60_000;

/// Puts the task's latest ScoringEvent at `minute` after BASE.
async fn event_at(app: &TestApp, task: Task, minute: i64) {
    app.sql_execute(&format!(
        "UPDATE scoring_events SET at = {} WHERE id = (SELECT MAX(id) FROM scoring_events \
         WHERE question_id = {} AND result_id = {})",
        BASE + minute * MINUTE,
        task.question,
        task.result
    ))
    .await;
}

/// Puts `user`'s marking of the task at `minute` after BASE.
async fn marking_at(app: &TestApp, user: &str, task: Task, minute: i64) {
    app.sql_execute(&format!(
        "UPDATE markings SET submitted_at = {} WHERE question_id = {} AND result_id = {} \
         AND marked_by = '{user}'",
        BASE + minute * MINUTE,
        task.question,
        task.result
    ))
    .await;
}

fn number(row: &Value, field: &str) -> f64 {
    row[field]
        .as_f64()
        .unwrap_or_else(|| panic!("{field} is a number: {row}"))
}

fn close(row: &Value, field: &str, expected: f64) {
    let got = number(row, field);
    assert!(
        (got - expected).abs() < 1e-9,
        "{field}: {got}, not {expected}: {row}"
    );
}

async fn figures(backend: Backend) {
    let app = with_markers(backend).await;
    let tasks = open_tasks_with_rubric(&app).await;
    let question = tasks[0].question;
    let t: Vec<Task> = tasks
        .into_iter()
        .filter(|t| t.question == question)
        .collect();
    assert!(t.len() >= 9, "nine tasks of one question");
    let rubric = scoring_result_of(&app, t[0]).await["RubricID"].clone();
    let maxima = dimension_maxima(&app, &rubric).await;
    assert!(maxima.len() >= 2 && maxima.iter().all(|m| *m >= 1));
    let full: i64 = maxima.iter().sum();
    // The full marks less one mark from each of the first `less` dimensions.
    let less = |less: usize| -> Vec<i64> {
        maxima
            .iter()
            .enumerate()
            .map(|(i, max)| if i < less { max - 1 } else { *max })
            .collect()
    };
    let f = full as f64;

    // Marked once: the scorer F, F, F − 1 at minutes 0, 2, 4; the second
    // marker F − 2 twice at 1 and 3.
    for (task, scores, user, minute) in [
        (t[0], less(0), SCORER, 0),
        (t[1], less(0), SCORER, 2),
        (t[2], less(1), SCORER, 4),
        (t[4], less(2), SECOND, 1),
        (t[5], less(2), SECOND, 3),
    ] {
        assert_eq!(
            marking_as(&app, user, task, &scores).await,
            StatusCode::NO_CONTENT
        );
        event_at(&app, task, minute).await;
    }
    // The scorer marks F − 2, the second marker sets it back and to 3 again at
    // 5: his script now.
    assert_eq!(
        marking_as(&app, SCORER, t[3], &less(2)).await,
        StatusCode::NO_CONTENT
    );
    assert_eq!(
        status_as(&app, SECOND, t[3], 2).await,
        StatusCode::NO_CONTENT
    );
    assert_eq!(
        status_as(&app, SECOND, t[3], 3).await,
        StatusCode::NO_CONTENT
    );
    event_at(&app, t[3], 5).await;
    // Saved, not scored: nobody's script.
    assert_eq!(
        marking_as(&app, SCORER, t[6], &less(0)).await,
        StatusCode::NO_CONTENT
    );
    assert_eq!(
        status_as(&app, SCORER, t[6], 2).await,
        StatusCode::NO_CONTENT
    );
    // Scored with no ScoringEvent (as an import writes it): no known marker.
    app.sql_execute(&format!(
        "UPDATE scoring_tasks SET status = 3 WHERE question_id = {} AND result_id = {}",
        t[8].question, t[8].result
    ))
    .await;
    app.sql_execute(&format!(
        "UPDATE scoring_results SET score = 0 WHERE question_id = {} AND result_id = {}",
        t[8].question, t[8].result
    ))
    .await;
    // Double-marked: the scorer's F at 40 (after a break), the second
    // marker's F − 2 at 6; the mean decides the final mark, nobody's script.
    plan(&app, t[7], 100, 5, "mean").await;
    assert_eq!(
        marking_as(&app, SCORER, t[7], &less(0)).await,
        StatusCode::NO_CONTENT
    );
    let marking = take(&app, SECOND, t[7]).await;
    mark_and_submit(&app, SECOND, &marking, &less(2)).await;
    assert_eq!(task_status(&app, t[7]).await, 3);
    marking_at(&app, SCORER, t[7], 40).await;
    marking_at(&app, SECOND, t[7], 6).await;

    let path = format!("MarkerStatistics?QuestionID={question}L");
    let rows = json_as(&app, LEAD, &path).await["value"].clone();
    let rows = rows.as_array().unwrap();
    let markers: Vec<&str> = rows
        .iter()
        .map(|r| r["Marker"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(markers, ["", SECOND, SCORER], "{rows:?}");
    let (whole, second, scorer) = (&rows[0], &rows[1], &rows[2]);

    assert_eq!(
        (whole["By"].as_str(), whole["Scripts"].as_i64()),
        (Some("question"), Some(8))
    );
    close(whole, "MeanScore", (8.0 * f - 9.0) / 8.0);
    // Gaps 2, 2 (the scorer's; 36 is a break) and 2, 2, 1 (the second marker's).
    close(whole, "MedianSecondsPerScript", 120.0);
    close(whole, "ScriptsPerHour", 30.0);
    close(whole, "MarkingMinutes", 9.0);
    assert_eq!(whole["Pairs"], 1);
    assert_eq!(whole["FirstMarkedDateTime"], "2027-01-15T08:00:00.000");

    assert_eq!(
        (scorer["By"].as_str(), scorer["Scripts"].as_i64()),
        (Some("marker"), Some(4))
    );
    close(scorer, "MeanScore", (4.0 * f - 1.0) / 4.0);
    close(scorer, "ScoreSpread", 0.5);
    close(scorer, "MeanDifference", 1.75);
    // 1.75 over √(0.5² / 4 + 0² / 4).
    close(scorer, "MeanDifferenceZ", 7.0);
    close(scorer, "MedianSecondsPerScript", 120.0);
    close(scorer, "MarkingMinutes", 4.0);
    // Four scripts are too few for a drift (twenty are needed).
    assert_eq!(scorer["DriftPerHundred"], Value::Null);
    assert_eq!(scorer["LastMarkedDateTime"], "2027-01-15T08:40:00.000");
    assert_eq!(
        (scorer["Pairs"].as_i64(), scorer["ExactAgreement"].as_f64()),
        (Some(1), Some(0.0))
    );

    assert_eq!(second["Scripts"], 4);
    close(second, "MeanScore", f - 2.0);
    close(second, "ScoreSpread", 0.0);
    close(second, "MeanDifference", -1.75);
    close(second, "MeanDifferenceZ", -7.0);
    close(second, "MedianSecondsPerScript", 120.0);
    assert_eq!(second["DriftPerHundred"], Value::Null);

    let drift = json_as(&app, LEAD, &format!("MarkerDrift?QuestionID={question}L")).await;
    let windows = drift["value"].as_array().unwrap();
    assert_eq!(windows.len(), 2, "one window a marker: {windows:?}");
    let window = windows.iter().find(|w| w["Marker"] == SCORER).unwrap();
    assert_eq!(
        (window["Window"].as_i64(), window["Scripts"].as_i64()),
        (Some(1), Some(4))
    );
    close(window, "MeanDifference", 7.0 / 8.0);
    assert_eq!(window["ToDateTime"], "2027-01-15T08:40:00.000");

    // Atom, as the other functions are served.
    let (status, atom) = get_as(&app, LEAD, &format!("{path}&$format=atom")).await;
    assert_eq!(status, StatusCode::OK, "{atom}");
    assert!(atom.contains("MeanDifferenceZ"), "{atom}");
    // Another area's question is not this area's: 404, as one nobody has.
    let elsewhere = app
        .sql_i64(&format!(
            "SELECT MIN(id) FROM questions WHERE customer_id <> {}",
            app.northwind()
        ))
        .await;
    for function in ["MarkerStatistics", "MarkerDrift"] {
        let (status, text) =
            get_as(&app, LEAD, &format!("{function}?QuestionID={elsewhere}L")).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{text}");
    }
    // Scorers see no figures; a question of nobody's is 404; a bad key is named.
    for function in ["MarkerStatistics", "MarkerDrift"] {
        let good = format!("{function}?QuestionID={question}L");
        assert_eq!(get_as(&app, SCORER, &good).await.0, StatusCode::FORBIDDEN);
        let (status, _) = get_as(&app, LEAD, &format!("{function}?QuestionID=1L")).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        for bad in [function.to_owned(), format!("{function}?QuestionID='x'")] {
            let (status, text) = get_as(&app, LEAD, &bad).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}");
            assert!(text.contains("QuestionID"), "{bad}: {text}");
        }
    }
}
