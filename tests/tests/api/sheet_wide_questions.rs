//! Questions of more than a row's choices (docs/paper-sheets.md, "Rows of
//! choices"): a sheet whose questions have 25 and 18 choices, printed through the
//! real print path (the signed link, headless Chromium), its last bubbles
//! pencilled, scanned with a scanner's damage, read to the last choice, and
//! uploaded and scored as any sheet. Before rows wrapped, the bubbles after the
//! 21st ran off the paper and could not be read.

use std::collections::BTreeSet;

use scoredesk_e2e::sheets::{deliver_package, printed};
use scoredesk_e2e::{on_both_backends, Backend, TestApp};
use scoredesk_paper::{mark_bubble, rng, scan, Damage, Pencil};
use scoredesk_sheets::{assemble, recognise, Answer};

use crate::uploads::upload_reading;

on_both_backends! {
    a_question_of_25_choices_printed_by_chromium_is_read_to_its_last_choice => wide;
}

/// Question → the choices pencilled on it. The package's key
/// (`qti::paper_package`) makes question 2's answer (its first and last choices)
/// and question 4's (choice 4 of 4) right, questions 1 and 3 wrong.
const PENCILLED: [(i32, &[i32]); 4] = [(1, &[25]), (2, &[1, 25]), (3, &[18]), (4, &[4])];

async fn wide(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let package = scoredesk_e2e::qti::paper_package(
        "Wide choices",
        &[(25, true), (25, false), (18, true), (4, true)],
        &[2],
    );
    let delivery = deliver_package(&app, &package, 1).await;
    let (batch, attempts) = &delivery.batches[0];
    let attempt = attempts[0];
    assert_eq!(delivery.layout.len(), 1, "one page holds the sheet");
    let layout = &delivery.layout[0];
    for (question, rows) in [(1, 2), (2, 2), (3, 2), (4, 1)] {
        let lines: BTreeSet<u32> = layout
            .bubbles
            .iter()
            .filter(|b| b.question == question)
            .map(|b| b.center.y.to_bits())
            .collect();
        assert_eq!(lines.len(), rows, "question {question}'s rows of choices");
    }

    let dir = tempfile::tempdir().unwrap();
    let pages = printed(&app, *batch, dir.path()).await;
    let mut page = pages
        .into_iter()
        .find(|(code, _)| i64::from(code.attempt) == attempt)
        .map(|(_, page)| page)
        .expect("the attempt's page");
    let mut random = rng(25 + u64::from(backend == Backend::Postgres));
    for (question, choices) in PENCILLED {
        for choice in choices {
            let bubble = layout
                .bubbles
                .iter()
                .find(|b| b.question == question && b.choice == *choice)
                .expect("the bubble is laid out");
            mark_bubble(&mut page, bubble.center, Pencil::Full, &mut random);
        }
    }

    // Scanned at 300 and at 150 dpi, each with a scanner's damage: read the same.
    let mut first_reading = None;
    for dpi in [300.0, 150.0] {
        let bytes = scan(&page, Damage::random(&mut random, dpi), attempt as u64);
        let found = recognise::open(&bytes).expect("the page is found");
        let reading = assemble(&delivery.questions, &[found.read(layout).unwrap()]).unwrap();
        assert!(reading.doubts.is_empty(), "{dpi} dpi: {:?}", reading.doubts);
        let read: Vec<(i32, Vec<i32>)> = reading
            .answers
            .iter()
            .filter_map(|answer| match answer {
                Answer::Choices { question, selected } => Some((*question, selected.clone())),
                Answer::Essay { .. }
                | Answer::Parts { .. }
                | Answer::Number { .. }
                | Answer::Text { .. }
                | Answer::Places { .. } => None,
            })
            .collect();
        let expected: Vec<(i32, Vec<i32>)> = PENCILLED
            .iter()
            .map(|(question, choices)| (*question, choices.to_vec()))
            .collect();
        assert_eq!(read, expected, "{dpi} dpi");
        first_reading.get_or_insert(reading);
    }
    let read = upload_reading(&app, *batch, attempt, &first_reading.unwrap()).await;
    assert_eq!(
        read["TotalScore"].as_i64(),
        Some(4),
        "questions 2 and 4 right, 2 marks each: {read}"
    );
}
