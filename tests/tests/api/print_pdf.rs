//! The printable page as a coordinator prints it: headless Chromium renders both
//! variants to PDF, whose text (pdftotext) has every question number, and every
//! choice labelled in the snapshot's order; screenshots of the first page of each
//! are kept in artifacts/print/ to be looked at.

use std::path::{Path, PathBuf};
use std::process::Command;

use reqwest::StatusCode;
use scoredesk_e2e::paper::chromium;
use scoredesk_e2e::{Backend, TestApp};
use scoredesk_server::seed::demo::DEMO_PASSWORD;
use serde_json::{json, Value};

const COORDINATOR: &str = "northwind-coordinator";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chromium_prints_every_question_and_choice_in_the_snapshots_order() {
    let app = TestApp::spawn_with_demo(Backend::Sqlite).await;
    let assessment = app
        .sql_i64(&format!(
            "SELECT MIN(assessment_id) FROM assessment_questions WHERE customer_id = {}",
            app.northwind()
        ))
        .await;
    let created: Value = app
        .client
        .post(app.url(&format!("{}AssessmentSnapshots", app.root())))
        .basic_auth(COORDINATOR, Some(DEMO_PASSWORD))
        .json(&json!({"AssessmentID": assessment.to_string(), "Name": "Spring paper"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = created["ID"].as_i64().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let artifacts = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../artifacts/print"));
    std::fs::create_dir_all(&artifacts).unwrap();

    let questions = app
        .sql_i64(&format!(
            "SELECT COUNT(*) FROM snapshot_questions WHERE snapshot_id = {id}"
        ))
        .await;
    // (question position, label, text) in the snapshot's order.
    let choices: Vec<(i64, String)> = app
        .sql_strings(&format!(
            "SELECT CAST(s.position AS TEXT) || '|' || CAST(s.choice_position AS TEXT) || '|' || c.text \
             FROM snapshot_choices s JOIN snapshot_questions q ON q.snapshot_id = s.snapshot_id AND q.position = s.position \
             JOIN choices c ON c.question_id = q.question_id AND c.choice_order = s.choice_order \
             WHERE s.snapshot_id = {id} ORDER BY s.position, s.choice_position"
        ))
        .await
        .into_iter()
        .map(|row| {
            let mut parts = row.splitn(3, '|');
            let question: i64 = parts.next().unwrap().parse().unwrap();
            let position: u8 = parts.next().unwrap().parse().unwrap();
            let text = parts.next().unwrap();
            (question, format!("{} {text}", char::from(b'A' + position - 1)))
        })
        .collect();
    for (variant, property) in [
        ("questions", "PrintableDocumentSourceUrl"),
        ("answers", "PrintableDocumentWithAnswersSourceUrl"),
    ] {
        // A fresh link, as the contract asks: read the snapshot just before use.
        let (status, snapshot) = app
            .get_json_with(
                COORDINATOR,
                &format!("{}AssessmentSnapshots({id})", app.root()),
                &[],
            )
            .await;
        assert_eq!(status, StatusCode::OK);
        let url = snapshot[property].as_str().unwrap();
        let pdf = dir.path().join(format!("{variant}.pdf"));
        chromium(
            dir.path(),
            &[
                &format!("--print-to-pdf={}", pdf.display()),
                "--no-pdf-header-footer",
                url,
            ],
        );
        chromium(
            dir.path(),
            &[
                &format!(
                    "--screenshot={}",
                    artifacts.join(format!("{variant}.png")).display()
                ),
                "--window-size=900,1270",
                "--hide-scrollbars",
                url,
            ],
        );
        let text = pdf_text(&pdf);
        // Words as pdftotext lays them out, spaces squeezed.
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        let mut from = 0;
        for number in 1..=questions {
            from += text[from..]
                .find(&format!("Question {number} "))
                .unwrap_or_else(|| {
                    panic!("{variant}: question {number} missing or out of order in\n{text}")
                });
            for (_, choice) in choices.iter().filter(|(q, _)| *q == number) {
                from += text[from..]
                    .find(choice.as_str())
                    .unwrap_or_else(|| panic!("{variant}: choice {choice} of question {number} missing or out of order in\n{text}"));
            }
        }
        assert_eq!(
            text.contains("Answer key"),
            variant == "answers",
            "{variant}: {text}"
        );
    }
}

fn pdf_text(pdf: &Path) -> String {
    let output = Command::new("pdftotext")
        .args(["-layout"])
        .arg(pdf)
        .arg("-")
        .output()
        .expect("pdftotext runs (poppler-utils; scripts/test installs it)");
    assert!(output.status.success());
    String::from_utf8(output.stdout).unwrap()
}

/// Issue 33, defect 10: the printed paper's pages after the first carried no name,
/// attempt or page number, and an essay that did not fit moved whole to the next
/// page, leaving half of one empty. Printed by Chromium: every page has the strip
/// with Name and Attempt and "Page k of n", and a long essay after two choice
/// questions starts on their page, its ruled lines going on over the page.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_printed_page_says_whose_it_is_and_essays_go_on_over_the_page() {
    let app = TestApp::spawn_with_demo(Backend::Sqlite).await;
    let package = scoredesk_e2e::qti::paper_package("Long essays", &[(4, true); 2], &[10, 10]);
    let report =
        crate::qti_packages::imported(&app, "northwind-admin", &package, "essays.zip").await;
    let assessment = report["AssessmentId"].as_str().unwrap().to_owned();
    let created: Value = app
        .client
        .post(app.url(&format!("{}AssessmentSnapshots", app.root())))
        .basic_auth(COORDINATOR, Some(DEMO_PASSWORD))
        .json(&json!({"AssessmentID": assessment, "Name": "Summer paper"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = created["ID"].as_i64().unwrap();
    let url = created["PrintableDocumentSourceUrl"].as_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("paper.pdf");
    chromium(
        dir.path(),
        &[
            &format!("--print-to-pdf={}", pdf.display()),
            "--no-pdf-header-footer",
            url,
        ],
    );
    let pages = page_count(&pdf);
    assert!(pages >= 3, "two long essays run over pages: {pages}");
    for page in 1..=pages {
        let text = page_text(&pdf, page);
        for shown in [
            "Long essays · snapshot".to_owned(),
            "Name".to_owned(),
            "Attempt".to_owned(),
            format!("Page {page} of {pages}"),
            format!("Snapshot {id}"),
        ] {
            assert!(
                text.contains(&shown),
                "page {page} lacks {shown:?}:\n{text}"
            );
        }
    }
    let artifacts = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../artifacts/print"));
    std::fs::create_dir_all(&artifacts).unwrap();
    let status = Command::new("pdftoppm")
        .args(["-r", "50", "-png"])
        .arg(&pdf)
        .arg(artifacts.join("essays-page"))
        .status()
        .unwrap();
    assert!(status.success());
    // The two choice questions leave a third of page 1: the first essay (question
    // 3, 24 ruled lines, more than is left) starts there with its first lines
    // rather than on a page of its own, and goes on over the page.
    let first = page_text(&pdf, 1);
    assert!(
        first.contains("Question 3") && first.contains("Give two reasons"),
        "question 3 starts on page 1:\n{first}"
    );
    let second = page_text(&pdf, 2);
    assert!(
        second.starts_with(&format!(
            "Long essays · snapshot {id} Name Attempt Question 3, continued"
        )),
        "it goes on at the top of page 2, under its number:\n{second}"
    );
}

fn page_count(pdf: &Path) -> u32 {
    let output = Command::new("pdfinfo").arg(pdf).output().unwrap();
    let info = String::from_utf8(output.stdout).unwrap();
    info.lines()
        .find_map(|line| line.strip_prefix("Pages:"))
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

fn page_text(pdf: &Path, page: u32) -> String {
    let output = Command::new("pdftotext")
        .args(["-layout", "-f", &page.to_string(), "-l", &page.to_string()])
        .arg(pdf)
        .arg("-")
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
