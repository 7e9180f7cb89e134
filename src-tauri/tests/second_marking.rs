//! The app's own second marking, against the real server on both databases: a
//! scorer's submit that the plan keeps is reported as kept; a second marker takes
//! the round blind, keeps his scores (a keep from an older revision changes
//! nothing), submits them apart; a lead resolves with both earlier markings in
//! view, gives the round back, takes it again and his marks become the final ones.
//! And the lead's figures of the markers of a question (a scorer has none).

// A test binary: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used)]

use scoredesk_desktop::client::ODataClient;
use scoredesk_desktop::marking::{
    figures_access, figures_questions, give_back_marking, marker_figures, open_marking,
    save_marking, take_marking, MarkingDraft, MarkingOutcome, MarkingView,
};
use scoredesk_desktop::reading::PreparedScans;
use scoredesk_desktop::scoring::SubmitOutcome;
use scoredesk_e2e::{on_both_backends, Backend, TestApp};
use scoredesk_server::seed::demo::DEMO_PASSWORD;
use secrecy::SecretString;
use serde_json::{json, Value};

mod support;

on_both_backends! {
    a_script_is_kept_marked_again_blind_and_resolved_through_the_apps_own_calls => double_marked;
    a_lead_reads_each_markers_figures_through_the_apps_own_calls => figures;
}

fn signed_in(app: &TestApp, username: &str) -> ODataClient {
    ODataClient::new(
        &app.address,
        app.northwind(),
        username,
        SecretString::from(DEMO_PASSWORD),
    )
}

/// The first open task whose question has a rubric.
async fn open_task(app: &TestApp) -> (String, i32) {
    let key = app
        .sql_strings(&format!(
            "SELECT CAST(t.question_id AS TEXT) || ',' || CAST(t.result_id AS TEXT) FROM scoring_tasks t \
             WHERE t.customer_id = {} AND t.status = 0 \
             AND EXISTS (SELECT 1 FROM rubrics r WHERE r.question_id = t.question_id) \
             ORDER BY t.result_id, t.question_id LIMIT 1",
            app.northwind()
        ))
        .await;
    let (question, result) = key[0].split_once(',').unwrap();
    (question.to_owned(), result.parse().unwrap())
}

/// The scorer's first marking: claimed, every dimension at its maximum, submitted.
async fn first_marking(client: &ODataClient, question: &str, result: i32) -> SubmitOutcome {
    support::mark_below(client, question, result, 0, "first marker").await
}

fn marking_draft(view: &MarkingView, modified: &Value, score: impl Fn(i64) -> i64) -> MarkingDraft {
    serde_json::from_value(json!({
        "markingId": view.marking_id,
        "modified": modified,
        "comments": "mine",
        "dimensions": view.dimensions.iter().map(|d| json!({
            "order": d.order, "score": score(d.max_score), "comment": null,
        })).collect::<Vec<_>>(),
    }))
    .unwrap()
}

async fn stored_scores(app: &TestApp, marking: i32) -> Vec<String> {
    app.sql_strings(&format!(
        "SELECT COALESCE(CAST(score AS TEXT), '-') FROM marking_scores WHERE marking_id = {marking} \
         ORDER BY dimension_order"
    ))
    .await
}

