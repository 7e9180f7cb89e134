//! A snapshot's printable page through its signed links (contract, "Security"):
//! null in collections, filled on each single read; the page opens without
//! credentials, prints the same bytes every time, marks the key only in its
//! variant, and a link that is altered, expired or of another area opens nothing.

use reqwest::{Method, StatusCode};
use scoredesk_e2e::{odata_error_message, on_both_backends, Backend, TestApp};
use scoredesk_server::seed::demo::DEMO_PASSWORD;
use serde_json::{json, Value};

on_both_backends! {
    a_snapshot_prints_through_its_signed_links => prints;
    an_altered_or_expired_link_opens_nothing => refused;
}

const COORDINATOR: &str = "northwind-coordinator";

async fn snapshot(app: &TestApp) -> i64 {
    let assessment = app
        .sql_i64(&format!(
            "SELECT MIN(assessment_id) FROM assessment_questions WHERE customer_id = {}",
            app.northwind()
        ))
        .await;
    let response = app
        .client
        .post(app.url(&format!("{}AssessmentSnapshots", app.root())))
        .basic_auth(COORDINATOR, Some(DEMO_PASSWORD))
        .json(&json!({"ID": 0, "AssessmentID": assessment.to_string(), "Name": "Spring paper"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
    let created: Value = response.json().await.unwrap();
    assert!(
        created["PrintableDocumentSourceUrl"].is_string(),
        "a new snapshot carries its links: {created}"
    );
    created["ID"].as_i64().unwrap()
}

async fn links(app: &TestApp, id: i64) -> (String, String) {
    let (status, body) = app
        .get_json_with(
            COORDINATOR,
            &format!("{}AssessmentSnapshots({id})", app.root()),
            &[],
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    (
        body["PrintableDocumentSourceUrl"]
            .as_str()
            .unwrap()
            .to_owned(),
        body["PrintableDocumentWithAnswersSourceUrl"]
            .as_str()
            .unwrap()
            .to_owned(),
    )
}

async fn open(app: &TestApp, url: &str) -> reqwest::Response {
    // A browser's request: no credentials at all.
    app.client.get(url).send().await.unwrap()
}

async fn prints(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let id = snapshot(&app).await;
    let listed = app
        .get_json(&format!("{}AssessmentSnapshots", app.root()))
        .await;
    for entity in listed["value"].as_array().unwrap() {
        assert!(entity["PrintableDocumentSourceUrl"].is_null(), "{entity}");
        assert!(
            entity["PrintableDocumentWithAnswersSourceUrl"].is_null(),
            "{entity}"
        );
    }
    let (questions, answers) = links(&app, id).await;
    assert!(questions.starts_with(&app.address), "{questions}");
    assert!(
        questions.contains(&format!("/print/{}/snapshots/{id}?", app.northwind())),
        "{questions}"
    );

    let response = open(&app, &questions).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert!(response.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    let csp = response.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(csp.contains("default-src 'none'"), "{csp}");
    let page = response.text().await.unwrap();
    // Every question in the snapshot's order, every choice of it labelled in order.
    let positions = app
        .sql_i64(&format!(
            "SELECT COUNT(*) FROM snapshot_questions WHERE snapshot_id = {id}"
        ))
        .await;
    let mut from = 0;
    for number in 1..=positions {
        let at = page[from..]
            .find(&format!("data-question=\"{number}\""))
            .unwrap_or_else(|| panic!("question {number} is missing or out of order"));
        from += at;
    }
    assert!(!page.contains("choice correct"), "the paper has no key");
    let texts = app
        .sql_strings(&format!(
            "SELECT c.text FROM snapshot_choices s JOIN snapshot_questions q ON q.snapshot_id = s.snapshot_id AND q.position = s.position \
             JOIN choices c ON c.question_id = q.question_id AND c.choice_order = s.choice_order \
             WHERE s.snapshot_id = {id} ORDER BY s.position, s.choice_position"
        ))
        .await;
    let mut from = 0;
    for text in &texts {
        let at = page[from..]
            .find(text.as_str())
            .unwrap_or_else(|| panic!("choice {text} missing or out of order"));
        from += at;
    }
    // The same page every time, from a fresh link too.
    assert_eq!(open(&app, &questions).await.text().await.unwrap(), page);
    let (fresh, _) = links(&app, id).await;
    assert_eq!(open(&app, &fresh).await.text().await.unwrap(), page);

    let key = open(&app, &answers).await.text().await.unwrap();
    let correct = app
        .sql_i64(&format!(
            "SELECT COUNT(*) FROM snapshot_choices s JOIN snapshot_questions q ON q.snapshot_id = s.snapshot_id AND q.position = s.position \
             JOIN choices c ON c.question_id = q.question_id AND c.choice_order = s.choice_order \
             WHERE s.snapshot_id = {id} AND c.is_correct"
        ))
        .await;
    assert!(correct > 0);
    assert_eq!(
        key.matches("class=\"choice correct\"").count() as i64,
        correct
    );
    // Each question with a current rubric has its marking guide on the key, with
    // every level's words; the question paper has none (issue 33, defect 11).
    let current = format!(
        "FROM snapshot_questions q JOIN rubrics r ON r.question_id = q.question_id AND r.replaced_at IS NULL \
         WHERE q.snapshot_id = {id}"
    );
    let guided = app.sql_i64(&format!("SELECT COUNT(*) {current}")).await;
    assert!(
        guided > 0,
        "the demo's assessment has an essay with a rubric"
    );
    assert_eq!(key.matches("<div class=\"guide\">").count() as i64, guided);
    assert!(!page.contains("<div class=\"guide\">"));
    let levels = app
        .sql_strings(&format!(
            "SELECT l.description FROM dimension_levels l JOIN rubrics r ON r.id = l.rubric_id \
             JOIN snapshot_questions q ON q.question_id = r.question_id \
             WHERE q.snapshot_id = {id} AND r.replaced_at IS NULL"
        ))
        .await;
    assert!(!levels.is_empty());
    // The page escapes text (minijinja's HTML escaping): read it back as text.
    let key_text = key
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#x27;", "'")
        .replace("&#x2f;", "/")
        .replace("&amp;", "&");
    for level in &levels {
        assert!(
            key_text.contains(level.as_str()),
            "the level {level:?} on the key"
        );
    }

    // Scorers do not read snapshots, so never get a link.
    let scorer = app
        .request_as(
            Method::GET,
            &format!("{}AssessmentSnapshots({id})", app.root()),
            "northwind-scorer",
            DEMO_PASSWORD,
        )
        .await;
    assert_eq!(scorer.status(), StatusCode::FORBIDDEN);
}

async fn refused(backend: Backend) {
    let app =
        TestApp::spawn_with_demo_configured(backend, |settings| settings.print_link_seconds = 1)
            .await;
    let id = snapshot(&app).await;
    let (questions, _) = links(&app, id).await;
    assert_eq!(open(&app, &questions).await.status(), StatusCode::OK);
    let area = app.northwind();
    let signature_at = questions.find("signature=").unwrap() + "signature=".len();
    let mut flipped = questions.clone();
    let last = flipped.pop().unwrap();
    flipped.push(if last == 'A' { 'B' } else { 'A' });
    let altered = [
        questions.replace(
            &format!("/snapshots/{id}?"),
            &format!("/snapshots/{}?", id + 1),
        ),
        questions.replace(
            &format!("/print/{area}/"),
            &format!("/print/{}/", app.harbour()),
        ),
        questions.replace("variant=questions", "variant=answers"),
        questions.replace("expires=", "expires=9"),
        flipped,
        questions[..signature_at].to_owned(),
        questions[..questions.find("&signature").unwrap()].to_owned(),
        questions.replace("variant=questions", "variant=everything"),
        // The same numbers spelled otherwise, and parameters the server never
        // writes (issue 31): nobody issued these links.
        questions.replace("expires=", "expires=0"),
        questions.replace("expires=", "expires=%2B"),
        questions.replace(&format!("/print/{area}/"), &format!("/print/0{area}/")),
        questions.replace(&format!("/snapshots/{id}?"), &format!("/snapshots/0{id}?")),
        format!("{questions}&variant=questions"),
        format!("{questions}&utm_source=mail"),
    ];
    for url in altered {
        let response = open(&app, &url).await;
        assert_eq!(response.status(), StatusCode::FORBIDDEN, "{url}");
        assert!(
            odata_error_message(response).await.contains("not valid"),
            "{url}"
        );
    }
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    let response = open(&app, &questions).await;
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    assert!(odata_error_message(response).await.contains("expired"));
}
