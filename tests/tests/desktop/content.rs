//! Issue 17 in the real window: the content desk. The embedded server's
//! administrator previews a package that a third-party tool wrote (qti-package-maker),
//! sees what importing will create and what it skips, imports it with Enter, finds
//! the assessment on the delivery desk, and is told that importing it again
//! changes nothing; a Canvas quiz in QTI 1.2 (text2qti's) and a Moodle XML bank
//! preview; a file
//! that is not a package gets the server's words. Then an
//! imported essay's rubric is written by keyboard, its sum checked as it is typed.

use fantoccini::key::Key;
use fantoccini::Client;
use scoredesk_e2e::qti::{moodle_bank, moodle_cloze, own_package, qti12_packages, third_party};

use crate::support::{artifacts_dir, ctrl, press, type_into, wait_for, Api, DesktopSession};

/// The assessment an import's summary names ("… it is assessment 17; …").
fn assessment_of(summary: &str) -> String {
    summary
        .split("it is assessment ")
        .nth(1)
        .unwrap_or_else(|| panic!("no assessment in {summary:?}"))
        .chars()
        .take_while(char::is_ascii_digit)
        .collect()
}

/// The import report's sentence, once the report of a preview (or an import) shows.
async fn report_sentence(client: &Client, preview: bool) -> String {
    wait_for(
        client,
        &format!("#import-report[data-preview='{preview}'] #import-summary"),
    )
    .await
    .text()
    .await
    .unwrap()
}

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
    let summary = report_sentence(client, true).await;
    assert_eq!(
        summary,
        "Importing will create “third-party-biology” with 8 questions (QTI 2.x, 1 image)."
    );
    let rows = client
        .find_all(fantoccini::Locator::Css(
            "#import-questions tbody tr[data-outcome='created']",
        ))
        .await
        .unwrap();
    assert_eq!(rows.len(), 8, "the matching comes in too");
    let matching = rows[5].text().await.unwrap();
    assert!(
        matching.contains("matching (2 rows, 2 options)")
            && matching.contains("pairs Frog → Amphibian; Eagle → Bird"),
        "{matching}"
    );
    assert!(
        client
            .find(fantoccini::Locator::Css("#import-skipped"))
            .await
            .is_err(),
        "nothing is skipped"
    );
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
    let summary = report_sentence(client, false).await;
    assert!(
        summary
            .starts_with("“third-party-biology” was imported with 8 questions: it is assessment "),
        "{summary}"
    );
    let id = assessment_of(&summary);
    assert!(!summary.contains("not imported"), "{summary}");
    assert_eq!(named(&api.get("Assessments").await), 1);
    let assessment = api.get(&format!("Assessments({id}L)")).await;
    assert_eq!(assessment["Name"], "third-party-biology");
    session.screenshot("content-imported").await;

    // Again: nothing would change.
    preview(client, &package).await;
    let again = report_sentence(client, true).await;
    assert_eq!(
        again,
        "“third-party-biology” is already here as it is in this package: importing changes nothing."
    );
    press(client, &[Key::Escape.into()]).await;

    // A Canvas quiz in QTI 1.2, as text2qti writes it: every question comes in.
    let canvas = folder.path().join("text2qti.zip");
    std::fs::write(&canvas, qti12_packages().0.bytes).unwrap();
    preview(client, &canvas).await;
    let summary = report_sentence(client, true).await;
    assert_eq!(
        summary,
        "Importing will create “Physics check” with 8 questions (QTI 1.2, 0 images)."
    );
    let kinds = client
        .find_all(fantoccini::Locator::Css("#import-questions tbody tr"))
        .await
        .unwrap();
    assert_eq!(kinds.len(), 8);
    // The numeric entry says so, and what it accepts.
    let fourth = kinds[3].text().await.unwrap();
    assert!(
        fourth.contains("number entry") && fourth.contains("accepts 9.76 to 9.86"),
        "{fourth}"
    );
    session.screenshot("content-preview-qti12").await;
    press(client, &[Key::Escape.into()]).await;

    // A Moodle XML bank (moodle_questions's): one file, not a zip.
    let bank = folder.path().join("moodle-bank.xml");
    std::fs::write(&bank, moodle_bank().bytes).unwrap();
    preview(client, &bank).await;
    let summary = report_sentence(client, true).await;
    assert_eq!(
        summary,
        "Importing will create “moodle-bank.xml” with 4 questions (Moodle XML, 0 images)."
    );
    // Its drag and drop into text: a matching of its two gaps.
    let rows = client
        .find_all(fantoccini::Locator::Css("#import-questions tbody tr"))
        .await
        .unwrap();
    let gaps = rows[3].text().await.unwrap();
    assert!(
        gaps.contains("matching (2 rows, 3 options)")
            && gaps.contains("pairs Gap 1 → apple; Gap 2 → banana"),
        "{gaps}"
    );
    press(client, &[Key::Escape.into()]).await;

    // Moodle cloze questions (moocloze's): blanks, each with its keys, typed or
    // picked from a dropdown; the checkboxes cloze skipped, saying why.
    let cloze = folder.path().join("cloze.xml");
    std::fs::write(&cloze, moodle_cloze().bytes).unwrap();
    preview(client, &cloze).await;
    let summary = report_sentence(client, true).await;
    assert_eq!(
        summary,
        "Importing will create “cloze.xml” with 3 questions (Moodle XML, 0 images); 1 item is not imported."
    );
    let rows = client
        .find_all(fantoccini::Locator::Css("#import-questions tbody tr"))
        .await
        .unwrap();
    assert_eq!(rows.len(), 3);
    let dropdowns = rows[2].text().await.unwrap();
    assert!(
        dropdowns.contains("fill in the blanks (3 blanks, 2 with options)")
            && dropdowns.contains("accepts Blank 1: red (1); Blank 2: blue (2); Blank 3: blue (1)"),
        "{dropdowns}"
    );
    let first = rows[0].text().await.unwrap();
    assert!(
        first.contains("fill in the blanks (2 blanks)")
            && first.contains("accepts Blank 1: Paris (1); Blank 2: 9.76 to 9.86 (2)"),
        "{first}"
    );
    let skipped = wait_for(client, "#import-skipped")
        .await
        .text()
        .await
        .unwrap();
    assert!(skipped.contains("an embedded MULTIRESPONSE"), "{skipped}");
    session.screenshot("content-preview-cloze").await;
    press(client, &[Key::Escape.into()]).await;

    // A file that is not a package: the server's words, naming what is wrong.
    let broken = folder.path().join("notes.zip");
    std::fs::write(&broken, b"these are my notes, not a zip").unwrap();
    preview(client, &broken).await;
    let error = wait_for(client, "#content-error[data-shown='true']")
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_administrator_writes_an_imported_essays_rubric_by_keyboard() {
    let session = DesktopSession::start().await;
    let client = &session.client;
    wait_for(client, "#task-list li[data-question]").await;
    let api = Api::of(&session).await;
    let folder = tempfile::tempdir().unwrap();
    let package = folder.path().join("plant-cells.zip");
    std::fs::write(&package, own_package("Plant cells", "a")).unwrap();

    // Imported through the desk: the rubrics part then shows its essays.
    press(client, &['c']).await;
    preview(client, &package).await;
    wait_for(client, "#import-report[data-preview='true']").await;
    press(client, &[Key::Enter.into()]).await;
    let summary = report_sentence(client, false).await;
    let assessment = assessment_of(&summary);
    wait_for(
        client,
        &format!("#rubric-assessment[data-id='{assessment}']"),
    )
    .await;
    let essay = wait_for(client, "#rubric-questions tr.highlighted[data-rubric='']").await;
    let question = essay.attr("data-id").await.unwrap().unwrap();
    assert!(essay
        .text()
        .await
        .unwrap()
        .contains("none: scorers cannot score it yet"));

    // E writes its rubric; the sum is checked as it is typed.
    press(client, &['e']).await;
    wait_for(client, "#rubric-editor").await;
    type_into(client, "rubric-name", "Osmosis").await;
    type_into(client, "dimension-name-0", "Idea").await;
    type_into(client, "dimension-max-0", "3").await;
    wait_for(client, "#rubric-sum[data-total='3'].off").await;
    assert!(wait_for(client, "#save-rubric")
        .await
        .attr("disabled")
        .await
        .unwrap()
        .is_some());
    let problems = wait_for(client, "#rubric-problems")
        .await
        .text()
        .await
        .unwrap();
    assert!(
        problems.contains("The dimensions add up to 3; the question is worth 4"),
        "{problems}"
    );
    // One line per score: Enter between them, as a person types them.
    let enter: char = Key::Enter.into();
    let levels = [
        "Nothing relevant",
        "Water moves",
        "Through a membrane",
        "Down a concentration gradient",
    ]
    .join(&enter.to_string());
    type_into(client, "dimension-levels-0", &levels).await;
    // Tab from the levels reaches "Add a dimension"; Enter adds one, worth what is left.
    press(client, &[Key::Tab.into(), Key::Enter.into()]).await;
    wait_for(client, "li.dimension[data-index='1']").await;
    press(client, &['L', 'a', 'n', 'g', 'u', 'a', 'g', 'e']).await;
    wait_for(client, "#rubric-sum[data-total='4']:not(.off)").await;
    session.screenshot("content-rubric-editor").await;
    ctrl(client, 's').await;
    let saved = wait_for(client, "#content-message[data-shown='true']")
        .await
        .text()
        .await
        .unwrap();
    assert!(
        saved.ends_with("saved: scorers can score this question now."),
        "{saved}"
    );

    let rubrics = api
        .get(&format!("Questions({question}L)/Rubric?$expand=Dimensions"))
        .await;
    let rubric = &rubrics["value"][0];
    assert_eq!(rubric["Name"], "Osmosis");
    assert_eq!(rubric["MaxScore"], 4);
    let names: Vec<&str> = rubric["Dimensions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["Name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Idea", "Language"]);
    let id = rubric["ID"].as_i64().unwrap();
    let levels = api
        .get(&format!("DimensionLevels?$filter=RubricID eq {id}"))
        .await;
    assert_eq!(levels["value"].as_array().unwrap().len(), 4);

    // Edited again before any score used it: the new one replaces it.
    wait_for(
        client,
        &format!("#rubric-questions tr.highlighted[data-rubric='{id}']"),
    )
    .await;
    press(client, &['e']).await;
    let name = wait_for(client, "#rubric-name").await;
    assert_eq!(
        name.prop("value").await.unwrap().as_deref(),
        Some("Osmosis")
    );
    type_into(client, "rubric-name", "Osmosis, clearer").await;
    // Esc leaves the field, a second says the changes are not saved, and neither
    // throws them away (issue 33: one Esc closed the editor and lost them).
    press(client, &[Key::Escape.into(), Key::Escape.into()]).await;
    wait_for(client, "#rubric-unsaved").await;
    assert_eq!(
        wait_for(client, "#rubric-name")
            .await
            .prop("value")
            .await
            .unwrap()
            .as_deref(),
        Some("Osmosis, clearer")
    );
    ctrl(client, 's').await;
    let again = wait_for(client, "#content-message[data-shown='true']")
        .await
        .text()
        .await
        .unwrap();
    assert!(
        again.contains(&format!("it replaces rubric {id}, which no score used")),
        "{again}"
    );
    session.screenshot("content-rubrics").await;
}