async fn double_marked(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    app.add_account("second-scorer", "scorer").await;
    let (scorer, second, lead) = (
        signed_in(&app, "northwind-scorer"),
        signed_in(&app, "second-scorer"),
        signed_in(&app, "northwind-lead"),
    );
    let scans = PreparedScans::default();
    let (question, result) = open_task(&app).await;
    let plan = json!({"QuestionID": question, "Share": 100, "Tolerance": 0, "Rule": "resolution"});
    signed_in(&app, "northwind-admin")
        .post("MarkingPlans", &plan)
        .await
        .unwrap();

    let outcome = first_marking(&scorer, &question, result).await;
    assert!(
        matches!(outcome, SubmitOutcome::KeptForSecondMarking),
        "{outcome:?}"
    );

    let view = take_marking(&second, &scans, &question, result)
        .await
        .unwrap();
    assert_eq!(view.round, 2);
    assert!(view.earlier.is_empty(), "blind");
    assert!(view.dimensions.iter().all(|d| d.score.is_none()));
    let total: i64 = view.dimensions.iter().map(|d| d.max_score).sum();
    assert!(total > 0);
    let kept = save_marking(&second, &marking_draft(&view, &view.modified, |_| 0), false)
        .await
        .unwrap();
    let MarkingOutcome::Kept { modified } = kept else {
        panic!("kept: {kept:?}")
    };
    assert_ne!(modified, view.modified, "a keep gives a new revision");
    // From the revision before: refused whole.
    let stale = save_marking(&second, &marking_draft(&view, &view.modified, |m| m), false).await;
    assert!(
        stale
            .unwrap_err()
            .to_string()
            .contains("changed on another computer"),
        "a stale keep is refused"
    );
    let zeros: Vec<String> = view.dimensions.iter().map(|_| "0".to_owned()).collect();
    assert_eq!(stored_scores(&app, view.marking_id).await, zeros);
    let again = open_marking(&second, &scans, view.marking_id)
        .await
        .unwrap();
    assert!(again.dimensions.iter().all(|d| d.score == Some(0)));
    let submitted = save_marking(&second, &marking_draft(&again, &modified, |_| 0), true)
        .await
        .unwrap();
    assert!(
        matches!(submitted, MarkingOutcome::Resolution),
        "{submitted:?}"
    );

    // The lead resolves: both markings in view; given back once, then final.
    let resolving = take_marking(&lead, &scans, &question, result)
        .await
        .unwrap();
    assert_eq!(resolving.round, 3);
    let earlier: Vec<(i32, Option<i64>)> = resolving
        .earlier
        .iter()
        .map(|e| (e.round, e.score))
        .collect();
    assert_eq!(earlier, [(1, Some(total)), (2, Some(0))]);
    give_back_marking(&lead, resolving.marking_id)
        .await
        .unwrap();
    assert_eq!(
        app.sql_i64(&format!(
            "SELECT COUNT(*) FROM markings WHERE id = {}",
            resolving.marking_id
        ))
        .await,
        0
    );
    let resolving = take_marking(&lead, &scans, &question, result)
        .await
        .unwrap();
    let last = resolving.dimensions.last().unwrap().order;
    let final_draft = marking_draft(&resolving, &resolving.modified, |m| m);
    let mut partial = final_draft.clone();
    partial.dimensions.retain(|d| d.order != last);
    partial.dimensions.push(
        serde_json::from_value(json!({"order": last, "score": null, "comment": null})).unwrap(),
    );
    let refused = save_marking(&lead, &partial, true).await;
    assert!(refused.is_err(), "a dimension unscored: not submitted");
    let reopened = open_marking(&lead, &scans, resolving.marking_id)
        .await
        .unwrap();
    let done = save_marking(
        &lead,
        &marking_draft(&reopened, &reopened.modified, |m| m),
        true,
    )
    .await
    .unwrap();
    assert!(
        matches!(done, MarkingOutcome::Final { score: Some(s) } if s == total),
        "{done:?}"
    );
    let status = app
        .sql_i64(&format!(
            "SELECT CAST(status AS BIGINT) FROM scoring_tasks WHERE question_id = {question} AND result_id = {result}"
        ))
        .await;
    assert_eq!(status, 3);
}

async fn figures(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let (scorer, lead) = (
        signed_in(&app, "northwind-scorer"),
        signed_in(&app, "northwind-lead"),
    );
    assert!(figures_access(&lead).await.unwrap());
    assert!(!figures_access(&scorer).await.unwrap());
    let (question, first) = open_task(&app).await;
    let second: i64 = app
        .sql_i64(&format!(
            "SELECT CAST(MIN(result_id) AS BIGINT) FROM scoring_tasks WHERE question_id = {question} \
             AND status = 0 AND result_id > {first}"
        ))
        .await;
    for result in [first, i32::try_from(second).unwrap()] {
        let outcome = first_marking(&scorer, &question, result).await;
        assert!(matches!(outcome, SubmitOutcome::Saved), "{outcome:?}");
    }
    let questions = figures_questions(&lead).await.unwrap();
    assert!(
        questions.iter().any(|q| q.question_id == question),
        "{questions:?}"
    );
    let names: Vec<&str> = questions.iter().map(|q| q.name.as_str()).collect();
    assert!(
        names.windows(2).all(|pair| pair[0] <= pair[1]),
        "by name: {names:?}"
    );

    let figures = marker_figures(&lead, &question).await.unwrap();
    assert_eq!(
        (figures.question.marker.clone(), figures.question.scripts),
        (None, 2)
    );
    assert_eq!(figures.markers.len(), 1);
    let marker = &figures.markers[0];
    assert_eq!(marker.marker.as_deref(), Some("northwind-scorer"));
    assert_eq!((marker.scripts, marker.spread), (2, Some(0.0)));
    assert_eq!(marker.mean, figures.question.mean);
    // Nobody else marked it: no difference to draw.
    assert_eq!(marker.mean_difference, None);
    assert_eq!(figures.drift.len(), 1);
    assert_eq!(
        (figures.drift[0].scripts, figures.drift[0].mean_difference),
        (2, 0.0)
    );
    assert!(marker_figures(&lead, "x").await.is_err());
    assert!(marker_figures(&scorer, &question).await.is_err());
}
