//! QTI 1.2 (issue 35): the Canvas classic-quiz profile as two third-party tools
//! write it (text2qti from a plain-text quiz; qti-package-maker's Canvas engine)
//! and a Blackboard pool (qti-package-maker's Blackboard export),
//! imported on both databases and checked question by question against what the
//! tools were given (`tests/fixtures/qti/make_qti12.py`): kind, choices and the
//! right ones, typed keys, number ranges, maxima (Canvas's points, scored in
//! percent), matchings (their rows, options and right pairs), blanks (each
//! blank's answers, Canvas's shares summed, Blackboard's all or nothing). The text2qti
//! quiz then goes the whole path: snapshot, printed paper, upload, Result.

use scoredesk_e2e::qti::qti12_packages;
use scoredesk_e2e::{on_both_backends, Backend, TestApp};
use serde_json::{json, Value};

use crate::qti_packages::{
    choice_number, imported, printed_paper, result_totals, sit, uploaded_scores,
};

on_both_backends! {
    canvas_quizzes_from_two_tools_are_imported_as_their_sources_say => sources;
    a_canvas_quiz_is_printed_uploaded_and_scored => delivered;
}

const ADMIN: &str = "northwind-admin";

async fn strings(app: &TestApp, sql: String) -> Vec<String> {
    app.sql_strings(&sql).await
}

/// The imported questions against the source, in order; `tool` names the
/// source's scoring where tools differ (`canvas`, `blackboard`).
async fn check(app: &TestApp, report: &Value, source: &[Value], tool: &str) {
    let expected: Vec<&Value> = source.iter().filter(|s| !s["type"].is_null()).collect();
    let questions = report["Questions"].as_array().unwrap();
    assert_eq!(questions.len(), expected.len(), "{report}");
    let skipped = report["Skipped"].as_array().unwrap();
    assert_eq!(skipped.len(), source.len() - expected.len(), "{report}");
    for (skip, wanted) in skipped
        .iter()
        .zip(source.iter().filter(|s| s["type"].is_null()))
    {
        let reason = skip["Reason"].as_str().unwrap();
        assert!(
            reason.contains(wanted["reason"].as_str().unwrap()),
            "{skip}"
        );
    }
    for (question, item) in questions.iter().zip(expected) {
        let id: i64 = question["QuestionId"].as_str().unwrap().parse().unwrap();
        assert_eq!(question["QuestionType"], item["type"], "{question} {item}");
        let max = app
            .sql_i64(&format!(
                "SELECT CAST(max_score AS BIGINT) FROM questions WHERE id = {id}"
            ))
            .await;
        let wanted_max = item["max"][tool].as_i64().unwrap_or(1);
        assert_eq!(max, wanted_max, "Canvas's points_possible: {item}");
        if let Some(blanks) = item["blanks"].as_array() {
            assert_eq!(question["Parts"], json!(blanks), "{question}");
            assert_eq!(question["Keys"], item["blank_keys"][tool], "{question}");
            assert_eq!(question["Scoring"], item["scoring"][tool], "{question}");
            let markup =
                strings(app, format!("SELECT markup FROM questions WHERE id = {id}")).await;
            let words = markup[0]
                .replace("<span class=\"blank\">", "")
                .replace("</span>", "");
            assert!(
                words.contains(item["stem"].as_str().unwrap()),
                "each bracket a numbered blank in place: {markup:?}"
            );
        }
        if let Some(pairs) = item["pairs"].as_array() {
            assert_eq!(question["Parts"], item["rows"], "{question}");
            assert_eq!(question["Keys"], json!(pairs), "{question}");
            assert_eq!(question["Scoring"], item["scoring"][tool], "{question}");
            let options = strings(
                app,
                format!("SELECT text FROM choices WHERE question_id = {id} ORDER BY choice_order"),
            )
            .await;
            assert_eq!(json!(options), item["options"], "{item}");
            let stored = strings(
                app,
                format!(
                    "SELECT p.text || ' → ' || c.text FROM pair_keys k \
                     JOIN question_parts p ON p.question_id = k.question_id AND p.part_number = k.part_number \
                     JOIN choices c ON c.question_id = k.question_id AND c.choice_order = k.choice_order \
                     WHERE k.question_id = {id} AND k.is_correct ORDER BY k.part_number"
                ),
            )
            .await;
            assert_eq!(json!(stored), item["pairs"], "{item}");
            let markup =
                strings(app, format!("SELECT markup FROM questions WHERE id = {id}")).await;
            assert!(
                !markup[0].contains("NeonSodium") && markup[0].contains("Match each element"),
                "the rows' words are not in the question's: {markup:?}"
            );
        }
        if let Some(choices) = item["choices"].as_array() {
            let stored = strings(
                app,
                format!(
                    "SELECT text || '|' || CASE WHEN is_correct THEN 'right' ELSE 'wrong' END \
                     FROM choices WHERE question_id = {id} ORDER BY choice_order"
                ),
            )
            .await;
            let correct = item["correct"].as_array().unwrap();
            let wanted: Vec<String> = choices
                .iter()
                .map(|c| {
                    let right = if correct.contains(c) {
                        "right"
                    } else {
                        "wrong"
                    };
                    format!("{}|{right}", c.as_str().unwrap())
                })
                .collect();
            assert_eq!(stored, wanted, "{item}");
        }
        if let Some(keys) = item["keys"].as_array() {
            assert_eq!(question["Keys"], json!(keys), "the report shows the keys");
            assert_eq!(question["NumericKeys"], false);
            let stored = strings(
                app,
                format!(
                    "SELECT text || '|' || CASE WHEN case_sensitive THEN 'exact' ELSE 'any case' END \
                     FROM text_keys WHERE question_id = {id} ORDER BY key_order"
                ),
            )
            .await;
            let wanted: Vec<String> = keys
                .iter()
                .map(|k| format!("{}|any case", k.as_str().unwrap()))
                .collect();
            assert_eq!(
                stored, wanted,
                "Canvas's short answers match any case: {item}"
            );
        }
        if let Some(range) = item["range"].as_array() {
            assert_eq!(question["NumericKeys"], true, "{question}");
            assert!(
                !question["Keys"].as_array().unwrap().is_empty(),
                "{question}"
            );
            // Thousandths, so both databases print the range alike.
            let end = |column: &str| {
                format!(
                    "SELECT CAST(ROUND({column} * 1000) AS BIGINT) FROM text_keys WHERE question_id = {id}"
                )
            };
            let stored = [
                app.sql_i64(&end("numeric_low")).await,
                app.sql_i64(&end("numeric_high")).await,
            ];
            let wanted = [0, 1].map(|i| (range[i].as_f64().unwrap() * 1000.0).round() as i64);
            assert_eq!(stored, wanted, "{item}");
        }
    }
}

