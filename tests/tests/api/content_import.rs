//! Importing QTI packages (`ImportQtiPackage`, docs/content.md): a third-party
//! tool's package in QTI 2.1 and 3.0 checked against what its items were made
//! from; importing again changes nothing; a changed item becomes a new revision
//! while snapshots keep the old; a preview stores nothing; administrators only;
//! and the imported assessment delivered and marked by its package's rules.

use reqwest::StatusCode;
use scoredesk_e2e::{on_both_backends, Backend, TestApp};
use serde_json::{json, Value};

use crate::qti_packages::{
    choice_number, import, imported, own_package, sit, third_party, uploaded_scores,
};
use crate::uploads::post;

on_both_backends! {
    a_third_party_package_is_imported_as_its_source_says => third_party_package;
    importing_again_changes_nothing_and_a_changed_item_is_a_new_revision => revisions;
    only_administrators_import_content => roles;
    an_imported_assessment_is_delivered_and_marked_by_its_packages_rules => delivered;
}

const ADMIN: &str = "northwind-admin";

/// Every table an import writes.
pub(crate) const CONTENT_TABLES: [&str; 11] = [
    "assessments",
    "questions",
    "choices",
    "text_keys",
    "question_parts",
    "pair_keys",
    "topics",
    "score_bands",
    "assessment_questions",
    "content_sources",
    "rubrics",
];

