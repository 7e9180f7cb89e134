//! A print batch's answer sheets (our extension, docs/paper-sheets.md): a signed,
//! time-limited link on a single PrintBatch read, opening (without credentials)
//! one page per attempt with its code; an altered link, or one turned to another
//! resource, opens nothing.

use reqwest::StatusCode;
use scoredesk_e2e::{on_both_backends, Backend, TestApp};

use crate::uploads::deliver;

on_both_backends! {
    a_batchs_sheets_open_through_their_signed_link => sheets;
}

async fn sheets(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let delivery = deliver(&app, "sheets-1").await;
    let (status, batch) = app
        .get_json_with(
            "northwind-coordinator",
            &format!("{}PrintBatches({})", app.root(), delivery.batch),
            &[],
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let url = batch["AnswerSheetsSourceUrl"].as_str().unwrap().to_owned();
    assert!(
        url.contains(&format!("/batches/{}?variant=sheets", delivery.batch)),
        "{url}"
    );
    let (_, listed) = app
        .get_json_with(
            "northwind-coordinator",
            &format!("{}PrintBatches", app.root()),
            &[],
        )
        .await;
    assert!(
        listed["value"][0]["AnswerSheetsSourceUrl"].is_null(),
        "links only on single reads"
    );

    // A browser's request: no credentials at all.
    let page = app.client.get(&url).send().await.unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    assert!(page.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    let html = page.text().await.unwrap();
    let code = format!(
        "data-code=\"SDSHEET4/{}/{}/{}/1/",
        app.northwind(),
        delivery.batch,
        delivery.attempt
    );
    assert!(
        html.contains(&code),
        "the attempt's first page carries its code"
    );
    assert!(html.contains("<svg"), "a QR code");
    assert!(html.contains("class=\"essay\""), "the essays' frames");

    let altered = url.replace("signature=", "signature=x");
    assert_eq!(
        app.client.get(&altered).send().await.unwrap().status(),
        StatusCode::FORBIDDEN
    );
    // The same signature does not open a snapshot of the batch's number.
    let elsewhere = url.replace("/batches/", "/snapshots/");
    assert_eq!(
        app.client.get(&elsewhere).send().await.unwrap().status(),
        StatusCode::FORBIDDEN
    );
}
