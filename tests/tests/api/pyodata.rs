//! A real client nobody here wrote: pyodata 1.12.1, a version 2 client, builds its
//! model from our `$metadata` and uses the service. scripts/test installs it in a
//! private virtual environment and names its Python in SCOREDESK_PYODATA_PYTHON.

use scoredesk_e2e::{on_both_backends, Backend, TestApp};

on_both_backends! {
    pyodata_builds_its_model_from_metadata_filters_pages_reads_counts_and_scores_a_task => pyodata_client;
}

async fn pyodata_client(backend: Backend) {
    let python = std::env::var("SCOREDESK_PYODATA_PYTHON").expect(
        "SCOREDESK_PYODATA_PYTHON: run the tests with scripts/test, which installs pyodata",
    );
    let app = TestApp::spawn_with_demo(backend).await;
    let question = app
        .sql_i64(&format!(
            "SELECT CAST(MIN(id) AS BIGINT) FROM questions WHERE customer_id = {}",
            app.northwind()
        ))
        .await;
    let task = crate::scoring_support::open_task_with_rubric(&app).await;
    // This checkout's script (the variable is read at run time: checkouts can share a
    // target directory, and so a test binary).
    let script = format!(
        "{}/pyodata/check_client.py",
        std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").into())
    );
    let root = app.url(&app.root());
    let output = tokio::process::Command::new(python)
        .args([
            script.as_str(),
            &root,
            "northwind-admin",
            "scoredesk-demo",
            &question.to_string(),
            &task.question.to_string(),
            &task.result.to_string(),
        ])
        .output()
        .await
        .expect("python runs");
    assert!(
        output.status.success(),
        "pyodata failed:\n{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(String::from_utf8_lossy(&output.stdout).contains("pyodata ok"));
}