fn question_id(report: &Value, index: usize) -> i64 {
    report["Questions"][index]["QuestionId"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap()
}

/// Checks the questions `report` names against what the tool made them from.
async fn check_against_source(app: &TestApp, report: &Value, source: &[Value]) {
    let expected: Vec<&Value> = source
        .iter()
        .filter(|s| !s["imported_as"].is_null())
        .collect();
    let questions = report["Questions"].as_array().unwrap();
    assert_eq!(questions.len(), expected.len(), "{report}");
    assert_eq!(
        report["Skipped"].as_array().unwrap().len(),
        source.len() - expected.len(),
        "every item the source marks as skipped is, with its reason: {report}"
    );
    for (index, item) in expected.iter().enumerate() {
        let id = question_id(report, index);
        let kind = app
            .sql_strings(&format!(
                "SELECT question_type FROM questions WHERE id = {id}"
            ))
            .await;
        assert_eq!(kind, [item["imported_as"].as_str().unwrap()], "{item}");
        let max = app
            .sql_i64(&format!(
                "SELECT CAST(max_score AS BIGINT) FROM questions WHERE id = {id}"
            ))
            .await;
        // The tool declares no maximum: 1, as match_correct gives; a matching's
        // mapping gives each pair 1.
        let pairs = item["pairs"].as_array();
        assert_eq!(max, pairs.map_or(1, |p| p.len() as i64), "{item}");
        if let Some(pairs) = pairs {
            let stored = app
                .sql_strings(&format!(
                    "SELECT p.text || ' → ' || c.text FROM pair_keys k \
                     JOIN question_parts p ON p.question_id = k.question_id AND p.part_number = k.part_number \
                     JOIN choices c ON c.question_id = k.question_id AND c.choice_order = k.choice_order \
                     WHERE k.question_id = {id} AND k.is_correct ORDER BY k.part_number"
                ))
                .await;
            let wanted: Vec<String> = pairs
                .iter()
                .map(|p| format!("{} → {}", p[0].as_str().unwrap(), p[1].as_str().unwrap()))
                .collect();
            assert_eq!(stored, wanted, "{item}");
            assert_eq!(report["Questions"][index]["Keys"], json!(wanted));
            assert_eq!(report["Questions"][index]["Parts"], item["rows"]);
            let options = app
                .sql_strings(&format!(
                    "SELECT text FROM choices WHERE question_id = {id} ORDER BY choice_order"
                ))
                .await;
            assert_eq!(json!(options), item["options"], "{item}");
        }
        let markup = app
            .sql_strings(&format!("SELECT markup FROM questions WHERE id = {id}"))
            .await
            .remove(0);
        let stem = item["stem"].as_str().unwrap();
        // The source writes HTML; the markup holds the character itself.
        let words = stem
            .split('<')
            .next()
            .unwrap()
            .trim()
            .replace("&times;", "×");
        assert!(markup.contains(&words), "{markup} holds {words}");
        if stem.contains("<img") {
            assert!(
                markup.contains("<img src=\"data:image/png;base64,"),
                "{markup}"
            );
        }
        if stem.contains("<sub>") {
            assert!(markup.contains("H<sub>2</sub>O"), "{markup}");
        }
        if let Some(choices) = item["choices"].as_array() {
            let stored = app
                .sql_strings(&format!(
                    "SELECT text || '|' || CASE WHEN is_correct THEN 'right' ELSE 'wrong' END \
                     FROM choices WHERE question_id = {id} ORDER BY choice_order"
                ))
                .await;
            let correct: Vec<&str> = item["correct"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap())
                .collect();
            let wanted: Vec<String> = choices
                .iter()
                .map(|c| c.as_str().unwrap())
                .map(|c| {
                    format!(
                        "{c}|{}",
                        if correct.contains(&c) {
                            "right"
                        } else {
                            "wrong"
                        }
                    )
                })
                .collect();
            assert_eq!(stored, wanted, "{item}");
            let rule = app
                .sql_strings(&format!(
                    "SELECT scoring_rule FROM questions WHERE id = {id}"
                ))
                .await;
            assert_eq!(rule, ["match_correct"]);
        }
        if let Some(answers) = item["answers"].as_array() {
            let keys = app
                .sql_strings(&format!(
                    "SELECT text FROM text_keys WHERE question_id = {id} ORDER BY key_order"
                ))
                .await;
            let wanted: Vec<&str> = answers.iter().map(|a| a.as_str().unwrap()).collect();
            assert_eq!(keys, wanted, "{item}");
        }
        if let Some(number) = item["number"].as_f64() {
            // Thousandths, so both databases print the range alike.
            let tolerance = item["tolerance"].as_f64().unwrap();
            let range = [
                app.sql_i64(&format!(
                    "SELECT CAST(ROUND(numeric_low * 1000) AS BIGINT) FROM text_keys WHERE question_id = {id}"
                ))
                .await,
                app.sql_i64(&format!(
                    "SELECT CAST(ROUND(numeric_high * 1000) AS BIGINT) FROM text_keys WHERE question_id = {id}"
                ))
                .await,
            ];
            let wanted = [number - tolerance, number + tolerance].map(|n| (n * 1000.0) as i64);
            assert_eq!(range, wanted, "{item}");
        }
    }
}

async fn third_party_package(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let tool = third_party();
    let before = app.row_counts(&CONTENT_TABLES).await;

    let preview = import(&app, ADMIN, &tool.qti21, "third-party-qti21.zip", true).await;
    assert_eq!(preview.status(), StatusCode::OK);
    let preview: Value = preview.json().await.unwrap();
    assert_eq!(preview["Preview"], true);
    assert_eq!(preview["Assessment"], "created");
    assert_eq!(
        app.row_counts(&CONTENT_TABLES).await,
        before,
        "a preview stores nothing"
    );

    let report = imported(&app, ADMIN, &tool.qti21, "third-party-qti21.zip").await;
    assert_eq!(report["Preview"], false);
    assert_eq!(report["QtiVersion"], "2.x");
    assert_eq!(report["Assessment"], "created");
    assert_eq!(report["AssessmentName"], "third-party-biology");
    assert_eq!(report["Images"], 1);
    assert!(report["odata.metadata"]
        .as_str()
        .unwrap()
        .ends_with("#ScoreDesk.ContentImportReport"));
    check_against_source(&app, &report, &tool.source).await;
    // The markup is served as the Question's media resource, its image inline.
    let id = question_id(&report, 0);
    let markup = app
        .client
        .get(app.url(&format!("{}Questions({id}L)/$value", app.root())))
        .basic_auth(
            "northwind-scorer",
            Some(scoredesk_server::seed::demo::DEMO_PASSWORD),
        )
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(markup.contains("data:image/png;base64,"), "{markup}");

    // Its image is on the printed page too (a data URL: nothing is fetched).
    let assessment = report["AssessmentId"].as_str().unwrap();
    let snapshot = post(
        &app,
        "AssessmentSnapshots",
        &json!({"ID": 0, "AssessmentID": assessment, "Name": "Printed"}),
    )
    .await
    .json::<Value>()
    .await
    .unwrap();
    let printed = app
        .client
        .get(snapshot["PrintableDocumentSourceUrl"].as_str().unwrap())
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        printed.contains("<img src=\"data:image/png;base64,"),
        "the printed page shows the image"
    );
    assert!(printed.contains("Which gas do plants take in for photosynthesis?"));

    // The same package upgraded to QTI 3.0 by another tool, into the other area.
    let three = imported(&app, "harbour-admin", &tool.qti30, "third-party-qti30.zip").await;
    assert_eq!(three["QtiVersion"], "3.0");
    assert_eq!(three["Assessment"], "created");
    check_against_source(&app, &three, &tool.source).await;

    // Again, in either version: nothing changes.
    let after = app.row_counts(&CONTENT_TABLES).await;
    for package in [&tool.qti21, &tool.qti30] {
        let again = imported(&app, ADMIN, package, "again.zip").await;
        assert_eq!(again["Assessment"], "unchanged", "{again}");
        assert_eq!(again["AssessmentId"], report["AssessmentId"]);
        for question in again["Questions"].as_array().unwrap() {
            assert_eq!(question["Outcome"], "unchanged", "{question}");
        }
    }
    assert_eq!(
        app.row_counts(&CONTENT_TABLES).await,
        after,
        "importing again writes nothing"
    );
}

