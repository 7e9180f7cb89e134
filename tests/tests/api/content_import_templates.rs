//! Template items (issue 35): the IMS QTI 2.1 examples `template.xml` (digging a
//! hole), `mc_calc3.xml` (divisors) and `mc_calc5.xml` (a fraction of a number)
//! imported on both databases, and `mc_stat2.xml` skipped naming why. Each
//! snapshot draws its own instance of each: six snapshots print more than one
//! draw, one snapshot prints the same paper every time, and an upload of the
//! answers its own paper asks for (computed here from the printed numbers)
//! scores full marks, another the wrong ones nothing. The statistics count every
//! instance's answers as its template's; importing again changes nothing. A
//! template snapshot's answer sheet is read back as its own draw asks.

use reqwest::StatusCode;
use scoredesk_e2e::qti::{manifest, zip};
use scoredesk_e2e::{on_both_backends, Backend, TestApp};
use serde_json::json;

use scoredesk_e2e::paper::{mark_bubble, rng, scan, Damage, Pencil};
use scoredesk_e2e::sheets::{deliver_package, first_attempts_page};
use scoredesk_sheets::layout::{Shape, NUMBER_KEYS};
use scoredesk_sheets::{assemble, recognise};

use crate::qti_packages::{
    choice_number, imported, printed_paper, result_totals, sit, uploaded_scores,
};

on_both_backends! {
    each_snapshot_draws_its_own_instance_printed_and_scored => delivered;
    a_templates_answer_sheet_is_read_back_as_its_draw_asks => sheets;
}

const TEMPLATES: [&str; 3] = ["template.xml", "mc_calc3.xml", "mc_calc5.xml"];

fn package() -> Vec<u8> {
    let mut files = TEMPLATES.to_vec();
    files.push("mc_stat2.xml");
    package_of(&files)
}

