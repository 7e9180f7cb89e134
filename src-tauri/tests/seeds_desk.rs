//! The app's own calls of the seeds beside the flags, against the real server on
//! both databases: a scorer whose seed marking is out of line is paused; the
//! lead's desk reads the pause and the seed marking with its deviation, the
//! scorer's desk only his own pause; the lead's release closes it.

// A test binary: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used)]

use scoredesk_desktop::client::ODataClient;
use scoredesk_desktop::marking::{make_seed, release_pause, seeds_desk};
use scoredesk_e2e::{on_both_backends, Backend, TestApp};
use scoredesk_server::seed::demo::DEMO_PASSWORD;
use secrecy::SecretString;
use serde_json::json;

mod support;

on_both_backends! {
    a_pause_and_its_seed_marking_are_read_and_released_through_the_apps_own_calls => paused;
}

const LEAD: &str = "northwind-lead";
const SCORER: &str = "northwind-scorer";

fn signed_in(app: &TestApp, username: &str) -> ODataClient {
    ODataClient::new(
        &app.address,
        app.northwind(),
        username,
        SecretString::from(DEMO_PASSWORD),
    )
}

/// Open tasks of the question with a rubric that has the most, oldest first.
async fn open_tasks(app: &TestApp) -> (String, Vec<i32>) {
    let question = app
        .sql_strings(&format!(
            "SELECT CAST(t.question_id AS TEXT) FROM scoring_tasks t WHERE t.customer_id = {} \
             AND t.status = 0 AND EXISTS (SELECT 1 FROM rubrics r WHERE r.question_id = t.question_id) \
             GROUP BY t.question_id ORDER BY COUNT(*) DESC, t.question_id LIMIT 1",
            app.northwind()
        ))
        .await
        .remove(0);
    let results = app
        .sql_strings(&format!(
            "SELECT CAST(result_id AS TEXT) FROM scoring_tasks WHERE question_id = {question} \
             AND status = 0 ORDER BY result_id"
        ))
        .await
        .iter()
        .map(|r| r.parse().unwrap())
        .collect();
    (question, results)
}

/// `client` marks the script every dimension `below` under its maximum.
async fn mark(client: &ODataClient, question: &str, result: i32, below: i64) {
    support::mark_below(client, question, result, below, "marked").await;
}

async fn paused(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let (lead, scorer) = (signed_in(&app, LEAD), signed_in(&app, SCORER));
    let (question, results) = open_tasks(&app).await;
    mark(&lead, &question, results[0], 0).await;
    // The app's own seed making: a scorer is refused, an open script is refused
    // with the server's reason, blank reasons are refused; the lead's is made.
    let refused = make_seed(&scorer, &question, results[0], "Every point.").await;
    assert!(refused.is_err(), "a scorer makes no seed");
    let open = make_seed(&lead, &question, results[2], "Every point.").await;
    let why = format!("{:?}", open.unwrap_err());
    assert!(
        why.contains("a seed is made of a scored script"),
        "named why: {why}"
    );
    assert!(make_seed(&lead, &question, results[0], " ").await.is_err());
    assert!(seeds_desk(&lead).await.unwrap().seeds.is_empty());
    make_seed(&lead, &question, results[0], "Every point.")
        .await
        .unwrap();
    let made = seeds_desk(&lead).await.unwrap().seeds;
    assert_eq!(made.len(), 1, "{made:?}");
    assert_eq!(
        (made[0].result_id, made[0].reasons.as_str()),
        (results[0], "Every point.")
    );
    assert!(made[0].question.is_some(), "{made:?}");
    assert!(make_seed(&lead, &question, results[0], "Again.")
        .await
        .is_err());
    let admin = signed_in(&app, "northwind-admin");
    admin
        .post(
            "MarkingPlans",
            &json!({"QuestionID": question, "Share": 0, "SeedRate": 100, "SeedTolerance": 0}),
        )
        .await
        .unwrap();
    mark(&scorer, &question, results[1], 0).await;
    let copy: i32 = app
        .sql_strings("SELECT CAST(result_id AS TEXT) FROM seed_copies")
        .await[0]
        .parse()
        .unwrap();
    mark(&scorer, &question, copy, 1).await;

    let desk = seeds_desk(&lead).await.unwrap();
    assert!(desk.may_release);
    assert_eq!(desk.pauses.len(), 1, "{desk:?}");
    assert_eq!(desk.pauses[0].marker, SCORER);
    assert_eq!(desk.pauses[0].question_id, question);
    assert_eq!(desk.seed_markings.len(), 1);
    let marking = &desk.seed_markings[0];
    assert_eq!(marking.result_id, copy);
    let (score, definitive) = (marking.score.unwrap(), marking.definitive.unwrap());
    assert!(score < definitive, "{marking:?}");
    assert_eq!(marking.deviation, Some(score - definitive));
    assert!(marking.question.is_some());

    // The scorer's desk: his pause and its message, no seed markings.
    let his = seeds_desk(&scorer).await.unwrap();
    assert!(!his.may_release);
    assert!(his.seed_markings.is_empty());
    assert!(his.seeds.is_empty(), "a scorer never reads the seeds");
    assert_eq!(his.pauses.len(), 1);
    assert_eq!(his.pauses[0].message, desk.pauses[0].message);
    assert!(release_pause(&scorer, his.pauses[0].id, "me")
        .await
        .is_err());

    release_pause(&lead, desk.pauses[0].id, "Talked it over.")
        .await
        .unwrap();
    assert!(seeds_desk(&lead).await.unwrap().pauses.is_empty());
    assert!(seeds_desk(&scorer).await.unwrap().pauses.is_empty());
}