async fn revisions(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let first = imported(&app, ADMIN, &own_package("Plant cells", "a"), "cells.zip").await;
    assert_eq!(first["Assessment"], "created");
    assert_eq!(first["Questions"].as_array().unwrap().len(), 4);
    assert_eq!(first["TopicsCreated"], 2, "Botany and Botany/Plant cells");
    assert_eq!(
        first["ScoreBands"],
        json!([{"MinPercentage": 0, "Title": "Not yet"}, {"MinPercentage": 60, "Title": "Pass"}])
    );
    let kinds: Vec<&str> = first["Questions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q["QuestionType"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "multiple_choice",
            "multiple_response",
            "essay",
            "text_entry"
        ]
    );
    let assessment = first["AssessmentId"].as_str().unwrap().to_owned();
    let old_cells = question_id(&first, 0);

    let snapshot = post(
        &app,
        "AssessmentSnapshots",
        &json!({"ID": 0, "AssessmentID": assessment, "Name": "Before the change"}),
    )
    .await;
    assert_eq!(snapshot.status(), StatusCode::CREATED);
    let snapshot = snapshot.json::<Value>().await.unwrap()["ID"]
        .as_i64()
        .unwrap();

    // The single choice's key changes from a to b.
    let second = imported(&app, ADMIN, &own_package("Plant cells", "b"), "cells.zip").await;
    assert_eq!(second["Assessment"], "updated");
    assert_eq!(second["AssessmentId"], first["AssessmentId"]);
    let cells = &second["Questions"][0];
    assert_eq!(cells["Outcome"], "revised");
    assert_eq!(cells["Revision"], 2);
    assert_eq!(cells["PreviousQuestionId"], old_cells.to_string());
    let new_cells = question_id(&second, 0);
    assert_ne!(new_cells, old_cells, "a new revision is a new question");
    for index in 1..4 {
        assert_eq!(second["Questions"][index]["Outcome"], "unchanged");
        assert_eq!(
            second["Questions"][index]["QuestionId"],
            first["Questions"][index]["QuestionId"]
        );
    }
    let listed = app
        .sql_column::<i64>(&format!(
            "SELECT question_id FROM assessment_questions WHERE assessment_id = {assessment} ORDER BY position"
        ))
        .await;
    assert_eq!(listed[0], new_cells, "the assessment asks the new revision");
    let keys = |id: i64| {
        format!(
            "SELECT text FROM choices WHERE question_id = {id} AND {} ORDER BY choice_order",
            "is_correct"
        )
    };
    assert_eq!(
        app.sql_strings(&keys(old_cells)).await,
        ["Nucleus"],
        "the old is kept"
    );
    assert_eq!(app.sql_strings(&keys(new_cells)).await, ["Vacuole"]);
    let fixed = app
        .sql_column::<i64>(&format!(
            "SELECT question_id FROM snapshot_questions WHERE snapshot_id = {snapshot} ORDER BY position"
        ))
        .await;
    assert_eq!(fixed[0], old_cells, "the snapshot keeps what it fixed");

    let before = app.row_counts(&CONTENT_TABLES).await;
    let third = imported(&app, ADMIN, &own_package("Plant cells", "b"), "cells.zip").await;
    assert_eq!(third["Assessment"], "unchanged");
    assert_eq!(app.row_counts(&CONTENT_TABLES).await, before);
    // Another title is another assessment.
    let other = imported(
        &app,
        ADMIN,
        &own_package("Plant cells II", "b"),
        "cells.zip",
    )
    .await;
    assert_eq!(other["Assessment"], "created");
    assert_ne!(other["AssessmentId"], first["AssessmentId"]);
}

