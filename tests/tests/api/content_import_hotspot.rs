//! Hotspot interactions (issue 35): the IMS QTI 2.1 example `hotspot.xml` (which
//! of four circled airports is Glasgow), with a stand-in picture of the size it
//! declares, imported on both databases as a single choice of its areas; the
//! paper printed by Chromium shows the picture with each area lettered and the
//! lettered choices with bubbles; an upload choosing area A scores the item's
//! mark.

use scoredesk_e2e::qti::{manifest, zip};
use scoredesk_e2e::{on_both_backends, Backend, TestApp};
use serde_json::json;

use crate::content_import_matching::pdf_text;
use crate::qti_packages::{
    choice_number, imported, printed_paper, result_totals, sit, uploaded_scores,
};

on_both_backends! {
    hotspot_areas_are_lettered_on_the_picture_printed_and_scored => delivered;
}

/// The IMS item with a grey picture of 206 × 280 where it names its map.
fn package() -> Vec<u8> {
    let item = std::fs::read(format!(
        "{}/../qti/tests/fixtures/ims/hotspot.xml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let mut png = Vec::new();
    image::GrayImage::from_pixel(206, 280, image::Luma([210]))
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    let resources = [("hotspot", "imsqti_item_xmlv2p1", "hotspot.xml")];
    zip(&[
        ("imsmanifest.xml", manifest(&resources).into_bytes()),
        ("hotspot.xml", item),
        ("images/ukair.png", png),
    ])
}

async fn delivered(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let report = imported(&app, "northwind-admin", &package(), "hotspot.zip").await;
    assert_eq!(report["Skipped"], json!([]), "{report}");
    let question = &report["Questions"][0];
    assert_eq!(question["QuestionType"], "multiple_choice", "{question}");
    assert_eq!(question["MaxScore"], 1, "{question}");
    let assessment = report["AssessmentId"].as_str().unwrap().to_owned();
    let (snapshot, attempt) = sit(&app, &assessment, "hotspot-1").await;

    let paper = printed_paper(&app, snapshot).await;
    assert!(
        paper.contains("<img src=\"data:image/svg+xml;base64,"),
        "the lettered picture is kept on paper: {paper}"
    );
    let text = pdf_text(&app, snapshot).await;
    for words in [
        "Which one is Glasgow?",
        "the area marked A",
        "the area marked D",
        "Fill in one circle.",
    ] {
        assert!(text.contains(words), "{words} is printed:\n{text}");
    }

    let a = choice_number(&app, snapshot, 1, "the area marked A").await;
    let upload = json!({
        "AttemptID": attempt,
        "QuestionAndChoices": [{"QuestionOrderNumber": 1,
            "UploadedChoices": [{"ChoiceOrderNumber": a, "Selected": true}]}]
    });
    let (result, scores) = uploaded_scores(&app, &upload, attempt).await;
    assert_eq!(scores, [1]);
    assert_eq!(result_totals(&app, result).await, (Some(1), Some(1)));
}
