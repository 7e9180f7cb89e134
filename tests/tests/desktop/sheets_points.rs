//! Issue 35 in the real window: the IMS example of three airports placed on a
//! map delivered on paper; its answer sheet prints the map faint, and four
//! pencil crosses on it where three are taken go to the coordinator on the
//! sheets desk, the map shown with each cross ringed and lettered; B, C and D
//! picked by keyboard, the upload carries their places as `Points`, and the
//! Result is scored by the airports' areas.

use fantoccini::key::Key;
use scoredesk_e2e::paper::{mark_cross, rng, scan, Damage};
use scoredesk_e2e::qti::ims_points_package;
use scoredesk_sheets::layout::Point;
use serde_json::Value;

use crate::support::{
    first_members_attempt, imported_paper_batch, open_paper_batch, press, printed_sheet, type_into,
    wait_for, Api, DesktopSession,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn crosses_on_a_picture_are_picked_by_letter_on_the_sheets_desk() {
    let session = DesktopSession::start().await;
    let client = &session.client;
    wait_for(client, "#task-list li[data-question]").await;
    let api = Api::of(&session).await;
    let package = ims_points_package(&["position_object.xml"]);
    let paper = imported_paper_batch(&api, &package, "Airports", "Hall P").await;
    let attempt = first_members_attempt(&api, &paper, "hall-p-0").await;

    // Four crosses on the map (206 × 280 pixels): one in the sea, then
    // Edinburgh, Manchester and Heathrow, left to right: A, B, C, D.
    let (_, mut page, layout) = printed_sheet(&api, &paper).await;
    let frame = layout[0].pictures[0].frame;
    let mut random = rng(37);
    for (x, y) in [(20.0, 250.0), (96.0, 114.0), (118.0, 184.0), (150.0, 235.0)] {
        let at = Point {
            x: frame.x + x / 206.0 * frame.width,
            y: frame.y + y / 280.0 * frame.height,
        };
        mark_cross(&mut page, at, &mut random);
    }
    let scans = tempfile::tempdir().unwrap();
    std::fs::write(
        scans.path().join("sheet.png"),
        scan(&page, Damage::random(&mut random, 200.0), attempt as u64),
    )
    .unwrap();

    open_paper_batch(client, &paper).await;
    press(client, &['s']).await;
    type_into(client, "sheet-path", &scans.path().display().to_string()).await;
    press(client, &[Key::Enter.into()]).await;

    let doubt = wait_for(client, "#sheet-doubt").await;
    assert_eq!(
        doubt.attr("data-question").await.unwrap().as_deref(),
        Some("1")
    );
    let shown = doubt.text().await.unwrap();
    assert!(
        shown.contains("More crosses on the picture than it takes: of the crosses A, B, C, D, pick the places that count."),
        "{shown}"
    );
    for letter in ['b', 'c', 'd'] {
        press(client, &[letter]).await;
    }
    let decision = wait_for(client, "#sheet-decision")
        .await
        .text()
        .await
        .unwrap();
    assert!(decision.contains("B, C, D"), "{decision}");
    session.screenshot("sheets-picture-crosses").await;
    press(client, &[Key::Enter.into()]).await;
    wait_for(client, "#sheet-decided").await;
    press(client, &[Key::Enter.into()]).await;
    let uploaded = wait_for(client, "#sheet-uploaded")
        .await
        .text()
        .await
        .unwrap();
    assert!(uploaded.starts_with("1 of 1 uploaded"), "{uploaded}");

    // The upload holds the three places picked, in the map's pixels.
    let upload: Value = serde_json::from_slice(
        &api.get_bytes(&format!("AnswerUploads({attempt})/$value"))
            .await,
    )
    .unwrap();
    let points: Vec<(f64, f64)> = upload["QuestionAndChoices"][0]["Points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["X"].as_f64().unwrap(), p["Y"].as_f64().unwrap()))
        .collect();
    assert_eq!(points.len(), 3, "{upload}");
    for ((x, y), (ex, ey)) in points
        .iter()
        .zip([(96.0, 114.0), (118.0, 184.0), (150.0, 235.0)])
    {
        assert!((x - ex).abs() < 4.0 && (y - ey).abs() < 4.0, "{points:?}");
    }
    let result = api.get(&format!("Attempts({attempt})")).await["ResultID"]
        .as_i64()
        .expect("a result");
    let read = api.get(&format!("Results({result})")).await;
    assert_eq!(
        (read["TotalScore"].as_i64(), read["MaxScore"].as_i64()),
        (Some(3), Some(3))
    );
}
