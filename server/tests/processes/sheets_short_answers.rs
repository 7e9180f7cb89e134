//! Short answers on the answer sheet (issue 35), through `scoredesk-server sheets
//! scan` on both databases: a test of a choice, a keyed word, a number and two
//! blanks printed through the real print path (a word a box beside its number,
//! the number rows of bubbles, each blank a box beside its own; the code of the
//! current layout), handwriting in the boxes and pencil in the number's rows,
//! scanned with a scanner's damage. The run holds each attempt whose boxes hold
//! writing and writes each box out for a person to read (`--crops`); an empty box
//! is no answer, never a box to type, and the number is read, not typed. With the
//! words typed in the decisions file, the attempts go up and the keys mark what
//! was typed and read (a word in any case, the number, each blank by its keys).

use std::path::Path;
use std::process::Output;

use scoredesk_e2e::paper::{mark_bubble, rng, scan, write_essay, Damage, Pencil};
use scoredesk_e2e::qti::short_answer_package;
use scoredesk_e2e::sheets::{deliver_package, printed};
use scoredesk_e2e::{Backend, TestApp};
use scoredesk_sheets::layout::{Shape, NUMBER_KEYS, WRITTEN_BOX};
use scoredesk_sheets::EDITION;
use serde_json::json;

use crate::scanning::{said, sheets_scan};

fn run(app: &TestApp, dir: &Path, batch: i64, decisions: Option<&Path>, crops: &Path) -> Output {
    sheets_scan(app, dir, batch, decisions)
        .arg("--crops")
        .arg(crops)
        .output()
        .expect("the binary runs")
}