async fn sources(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let (text2qti, canvas, blackboard) = qti12_packages();
    let report = imported(&app, ADMIN, &text2qti.bytes, "text2qti.zip").await;
    assert_eq!(report["QtiVersion"], "1.2", "{report}");
    assert_eq!(report["AssessmentName"], "Physics check");
    check(&app, &report, &text2qti.source, "canvas").await;
    // The stem's HTML is read as HTML: "7 &times; 6" is "7 × 6".
    let stems: Vec<&str> = report["Questions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q["Text"].as_str().unwrap_or_default())
        .collect();
    assert!(stems.contains(&"What is 7 × 6? ____"), "{stems:?}");

    let report = imported(&app, ADMIN, &canvas.bytes, "canvas-qti12.zip").await;
    assert_eq!(report["QtiVersion"], "1.2");
    assert_eq!(report["AssessmentName"], "canvas-chemistry");
    check(&app, &report, &canvas.source, "canvas").await;

    // Blackboard's dialect: no idents, SCORE.max, right blanks marked by their
    // feedback, materials in mat_formattedtext, the pool in bb:file.
    let report = imported(&app, ADMIN, &blackboard.bytes, "blackboard-pool.zip").await;
    assert_eq!(report["QtiVersion"], "1.2", "{report}");
    assert_eq!(report["AssessmentName"], "blackboard-chemistry");
    check(&app, &report, &blackboard.source, "blackboard").await;

    // Importing again changes nothing.
    let again = imported(&app, ADMIN, &text2qti.bytes, "text2qti.zip").await;
    assert_eq!(again["Assessment"], "unchanged", "{again}");
}

async fn delivered(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let (text2qti, _, _) = qti12_packages();
    let report = imported(&app, ADMIN, &text2qti.bytes, "text2qti.zip").await;
    let assessment = report["AssessmentId"].as_str().unwrap().to_owned();
    let (snapshot, attempt) = sit(&app, &assessment, "canvas-1").await;

    let paper = printed_paper(&app, snapshot).await;
    for words in [
        "Which gas do plants take in for photosynthesis?",
        "Carbon dioxide",
        "What is 7 × 6?",
        "Explain why the sky is blue.",
    ] {
        assert!(paper.contains(words), "{words} is printed: {paper}");
    }
    assert!(!paper.contains("&lt;p&gt;"), "HTML is not printed as text");

    let number = |position: i32, text: &'static str| choice_number(&app, snapshot, position, text);
    let upload = json!({
        "AttemptID": attempt,
        "QuestionAndChoices": [
            {"QuestionOrderNumber": 1, "UploadedChoices": [
                {"ChoiceOrderNumber": number(1, "Carbon dioxide").await, "Selected": true}]},
            {"QuestionOrderNumber": 2, "UploadedChoices": [
                {"ChoiceOrderNumber": number(2, "2").await, "Selected": true},
                {"ChoiceOrderNumber": number(2, "3").await, "Selected": true}]},
            {"QuestionOrderNumber": 3, "TextResponse": "AURUM"},
            {"QuestionOrderNumber": 4, "TextResponse": "9,8"},
            {"QuestionOrderNumber": 5, "TextResponse": "6"},
            {"QuestionOrderNumber": 6, "TextResponse": "42.0"},
            {"QuestionOrderNumber": 7, "TextResponse": "Rayleigh scattering."}
            // 8, the file upload, is not answered.
        ]
    });
    let (result, scores) = uploaded_scores(&app, &upload, attempt).await;
    assert_eq!(
        scores,
        [1, 1, 1, 1, 0, 1, -1, 0],
        "choice; both primes; any case; 9.8 within 0.05; 6 outside 1 to 5; 42.0 is 42; \
         the essay to a person; no upload, no marks"
    );
    assert_eq!(result_totals(&app, result).await, (Some(5), Some(8)));
}