fn package_of(files: &[&str]) -> Vec<u8> {
    let item = |file: &str| {
        std::fs::read(format!(
            "{}/../qti/tests/fixtures/ims/{file}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    };
    let resources: Vec<(&str, &str, &str)> = files
        .iter()
        .map(|f| (f.trim_end_matches(".xml"), "imsqti_item_xmlv2p1", *f))
        .collect();
    let mut entries = vec![("imsmanifest.xml", manifest(&resources).into_bytes())];
    entries.extend(files.iter().map(|f| (*f, item(f))));
    zip(&entries)
}

/// The templates' answer sheet, printed by Chromium through the batch's link:
/// the hole's minutes as a number's rows, the divisors and the fraction as rows
/// of bubbles. What this snapshot's draw asks is read from its own paper; the
/// right answers pencilled, the page scanned at 300 dpi and read back with no
/// doubt, its upload scoring full marks.
async fn sheets(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let delivery = deliver_package(&app, &package_of(&TEMPLATES), 1).await;
    let shapes: Vec<Shape> = delivery.questions.iter().map(|q| q.shape.clone()).collect();
    assert_eq!(
        shapes,
        [
            Shape::Number { positions: 6 },
            Shape::Choices { count: 7, most: 1 },
            // maxChoices="1": one circle, though its response is multiple.
            Shape::Choices { count: 3, most: 1 }
        ]
    );
    let dir = tempfile::tempdir().unwrap();
    let (batch, attempt, snapshot, mut page) =
        first_attempts_page(&app, &delivery, dir.path()).await;
    let (minutes, divisors, fraction) = answers(&words(&printed_paper(&app, snapshot).await));
    let layout = &delivery.layout[0];
    let mut marks: Vec<(i32, i32, i32)> = minutes
        .to_string()
        .chars()
        .enumerate()
        .map(|(row, key)| {
            let choice = NUMBER_KEYS.iter().position(|k| *k == key).unwrap() as i32 + 1;
            (1, row as i32 + 1, choice)
        })
        .collect();
    marks.push((
        2,
        0,
        choice_number(&app, snapshot, 2, &divisors)
            .await
            .parse()
            .unwrap(),
    ));
    marks.push((
        3,
        0,
        choice_number(&app, snapshot, 3, &fraction)
            .await
            .parse()
            .unwrap(),
    ));
    let mut random = rng(15 + u64::from(backend == Backend::Postgres));
    for (question, part, choice) in marks {
        let bubble = layout
            .bubbles
            .iter()
            .find(|b| b.question == question && b.part == part && b.choice == choice)
            .unwrap_or_else(|| panic!("no bubble {question}/{part}/{choice}"));
        mark_bubble(&mut page, bubble.center, Pencil::Full, &mut random);
    }
    let bytes = scan(&page, Damage::random(&mut random, 300.0), attempt as u64);
    let found = recognise::open(&bytes).expect("the page is found");
    let reading = assemble(&delivery.questions, &[found.read(layout).unwrap()]).unwrap();
    assert!(reading.doubts.is_empty(), "{:?}", reading.doubts);
    let result = crate::uploads::upload_reading(&app, batch, attempt, &reading).await;
    let result = result["ID"].as_i64().unwrap();
    let scores = crate::qti_packages::result_scores(&app, result).await;
    assert_eq!(
        scores,
        [1, 2, 4],
        "minutes {minutes}, divisors {divisors}, fraction {fraction}"
    );
    assert_eq!(result_totals(&app, result).await, (Some(7), Some(7)));
}

/// The paper's words, tags dropped and whitespace collapsed.
fn words(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                out.push(' ');
            }
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The integers printed between `before` and `after`.
fn numbers_between(text: &str, before: &str, after: &str) -> Vec<i64> {
    let start = text
        .find(before)
        .unwrap_or_else(|| panic!("{before} in {text}"))
        + before.len();
    let end = start + text[start..].find(after).unwrap();
    text[start..end]
        .split(|c: char| !(c.is_ascii_digit() || c == '-'))
        .filter_map(|n| n.parse().ok())
        .collect()
}

/// What each of the paper's three questions asks for, as the item computes it:
/// (minutes, the divisors' text, the fraction's value).
fn answers(text: &str) -> (i64, String, String) {
    let hole = numbers_between(text, "If it takes", "to dig a similar hole");
    let [_a, _min, b] = hole[..] else {
        panic!("{hole:?} in {text}")
    };
    let n = numbers_between(text, "What are the divisors of", "without")[0];
    let divisors: Vec<String> = (2..n)
        .filter(|d| n % d == 0)
        .map(|d| d.to_string())
        .collect();
    let divisors = if divisors.is_empty() {
        "-".to_owned()
    } else {
        divisors.join(",")
    };
    let fraction = numbers_between(text, "1.", "is equal to");
    let [a, b2, c] = fraction[fraction.len() - 3..] else {
        panic!("{fraction:?}")
    };
    let value = ((a * c) as f64 / b2 as f64 + 0.5).floor() as i64;
    (120 / b, divisors, value.to_string())
}

async fn delivered(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let report = imported(&app, "northwind-admin", &package(), "templates.zip").await;
    let skipped = report["Skipped"].as_array().unwrap();
    assert_eq!(skipped.len(), 1, "{report}");
    assert!(
        skipped[0]
            .to_string()
            .contains("combinations of right blanks"),
        "{report}"
    );
    let kinds: Vec<(String, i64)> = report["Questions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| {
            (
                q["QuestionType"].as_str().unwrap().to_owned(),
                q["MaxScore"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        kinds,
        [
            ("text_entry".into(), 1),
            ("multiple_choice".into(), 2),
            ("multiple_response".into(), 4)
        ]
    );
    let assessment = report["AssessmentId"].as_str().unwrap().to_owned();
    // Imported again: the same preview draw, so nothing changes.
    let again = imported(&app, "northwind-admin", &package(), "templates.zip").await;
    assert_eq!(again["Assessment"], "unchanged", "{again}");
    let outcomes: Vec<&str> = again["Questions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q["Outcome"].as_str().unwrap())
        .collect();
    assert_eq!(outcomes, ["unchanged"; 3], "{again}");
    let templates: Vec<i64> = app
        .sql_column(&format!(
            "SELECT question_id FROM assessment_questions WHERE assessment_id = {assessment} ORDER BY position"
        ))
        .await;

    // Six snapshots: each question an instance of its template, drawn anew.
    let mut papers = Vec::new();
    let mut sittings = Vec::new();
    for n in 1..=6 {
        let (snapshot, attempt) = sit(&app, &assessment, &format!("template-{n}")).await;
        let instances: Vec<i64> = app
            .sql_column(&format!(
                "SELECT q.instance_of FROM snapshot_questions s JOIN questions q ON q.id = s.question_id \
                 WHERE s.snapshot_id = {snapshot} ORDER BY s.position"
            ))
            .await;
        assert_eq!(
            instances, templates,
            "snapshot {n}'s questions are its own draws"
        );
        let paper = printed_paper(&app, snapshot).await;
        assert_eq!(
            paper,
            printed_paper(&app, snapshot).await,
            "printed the same way every time"
        );
        assert!(
            !paper.contains("printedVariable") && !paper.contains("CALC0"),
            "{paper}"
        );
        papers.push(words(&paper));
        sittings.push((snapshot, attempt));
    }
    let distinct: std::collections::BTreeSet<&String> = papers.iter().collect();
    assert!(distinct.len() > 1, "six snapshots, one draw: {papers:?}");

    // The first sitting answers what its own paper asks; the second gives the
    // first's answers where they differ from its own, and a wrong choice.
    for (index, &(snapshot, attempt)) in sittings.iter().take(2).enumerate() {
        let (minutes, divisors, fraction) = answers(&papers[index]);
        let right = index == 0;
        let minutes = if right { minutes } else { minutes + 1 };
        let divisor_choice = choice_number(&app, snapshot, 2, &divisors).await;
        let wrong_divisors =
            choice_number(&app, snapshot, 2, if divisors == "5" { "3,5" } else { "5" }).await;
        let fraction_choice = choice_number(&app, snapshot, 3, &fraction).await;
        let upload = json!({
            "AttemptID": attempt,
            "QuestionAndChoices": [
                {"QuestionOrderNumber": 1, "TextResponse": minutes.to_string()},
                {"QuestionOrderNumber": 2, "UploadedChoices": [
                    {"ChoiceOrderNumber": if right { &divisor_choice } else { &wrong_divisors }, "Selected": true}]},
                {"QuestionOrderNumber": 3, "UploadedChoices": [
                    {"ChoiceOrderNumber": fraction_choice, "Selected": true}]}
            ]
        });
        let (result, scores) = uploaded_scores(&app, &upload, attempt).await;
        if right {
            assert_eq!(scores, [1, 2, 4], "{}", papers[index]);
            assert_eq!(result_totals(&app, result).await, (Some(7), Some(7)));
        } else {
            assert_eq!(scores, [0, 0, 4], "{}", papers[index]);
        }
    }

    // The statistics: one row per template question, each counting both results.
    let (status, body) = app
        .get_json_with(
            "northwind-admin",
            &format!(
                "{}AssessmentStatistics?AssessmentID={assessment}L",
                app.root()
            ),
            &[],
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (rows, _) = app
        .get_all_pages(&format!(
            "{}ItemStatistics?$filter=AssessmentID eq {assessment}L&$orderby=Position",
            app.root()
        ))
        .await;
    let ids: Vec<i64> = rows
        .iter()
        .map(|r| r["QuestionID"].as_str().unwrap().parse().unwrap())
        .collect();
    assert_eq!(ids, templates, "{rows:?}");
    let facility: Vec<f64> = rows
        .iter()
        .map(|r| r["Facility"].as_f64().unwrap())
        .collect();
    assert_eq!(facility, [0.5, 0.5, 1.0], "{rows:?}");
}
