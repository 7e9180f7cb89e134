//! Steps on the coordinator's desk that several tests take.

use fantoccini::elements::Element;
use fantoccini::key::Key;
use fantoccini::Client;

use super::{press, type_into, wait_for};

/// With the desk open on the newest snapshot and its newest batch (the ones the
/// test made), opens that batch with Enter.
pub async fn open_batch(client: &Client, snapshot: i64, batch: i64) {
    wait_for(
        client,
        &format!("#snapshot-list tr.highlighted[data-id='{snapshot}']"),
    )
    .await;
    wait_for(
        client,
        &format!("#batch-list tr.highlighted[data-id='{batch}']"),
    )
    .await;
    press(client, &[Key::Enter.into()]).await;
    wait_for(client, "#attempt-list").await;
}

/// Types a folder's path into the open batch's upload field (U, Enter) and waits
/// for the last outcome; returns the summary line.
pub async fn upload_folder(client: &Client, folder: &std::path::Path) -> String {
    press(client, &['u']).await;
    type_into(client, "upload-path", &folder.display().to_string()).await;
    press(client, &[Key::Enter.into()]).await;
    wait_for(
        client,
        "#upload-summary[data-done='true'][data-elapsed-ms]:not([data-elapsed-ms=''])",
    )
    .await
    .text()
    .await
    .unwrap()
}

/// The outcome row of `file`, which must be of `kind` (scored, refused, …).
pub async fn outcome_row(client: &Client, file: &str, kind: &str) -> Element {
    let row = wait_for(client, &format!("#upload-outcomes tr[data-file='{file}']")).await;
    assert_eq!(
        row.attr("data-kind").await.unwrap().as_deref(),
        Some(kind),
        "{file}"
    );
    row
}

/// A paper delivery made through the service: a package imported, a snapshot of
/// it, and a print batch of the first group (by name).
pub struct ImportedPaper {
    pub assessment: String,
    pub snapshot: i64,
    pub group: i64,
    pub batch: i64,
}

pub async fn imported_paper_batch(
    api: &super::Api,
    package: &[u8],
    sitting: &str,
    hall: &str,
) -> ImportedPaper {
    use base64::Engine;
    let report = api
        .call(
            "ImportQtiPackage",
            serde_json::json!({"Package": base64::engine::general_purpose::STANDARD.encode(package), "FileName": "paper.zip", "Preview": false}),
        )
        .await;
    let assessment = report["AssessmentId"].as_str().unwrap().to_owned();
    let snapshot = api
        .post(
            "AssessmentSnapshots",
            serde_json::json!({"ID": 0, "AssessmentID": assessment, "Name": sitting}),
        )
        .await["ID"]
        .as_i64()
        .unwrap();
    let group = api.get("Groups?$orderby=Name&$top=1").await["value"][0]["ID"]
        .as_i64()
        .unwrap();
    let batch = api
        .post(
            "PrintBatches",
            serde_json::json!({"ID": 0, "GroupID": group, "SnapshotID": snapshot, "Name": hall}),
        )
        .await["ID"]
        .as_i64()
        .unwrap();
    ImportedPaper {
        assessment,
        snapshot,
        group,
        batch,
    }
}

/// The delivery desk (D) on `paper`'s assessment, its batch opened.
pub async fn open_paper_batch(client: &Client, paper: &ImportedPaper) {
    press(client, &['d']).await;
    wait_for(client, "#delivery-title").await;
    for _ in 0..40 {
        if client
            .find(fantoccini::Locator::Css(&format!(
                "#delivery-assessments button.chosen[data-id='{}']",
                paper.assessment
            )))
            .await
            .is_ok()
        {
            break;
        }
        press(client, &[Key::Down.into()]).await;
        tokio::time::sleep(std::time::Duration::from_millis(150)).await;
    }
    open_batch(client, paper.snapshot, paper.batch).await;
}

/// An attempt of the first member of `paper`'s group at its snapshot
/// (`external`: its ExternalAttemptID); its ID.
pub async fn first_members_attempt(api: &super::Api, paper: &ImportedPaper, external: &str) -> i64 {
    let participant = super::group_members(api, paper.group).await[0];
    api.post(
        "Attempts",
        serde_json::json!({"ParticipantID": participant, "AssessmentID": paper.assessment,
                           "AssessmentSnapshotID": paper.snapshot, "ExternalAttemptID": external}),
    )
    .await["ID"]
        .as_i64()
        .unwrap()
}

/// `paper`'s answer sheets as printed (their signed link, Chromium, 300 dpi):
/// the link, the first page, and the sheet's layout from the snapshot's document.
pub async fn printed_sheet(
    api: &super::Api,
    paper: &ImportedPaper,
) -> (String, image::GrayImage, Vec<scoredesk_sheets::PageLayout>) {
    use scoredesk_server::documents::answer_sheets::sheet_questions_of_snapshot;
    let batch = api.get(&format!("PrintBatches({})", paper.batch)).await;
    let url = batch["AnswerSheetsSourceUrl"].as_str().unwrap().to_owned();
    let print_dir = tempfile::tempdir().unwrap();
    let page = scoredesk_e2e::paper::print_pages(&url, print_dir.path()).remove(0);
    let document = api
        .get_bytes(&format!(
            "AssessmentSnapshots({})/AssessmentSnapshotData/$value",
            paper.snapshot
        ))
        .await;
    let layout = scoredesk_sheets::lay_out(&sheet_questions_of_snapshot(&document).unwrap());
    (url, page, layout)
}
