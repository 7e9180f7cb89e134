//! A package as real exports leave them (issue 35), on both databases: two items
//! of one identifier in two folders both come in as questions of their own and
//! are the same questions when imported again; an item whose image did not make it
//! into the zip, and one the manifest names but the zip lacks, are skipped naming
//! the file, while the rest is imported.

use scoredesk_e2e::qti::{choice_item, essay_item, manifest, zip};
use scoredesk_e2e::{on_both_backends, Backend, TestApp};
use serde_json::Value;

use crate::qti_packages::imported;

on_both_backends! {
    items_sharing_an_identifier_come_in_and_missing_files_skip_only_their_item => gaps;
}

fn package() -> Vec<u8> {
    zip(&[
        (
            "imsmanifest.xml",
            manifest(&[
                ("a", "imsqti_item_xmlv2p1", "unit1/item1.xml"),
                ("b", "imsqti_item_xmlv2p1", "unit2/item1.xml"),
                ("c", "imsqti_item_xmlv2p1", "unit3/chart.xml"),
                ("d", "imsqti_item_xmlv2p1", "unit4/gone.xml"),
            ])
            .into_bytes(),
        ),
        (
            "unit1/item1.xml",
            choice_item(
                "item1",
                "Which is a cell wall?",
                &[("a", "Cellulose"), ("b", "Chitin")],
                &["a"],
            )
            .into_bytes(),
        ),
        (
            "unit2/item1.xml",
            essay_item("item1", "Explain osmosis.", 4).into_bytes(),
        ),
        (
            "unit3/chart.xml",
            essay_item(
                "chart",
                r#"Read the chart. <img src="chart.png" alt="a chart"/>"#,
                2,
            )
            .into_bytes(),
        ),
    ])
}

fn outcomes(report: &Value) -> Vec<(String, String, String)> {
    report["Questions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| {
            (
                q["Item"].as_str().unwrap().to_owned(),
                q["QuestionType"].as_str().unwrap().to_owned(),
                q["Outcome"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

async fn gaps(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let report = imported(&app, "northwind-admin", &package(), "units.zip").await;
    assert_eq!(
        outcomes(&report),
        [
            (
                "item1".to_owned(),
                "multiple_choice".to_owned(),
                "created".to_owned()
            ),
            ("item1".to_owned(), "essay".to_owned(), "created".to_owned()),
        ],
        "{report}"
    );
    let ids: Vec<&str> = report["Questions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q["QuestionId"].as_str().unwrap())
        .collect();
    assert_ne!(ids[0], ids[1], "two questions");
    let skipped: Vec<(&str, &str)> = report["Skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["File"].as_str().unwrap(), s["Reason"].as_str().unwrap()))
        .collect();
    assert_eq!(
        skipped,
        [
            (
                "unit3/chart.xml",
                r#"the package has no file unit3/chart.png, which <img src="chart.png"> names"#
            ),
            (
                "unit4/gone.xml",
                "the package has no file unit4/gone.xml, which its manifest names"
            ),
        ]
    );
    let notes = report["Notes"].to_string();
    assert!(
        notes.contains("unit2/item1.xml has the identifier"),
        "{notes}"
    );

    let again = imported(&app, "northwind-admin", &package(), "units.zip").await;
    assert_eq!(again["Assessment"], "unchanged", "{again}");
    let outcomes_again: Vec<String> = outcomes(&again).into_iter().map(|o| o.2).collect();
    assert_eq!(outcomes_again, ["unchanged", "unchanged"]);
}