async fn short_answers(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let delivery = deliver_package(&app, &short_answer_package(), 1).await;
    let shapes: Vec<Shape> = delivery.questions.iter().map(|q| q.shape.clone()).collect();
    assert_eq!(
        shapes,
        [
            Shape::Choices { count: 3, most: 1 },
            Shape::Written,
            Shape::Number { positions: 6 },
            Shape::Blanks {
                options: vec![0, 0]
            }
        ]
    );
    let (batch, attempts) = &delivery.batches[0];
    let (first, second) = (attempts[0], attempts[1]);
    let print_dir = tempfile::tempdir().unwrap();
    let pages = printed(&app, *batch, print_dir.path()).await;
    assert!(pages.iter().all(|(code, _)| code.edition == EDITION));

    let layout = &delivery.layout[0];
    let frame = |question: i32, part: i32| {
        let area = layout
            .essays
            .iter()
            .find(|e| e.question == question && e.part == part)
            .unwrap();
        assert!(area.typed);
        area.frame
    };
    let scans = tempfile::tempdir().unwrap();
    let mut random = rng(35 + u64::from(backend == Backend::Postgres));
    let boxes_of = [
        (first, &[(2, 0), (4, 1), (4, 2)][..]),
        (second, &[(2, 0), (4, 2)][..]),
    ];
    for (attempt, boxes) in boxes_of {
        let mut page = pages
            .iter()
            .find(|(code, _)| i64::from(code.attempt) == attempt)
            .unwrap()
            .1
            .clone();
        if attempt == first {
            let nucleus = layout
                .bubbles
                .iter()
                .find(|b| b.question == 1 && b.choice == 1)
                .unwrap();
            mark_bubble(&mut page, nucleus.center, Pencil::Full, &mut random);
            // The number's rows: 9.8, read by the scanner, typed by nobody.
            for (row, key) in [(1, '9'), (2, '.'), (3, '8')] {
                let choice = NUMBER_KEYS.iter().position(|k| *k == key).unwrap() as i32 + 1;
                let bubble = layout
                    .bubbles
                    .iter()
                    .find(|b| b.question == 3 && b.part == row && b.choice == choice)
                    .unwrap();
                mark_bubble(&mut page, bubble.center, Pencil::Full, &mut random);
            }
        }
        for (question, part) in boxes {
            write_essay(&mut page, frame(*question, *part), &mut random);
        }
        let bytes = scan(&page, Damage::random(&mut random, 300.0), attempt as u64);
        std::fs::write(scans.path().join(format!("scan-{attempt}.jpg")), bytes).unwrap();
    }

    // Held: five boxes to type, each written out; the second attempt's first
    // blank is not among them, nor is a number (its rows are read).
    let crops = tempfile::tempdir().unwrap();
    let held = run(&app, scans.path(), *batch, None, crops.path());
    let text = said(&held);
    assert!(!held.status.success(), "{text}");
    assert_eq!(
        text.matches("is a short answer to type").count(),
        5,
        "{text}"
    );
    for (attempt, boxes) in boxes_of {
        for (question, part) in boxes {
            let (named, said) = match part {
                0 => (String::new(), String::new()),
                part => (format!("-blank-{part}"), format!(", blank {part}")),
            };
            let file = crops
                .path()
                .join(format!("attempt-{attempt}-question-{question}{named}.png"));
            assert!(
                text.contains(&format!(
                    "attempt {attempt}: question {question}{said} (page 1) is a short answer to type: its box is {}",
                    file.display()
                )),
                "{text}"
            );
            let crop = image::open(&file).unwrap();
            // The box's inside at 8 pixels a millimetre.
            let width = ((WRITTEN_BOX.0 - 2.4) * 8.0).round() as u32;
            assert!(crop.width().abs_diff(width) <= 2, "{}", crop.width());
        }
    }
    assert!(!crops
        .path()
        .join(format!("attempt-{second}-question-3.png"))
        .exists());
    assert!(text.contains("2 attempts: 0 uploaded, 2 held"), "{text}");

    // Typed: a key in another case, a lesser key.
    let decisions = scans.path().join("decisions.json");
    let typed = json!({
        first.to_string(): {"2": "Starch", "4.1": "hydrogen", "4.2": "oxygen"},
        second.to_string(): {"2": " glucose ", "4.2": "Oxygen"},
    });
    std::fs::write(&decisions, serde_json::to_vec(&typed).unwrap()).unwrap();
    let done = run(&app, scans.path(), *batch, Some(&decisions), crops.path());
    let text = said(&done);
    assert!(done.status.success(), "{text}");
    assert!(text.contains("2 attempts: 2 uploaded, 0 held"), "{text}");
    // An answer's content as text/plain bytes: a choice's numbers, or the words.
    let words = match backend {
        Backend::Sqlite => "CAST(a.content AS TEXT)",
        Backend::Postgres => "convert_from(a.content, 'UTF8')",
    };
    let answers = |attempt: i64| {
        format!(
            "SELECT CAST(a.question_number AS TEXT) || ':' || \
             CASE WHEN a.media_type LIKE 'text/%' THEN {words} ELSE '-' END || ':' || \
             COALESCE(CAST(CAST(a.actual_score AS BIGINT) AS TEXT), '-') \
             FROM answers a JOIN attempts t ON t.result_id = a.result_id WHERE t.id = {attempt} ORDER BY a.question_number"
        )
    };
    assert_eq!(
        app.sql_strings(&answers(first)).await,
        [
            "1:1:2",
            "2:Starch:2",
            "3:9.8:2",
            "4:1: hydrogen\n2: oxygen:2"
        ],
        "choice 1 (the nucleus, worth 2), the words as typed and the number as read, each marked by its keys"
    );
    assert_eq!(
        app.sql_strings(&answers(second)).await,
        ["1::0", "2:glucose:1", "3::0", "4:2: Oxygen:0"],
        "the blank choice, the empty box and the number's empty rows unanswered: nothing, 0; Oxygen is not oxygen"
    );

    // Words for a question that has no box waiting are refused by name.
    let wrong = scans.path().join("wrong.json");
    std::fs::write(&wrong, br#"{"1": {"1": "Nucleus"}}"#).unwrap();
    let refused = run(&app, scans.path(), *batch, Some(&wrong), crops.path());
    assert!(!refused.status.success());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn short_answers_are_typed_from_their_boxes_and_marked_on_sqlite() {
    short_answers(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn short_answers_are_typed_from_their_boxes_and_marked_on_postgres() {
    short_answers(Backend::Postgres).await;
}
