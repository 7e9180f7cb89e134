//! A package larger than one of the import's statements holds (50 questions, 500
//! choices, 500 keys a lookup: `store/content/import_rows.rs`): every question,
//! choice and place in the list written once and in order across the statements'
//! bounds; importing again changes nothing; an item past the first statements
//! changed becomes one new revision, and the rest stay as they were.

use scoredesk_e2e::{on_both_backends, Backend, TestApp};
use serde_json::Value;

use crate::content_import::CONTENT_TABLES;
use crate::qti_packages::{imported, paper_package};

on_both_backends! {
    a_package_larger_than_a_statement_is_written_whole_and_in_order => large_package;
}

const ADMIN: &str = "northwind-admin";
/// Choice questions: 13 statements of questions, 5 of choices, 2 lookups.
const CHOICE_QUESTIONS: usize = 620;
/// The item changed in the second package, far past the first statements.
const CHANGED: usize = 577;

/// Question `index`'s choices: how many and whether one is right. The count varies
/// so that a question's choices straddle the statements' bounds.
fn choices(changed: bool) -> Vec<(usize, bool)> {
    (0..CHOICE_QUESTIONS)
        .map(|index| {
            let single = !(changed && index == CHANGED);
            (3 + index % 3, single)
        })
        .collect()
}

fn ids(report: &Value) -> Vec<i64> {
    report["Questions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q["QuestionId"].as_str().unwrap().parse().unwrap())
        .collect()
}

fn outcomes(report: &Value) -> Vec<&str> {
    report["Questions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q["Outcome"].as_str().unwrap())
        .collect()
}

async fn large_package(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let package = paper_package("A long paper", &choices(false), &[4, 6]);
    let first = imported(&app, ADMIN, &package, "long.zip").await;
    assert_eq!(first["Assessment"], "created");
    let questions = ids(&first);
    assert_eq!(questions.len(), CHOICE_QUESTIONS + 2);
    assert!(outcomes(&first).iter().all(|o| *o == "created"));
    let mut distinct = questions.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), questions.len(), "every question its own ID");

    let assessment = first["AssessmentId"].as_str().unwrap();
    let listed = app
        .sql_column::<i64>(&format!(
            "SELECT question_id FROM assessment_questions WHERE assessment_id = {assessment} ORDER BY position"
        ))
        .await;
    assert_eq!(
        listed, questions,
        "listed once each, in the package's order"
    );
    let positions = app
        .sql_column::<i64>(&format!(
            "SELECT CAST(position AS BIGINT) FROM assessment_questions WHERE assessment_id = {assessment} ORDER BY position"
        ))
        .await;
    assert_eq!(positions, (1..=questions.len() as i64).collect::<Vec<_>>());

    // Each question's choices, in order, with the right one where the package put
    // it (paper_package: option `index % count` of a single choice).
    let choice_rows = app
        .sql_strings(&format!(
            "SELECT CAST(c.question_id AS TEXT) || ':' || CAST(c.choice_order AS TEXT) || ':' || c.text \
             || ':' || CASE WHEN c.is_correct THEN 'right' ELSE 'wrong' END \
             FROM choices c JOIN assessment_questions a ON a.question_id = c.question_id \
             WHERE a.assessment_id = {assessment} ORDER BY a.position, c.choice_order"
        ))
        .await;
    let mut wanted = Vec::new();
    for (index, (count, _)) in choices(false).iter().enumerate() {
        for choice in 0..*count {
            let right = if choice == index % count {
                "right"
            } else {
                "wrong"
            };
            wanted.push(format!(
                "{}:{}:Option {}:{right}",
                questions[index],
                choice + 1,
                choice + 1
            ));
        }
    }
    assert_eq!(choice_rows.len(), wanted.len());
    assert_eq!(choice_rows, wanted);
    let sources = app
        .sql_i64(&format!(
            "SELECT COUNT(*) FROM content_sources WHERE kind = 'question' AND target_id IN \
             (SELECT question_id FROM assessment_questions WHERE assessment_id = {assessment})"
        ))
        .await;
    assert_eq!(sources, questions.len() as i64, "where each came from");

    let before = app.row_counts(&CONTENT_TABLES).await;
    let again = imported(&app, ADMIN, &package, "long.zip").await;
    assert_eq!(again["Assessment"], "unchanged");
    assert_eq!(ids(&again), questions);
    assert!(outcomes(&again).iter().all(|o| *o == "unchanged"));
    assert_eq!(app.row_counts(&CONTENT_TABLES).await, before);

    let changed = paper_package("A long paper", &choices(true), &[4, 6]);
    let revised = imported(&app, ADMIN, &changed, "long.zip").await;
    assert_eq!(revised["Assessment"], "updated");
    let revised_ids = ids(&revised);
    for (index, outcome) in outcomes(&revised).iter().enumerate() {
        if index == CHANGED {
            assert_eq!(*outcome, "revised");
            assert_eq!(revised["Questions"][index]["Revision"], 2);
            assert_ne!(revised_ids[index], questions[index]);
        } else {
            assert_eq!(*outcome, "unchanged", "question {index}");
            assert_eq!(revised_ids[index], questions[index]);
        }
    }
    let listed = app
        .sql_column::<i64>(&format!(
            "SELECT question_id FROM assessment_questions WHERE assessment_id = {assessment} ORDER BY position"
        ))
        .await;
    assert_eq!(listed, revised_ids);
    let third = imported(&app, ADMIN, &changed, "long.zip").await;
    assert_eq!(third["Assessment"], "unchanged");
    assert!(
        outcomes(&third).iter().all(|o| *o == "unchanged"),
        "the revised question's source was recorded: {third}"
    );
    assert_eq!(ids(&third), revised_ids);
}
