//! A real client nobody here wrote: pyodata 1.12.1, a version 2 client, builds its
//! model from our `$metadata` and uses the service. scripts/test installs it in a
//! private virtual environment and names its Python in SCOREDESK_PYODATA_PYTHON.

use scoredesk_e2e::{on_both_backends, Backend, TestApp};

on_both_backends! {
    pyodata_builds_its_model_from_metadata_filters_pages_reads_counts_and_scores_a_task => pyodata_client;
    pyodata_takes_an_assessment_through_external_delivery_to_a_result => pyodata_delivery;
}

/// Runs one of tests/pyodata's scripts with `arguments` after the service root and
/// the credentials; returns its standard output.
async fn run_script(app: &TestApp, script: &str, user: &str, arguments: &[String]) -> String {
    let python = std::env::var("SCOREDESK_PYODATA_PYTHON").expect(
        "SCOREDESK_PYODATA_PYTHON: run the tests with scripts/test, which installs pyodata",
    );
    // This checkout's script (the variable is read at run time: checkouts can share a
    // target directory, and so a test binary).
    let script = format!(
        "{}/pyodata/{script}",
        std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").into())
    );
    let root = app.url(&app.root());
    let output = tokio::process::Command::new(python)
        .arg(&script)
        .args([root.as_str(), user, "scoredesk-demo"])
        .args(arguments)
        .output()
        .await
        .expect("python runs");
    assert!(
        output.status.success(),
        "pyodata failed:\n{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

async fn pyodata_delivery(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let assessment = app
        .sql_i64(&format!(
            "SELECT MIN(aq.assessment_id) FROM assessment_questions aq JOIN questions q ON q.id = aq.question_id \
             WHERE aq.customer_id = {} AND q.question_type = 'essay'",
            app.northwind()
        ))
        .await;
    let member = app
        .sql_strings(&format!(
            "SELECT CAST(group_id AS TEXT) || ' ' || CAST(participant_id AS TEXT) FROM group_participants \
             WHERE customer_id = {} ORDER BY group_id, participant_id LIMIT 1",
            app.northwind()
        ))
        .await
        .remove(0);
    let (group, participant) = member.split_once(' ').unwrap();
    let output = run_script(
        &app,
        "deliver.py",
        "northwind-coordinator",
        &[
            assessment.to_string(),
            group.to_owned(),
            participant.to_owned(),
        ],
    )
    .await;
    assert!(output.contains("pyodata delivered"), "{output}");
    let result = app
        .sql_i64("SELECT CAST(result_id AS BIGINT) FROM attempts WHERE external_attempt_id = 'pyodata-attempt-1'")
        .await;
    let essays = app
        .sql_i64(&format!(
            "SELECT COUNT(*) FROM assessment_questions aq JOIN questions q ON q.id = aq.question_id \
             WHERE aq.assessment_id = {assessment} AND q.question_type = 'essay'"
        ))
        .await;
    assert_eq!(
        app.sql_i64(&format!(
            "SELECT COUNT(*) FROM scoring_tasks WHERE result_id = {result} AND status = 0"
        ))
        .await,
        essays,
        "each typed essay waits for a scorer"
    );
}

async fn pyodata_client(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let question = app
        .sql_i64(&format!(
            "SELECT CAST(MIN(id) AS BIGINT) FROM questions WHERE customer_id = {}",
            app.northwind()
        ))
        .await;
    let task = crate::scoring_support::open_task_with_rubric(&app).await;
    let output = run_script(
        &app,
        "check_client.py",
        "northwind-admin",
        &[
            question.to_string(),
            task.question.to_string(),
            task.result.to_string(),
        ],
    )
    .await;
    assert!(output.contains("pyodata ok"), "{output}");
}
