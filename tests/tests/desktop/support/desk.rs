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
