//! Issue 17 in the real window: the content desk. The embedded server's
//! administrator previews a package that a third-party tool wrote (qti-package-maker),
//! sees what importing will create and what it skips, imports it with Enter, finds
//! the assessment on the delivery desk, and is told that importing it again
//! changes nothing; a file that is not a package gets the server's words.

use fantoccini::key::Key;
use fantoccini::Client;
use scoredesk_e2e::qti::third_party;

use crate::support::{artifacts_dir, press, type_into, wait_for, Api, DesktopSession};

/// Types `path` into the package field (U) and previews it (Enter).
async fn preview(client: &Client, path: &std::path::Path) {
    press(client, &['u']).await;
    type_into(client, "package-path", &path.display().to_string()).await;
    press(client, &[Key::Enter.into()]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_administrator_previews_and_imports_a_qti_package_by_keyboard() {
    let session = DesktopSession::start().await;
    let client = &session.client;
    wait_for(client, "#task-list li[data-question]").await;
    let api = Api::of(&session).await;
    let folder = tempfile::tempdir().unwrap();
    let package = folder.path().join("third-party-qti21.zip");
    std::fs::write(&package, third_party().qti21).unwrap();

    press(client, &['c']).await;
    wait_for(client, "#content-title").await;
    preview(client, &package).await;
    let summary = wait_for(
        client,
        "#import-report[data-preview='true'] #import-summary",
    )
    .await
    .text()
    .await
    .unwrap();
    assert_eq!(
        summary,
        "Importing will create “third-party-biology” with 6 questions (QTI 2.x, 1 image); 2 items are not imported."
    );
    let rows = client
        .find_all(fantoccini::Locator::Css(
            "#import-questions tbody tr[data-outcome='created']",
        ))
        .await
        .unwrap();
    assert_eq!(rows.len(), 6);
    let skipped = wait_for(client, "#import-skipped")
        .await
        .text()
        .await
        .unwrap();
    assert!(
        skipped.contains("<matchInteraction> is not imported"),
        "{skipped}"
    );
    assert!(skipped.contains("base type 'float'"), "{skipped}");
    session.screenshot("content-preview").await;
    let named = |assessments: &serde_json::Value| {
        assessments["value"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| a["Name"] == "third-party-biology")
            .count()
    };
    assert_eq!(
        named(&api.get("Assessments").await),
        0,
        "a preview stores nothing"
    );

    // Enter imports what the preview showed.
    press(client, &[Key::Enter.into()]).await;
    let summary = wait_for(
        client,
        "#import-report[data-preview='false'] #import-summary",
    )
    .await
    .text()
    .await
    .unwrap();
    assert!(
        summary
            .starts_with("“third-party-biology” was imported with 6 questions: it is assessment "),
        "{summary}"
    );
    let id: String = summary
        .split("it is assessment ")
        .nth(1)
        .unwrap()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    assert!(
        summary.ends_with("; 2 items are not imported."),
        "{summary}"
    );
    assert_eq!(named(&api.get("Assessments").await), 1);
    let assessment = api.get(&format!("Assessments({id}L)")).await;
    assert_eq!(assessment["Name"], "third-party-biology");
    session.screenshot("content-imported").await;

    // Again: nothing would change.
    preview(client, &package).await;
    let again = wait_for(
        client,
        "#import-report[data-preview='true'] #import-summary",
    )
    .await
    .text()
    .await
    .unwrap();
    assert_eq!(
        again,
        "“third-party-biology” is already here as it is in this package: importing changes nothing; 2 items are not imported."
    );
    press(client, &[Key::Escape.into()]).await;

    // A file that is not a package: the server's words, naming what is wrong.
    let broken = folder.path().join("notes.zip");
    std::fs::write(&broken, b"these are my notes, not a zip").unwrap();
    preview(client, &broken).await;
    let error = wait_for(client, "#content-error")
        .await
        .text()
        .await
        .unwrap();
    assert!(error.contains("package: not a zip file"), "{error}");
    session.screenshot("content-refused").await;

    // The imported assessment is on the delivery desk, ready for a snapshot.
    press(client, &['d']).await;
    wait_for(
        client,
        &format!("#delivery-assessments button[data-id='{id}']"),
    )
    .await;
    assert!(artifacts_dir().join("content-preview.png").exists());
}
