//! Graphic order, graphic associate and graphic gap match interactions (issue
//! 35): the IMS QTI 2.1 examples `graphic_order.xml` (Lorna's airports in her
//! order), `graphic_associate.xml` (an airline's new routes) and
//! `graphic_gap_match.xml` (airport codes placed on a map), with stand-in
//! pictures of the sizes they declare, imported on both databases as an order
//! over the picture's lettered areas, a multiple response over pairs of them and
//! a matching of areas with the pictures to place; the
//! snapshot XML validated, the paper printed by Chromium with the lettered
//! picture, and an upload scored as the items score it.

use scoredesk_e2e::qti::{manifest, zip};
use scoredesk_e2e::{on_both_backends, Backend, TestApp};
use serde_json::json;

use crate::content_import_matching::pdf_text;
use crate::qti_packages::{
    choice_number, imported, printed_paper, result_totals, sit, uploaded_scores,
};

on_both_backends! {
    graphic_orders_and_routes_are_printed_on_their_picture_and_scored => delivered;
}

fn package() -> Vec<u8> {
    let item = |file: &str| {
        std::fs::read(format!(
            "{}/../qti/tests/fixtures/ims/{file}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    };
    let mut png = Vec::new();
    image::GrayImage::from_pixel(206, 280, image::Luma([210]))
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    let resources = [
        ("order", "imsqti_item_xmlv2p1", "graphic_order.xml"),
        ("routes", "imsqti_item_xmlv2p1", "graphic_associate.xml"),
        ("codes", "imsqti_item_xmlv2p1", "graphic_gap_match.xml"),
    ];
    let mut tag = Vec::new();
    image::GrayImage::from_pixel(20, 9, image::Luma([90]))
        .write_to(&mut std::io::Cursor::new(&mut tag), image::ImageFormat::Png)
        .unwrap();
    let tags: Vec<String> = ["CBG", "EBG", "EDI", "GLA", "MAN", "MCH"]
        .iter()
        .map(|t| format!("images/{t}.png"))
        .collect();
    let mut entries = vec![
        ("imsmanifest.xml", manifest(&resources).into_bytes()),
        ("graphic_order.xml", item("graphic_order.xml")),
        ("graphic_associate.xml", item("graphic_associate.xml")),
        ("graphic_gap_match.xml", item("graphic_gap_match.xml")),
        ("images/ukair.png", png.clone()),
        ("images/ukairtags.png", png),
    ];
    entries.extend(tags.iter().map(|t| (t.as_str(), tag.clone())));
    zip(&entries)
}

async fn delivered(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let report = imported(&app, "northwind-admin", &package(), "graphic.zip").await;
    assert_eq!(report["Skipped"], json!([]), "{report}");
    let kinds: Vec<(&str, i64, &str)> = report["Questions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| {
            (
                q["QuestionType"].as_str().unwrap(),
                q["MaxScore"].as_i64().unwrap(),
                q["Scoring"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        kinds,
        [
            ("matching", 1, "match_correct"),
            ("multiple_response", 2, "map_response"),
            ("matching", 3, "map_response")
        ]
    );
    let assessment = report["AssessmentId"].as_str().unwrap().to_owned();
    let (snapshot, attempt) = sit(&app, &assessment, "graphic-1").await;

    let xml = crate::snapshots::snapshot_xml(&app, snapshot).await;
    crate::snapshots::validate(&xml);
    assert!(
        xml.contains(">the area marked A – the area marked B</Choice>"),
        "{xml}"
    );

    let paper = printed_paper(&app, snapshot).await;
    assert_eq!(
        paper
            .matches("<img src=\"data:image/svg+xml;base64,")
            .count(),
        3,
        "each question's lettered picture is on paper"
    );
    let text = pdf_text(&app, snapshot).await;
    for words in [
        "Mark the airports shown on the map according to Lorna",
        "Position 1",
        "Mark the airline's new routes",
        "the area marked C – the area marked D",
        "can you identify the correct three-letter codes",
        "picture 6",
    ] {
        assert!(text.contains(words), "{words} is printed:\n{text}");
    }

    let area = |position: i32, text: &'static str| choice_number(&app, snapshot, position, text);
    let routes = [
        area(2, "the area marked B – the area marked C").await,
        area(2, "the area marked C – the area marked D").await,
        area(2, "the area marked A – the area marked B").await,
    ];
    let upload = json!({
        "AttemptID": attempt,
        "QuestionAndChoices": [
            {"QuestionOrderNumber": 1, "Parts": [
                {"PartNumber": 1, "ChoiceOrderNumber": area(1, "the area marked A").await},
                {"PartNumber": 2, "ChoiceOrderNumber": area(1, "the area marked D").await},
                {"PartNumber": 3, "ChoiceOrderNumber": area(1, "the area marked C").await},
                {"PartNumber": 4, "ChoiceOrderNumber": area(1, "the area marked B").await}]},
            {"QuestionOrderNumber": 2, "UploadedChoices": routes
                .iter()
                .map(|n| json!({"ChoiceOrderNumber": n, "Selected": true}))
                .collect::<Vec<_>>()},
            {"QuestionOrderNumber": 3, "Parts": [
                {"PartNumber": 1, "ChoiceOrderNumber": area(3, "picture 4").await},
                {"PartNumber": 2, "ChoiceOrderNumber": area(3, "picture 3").await},
                {"PartNumber": 3, "ChoiceOrderNumber": area(3, "picture 1").await}]}
        ]
    });
    // The order right: 1. Two new routes and a wrong one: 1 + 1 - 1 = 1 of 2.
    // GLA on A and EDI on B right, CBG on C wrong (-1): 1 of 3.
    let (result, scores) = uploaded_scores(&app, &upload, attempt).await;
    assert_eq!(scores, [1, 1, 1]);
    assert_eq!(result_totals(&app, result).await, (Some(3), Some(6)));
}
