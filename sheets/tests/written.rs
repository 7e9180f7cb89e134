//! Short answers' boxes (text entries): a box with any ink in it waits for a
//! person to type it, an empty one is no answer, a single small letter is never
//! taken for blank, and a page printed with the first layout (no boxes) is still
//! read through the layout it was printed with.

#![allow(clippy::unwrap_used)]

mod common;

use std::io::Cursor;

use common::{write, DPI};

use image::{GrayImage, ImageFormat};
use scoredesk_sheets::answers::{AssembleError, ResolveError};
use scoredesk_sheets::drawn::print_page as print;
use scoredesk_sheets::layout::{lay_out, printed_in, Shape, SheetQuestion};
use scoredesk_sheets::{assemble, read_batch_page, Answer, SheetCode, EDITION};

fn questions() -> Vec<SheetQuestion> {
    let choices = |order| SheetQuestion {
        order,
        shape: Shape::Choices { count: 4, most: 1 },
    };
    let written = |order| SheetQuestion {
        order,
        shape: Shape::Written,
    };
    vec![choices(1), written(2), written(3), choices(4), written(5)]
}

fn code(edition: u8) -> SheetCode {
    SheetCode {
        edition,
        area: 3,
        batch: 41,
        attempt: 9001,
        page: 1,
        pages: 1,
    }
}

fn png(image: &GrayImage) -> Vec<u8> {
    let mut bytes = Vec::new();
    image
        .write_to(&mut Cursor::new(&mut bytes), ImageFormat::Png)
        .unwrap();
    bytes
}

#[test]
fn a_box_with_ink_waits_to_be_typed_and_an_empty_one_is_no_answer() {
    let questions = questions();
    let layout = lay_out(&questions);
    let mut image = print(&layout[0], &code(EDITION).encode(), DPI, &[]);
    let frame = |question: i32| {
        layout[0]
            .essays
            .iter()
            .find(|e| e.question == question)
            .unwrap()
            .frame
    };
    // Question 2: "42" in two strokes each; question 5: a small "1", 2.5 mm tall,
    // under a tenth of a percent of the box: an essay's frame would call it blank.
    write(
        &mut image,
        frame(2),
        &[
            ((10.0, 3.0), (6.0, 8.0)),
            ((6.0, 8.0), (11.0, 8.0)),
            ((15.0, 4.0), (19.0, 4.0)),
            ((19.0, 4.0), (15.0, 9.0)),
        ],
    );
    write(&mut image, frame(5), &[((40.0, 5.0), (40.0, 7.5))]);
    let page = read_batch_page(&png(&image), &questions, 3, 41).unwrap();
    assert!(page.layout.essays.iter().all(|e| e.typed));
    let small = page
        .reading
        .essays
        .iter()
        .find(|e| e.question == 5)
        .unwrap();
    assert!(small.ink < 0.001, "{}", small.ink);
    let mut reading = assemble(&questions, &[page.reading]).unwrap();
    let waiting: Vec<i32> = reading.written.iter().map(|w| w.question).collect();
    assert_eq!(waiting, [2, 5], "both written boxes, the single stroke too");
    assert!(reading
        .written
        .iter()
        .all(|w| w.png.starts_with(b"\x89PNG")));
    assert!(!reading.is_decided());
    assert!(reading.answers.contains(&Answer::Text {
        question: 3,
        part: 0,
        text: None
    }));

    assert_eq!(
        reading.transcribe(3, "x"),
        Err(ResolveError::NotWritten {
            question: 3,
            part: 0
        }),
        "an empty box is not waiting"
    );
    reading.transcribe(2, "  42 ").unwrap();
    assert!(!reading.is_decided());
    reading.transcribe(5, "   ").unwrap();
    assert!(reading.is_decided());
    let order: Vec<i32> = reading.answers.iter().map(Answer::question).collect();
    assert_eq!(order, [1, 2, 3, 4, 5], "in the questions' order");
    assert!(reading.answers.contains(&Answer::Text {
        question: 2,
        part: 0,
        text: Some("42".into())
    }));
    assert!(
        reading.answers.contains(&Answer::Text {
            question: 5,
            part: 0,
            text: None
        }),
        "nothing typed is no answer"
    );
}

#[test]
fn a_page_printed_with_the_first_layout_is_read_through_it() {
    let questions = questions();
    let first = lay_out(&printed_in(&questions, 1));
    assert!(first[0].essays.is_empty(), "edition 1 had no boxes");
    let image = print(&first[0], &code(1).encode(), DPI, &[]);
    let page = read_batch_page(&png(&image), &questions, 3, 41).unwrap();
    assert_eq!(page.scan.code.edition, 1);
    assert_eq!(page.layout, first[0]);
    let old = page.reading;
    let reading = assemble(&questions, std::slice::from_ref(&old)).unwrap();
    assert!(reading.written.is_empty() && reading.is_decided());
    let asked: Vec<i32> = reading.answers.iter().map(Answer::question).collect();
    assert_eq!(asked, [1, 4], "the short answers were not on it");

    // An attempt's pages from two printings are not put together.
    let current = lay_out(&questions);
    let image = print(&current[0], &code(EDITION).encode(), DPI, &[]);
    let new = read_batch_page(&png(&image), &questions, 3, 41)
        .unwrap()
        .reading;
    let two_pages = |page: u16, mut reading: scoredesk_sheets::PageReading| {
        reading.code.page = page;
        reading.code.pages = 2;
        reading
    };
    assert!(matches!(
        assemble(&questions, &[two_pages(1, old), two_pages(2, new)]),
        Err(AssembleError::Editions {
            first: 1,
            other: EDITION,
            ..
        })
    ));
}

#[test]
fn each_blank_has_its_box_typed_on_its_own() {
    let questions = vec![
        SheetQuestion {
            order: 1,
            shape: Shape::Blanks {
                options: vec![0, 0, 0],
            },
        },
        SheetQuestion {
            order: 2,
            shape: Shape::Written,
        },
    ];
    let layout = lay_out(&questions);
    let mut image = print(&layout[0], &code(EDITION).encode(), DPI, &[]);
    let frame = |question: i32, part: i32| {
        layout[0]
            .essays
            .iter()
            .find(|e| e.question == question && e.part == part)
            .unwrap()
            .frame
    };
    for part in [1, 3] {
        write(&mut image, frame(1, part), &[((10.0, 3.0), (20.0, 9.0))]);
    }
    let page = read_batch_page(&png(&image), &questions, 3, 41).unwrap();
    let mut reading = assemble(&questions, &[page.reading]).unwrap();
    let waiting: Vec<(i32, i32)> = reading
        .written
        .iter()
        .map(|w| (w.question, w.part))
        .collect();
    assert_eq!(waiting, [(1, 1), (1, 3)], "blank 2 and question 2 empty");
    assert_eq!(
        reading.transcribe_part(1, 2, "x"),
        Err(ResolveError::NotWritten {
            question: 1,
            part: 2
        })
    );
    reading.transcribe_part(1, 3, "oxygen").unwrap();
    reading.transcribe_part(1, 1, " hydrogen").unwrap();
    assert!(reading.is_decided());
    let order: Vec<(i32, i32, Option<&str>)> = reading
        .answers
        .iter()
        .map(|a| match a {
            Answer::Text {
                question,
                part,
                text,
            } => (*question, *part, text.as_deref()),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        order,
        [
            (1, 1, Some("hydrogen")),
            (1, 2, None),
            (1, 3, Some("oxygen")),
            (2, 0, None)
        ]
    );
}