async fn roles(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let before = app.row_counts(&CONTENT_TABLES).await;
    for user in ["northwind-scorer", "northwind-coordinator"] {
        let response = import(&app, user, &own_package("Roles", "a"), "roles.zip", false).await;
        assert_eq!(response.status(), StatusCode::FORBIDDEN, "{user}");
    }
    assert_eq!(app.row_counts(&CONTENT_TABLES).await, before);
}

async fn delivered(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let report = imported(&app, ADMIN, &own_package("Plant cells", "a"), "cells.zip").await;
    let assessment = report["AssessmentId"].as_str().unwrap().to_owned();
    let (snapshot, attempt) = sit(&app, &assessment, "imported-1").await;
    let number = |position: i32, text: &'static str| choice_number(&app, snapshot, position, text);
    let upload = json!({
        "AttemptID": attempt,
        "QuestionAndChoices": [
            {"QuestionOrderNumber": 1, "UploadedChoices": [
                {"ChoiceOrderNumber": number(1, "Nucleus").await, "Selected": true}]},
            // match_correct is all or nothing: one right and one wrong earns 0.
            {"QuestionOrderNumber": 2, "UploadedChoices": [
                {"ChoiceOrderNumber": number(2, "Mitochondrion").await, "Selected": true},
                {"ChoiceOrderNumber": number(2, "Starch").await, "Selected": true}]},
            {"QuestionOrderNumber": 3, "TextResponse": "Water moves through a membrane."},
            // map_response, whatever the case: glucose is worth 1 of 2.
            {"QuestionOrderNumber": 4, "TextResponse": "Glucose"}
        ]
    });
    let (result, scores) = uploaded_scores(&app, &upload, attempt).await;
    assert_eq!(
        scores,
        [2, 0, -1, 1],
        "single right; all or nothing; to score; mapped"
    );
    let (total, max) = (
        app.sql_i64(&format!(
            "SELECT CAST(total_score AS BIGINT) FROM results WHERE id = {result}"
        ))
        .await,
        app.sql_i64(&format!(
            "SELECT CAST(max_score AS BIGINT) FROM results WHERE id = {result}"
        ))
        .await,
    );
    assert_eq!((total, max), (3, 10));
    let tasks = app
        .sql_i64(&format!(
            "SELECT COUNT(*) FROM scoring_tasks WHERE result_id = {result} AND status = 0"
        ))
        .await;
    assert_eq!(tasks, 1, "the essay waits for a scorer");
}
