//! An essay's frame with a little ink (issue 36): two letters in a large frame
//! are under the share that is surely writing, yet never dropped: the frame goes
//! to a person, who sends it to a scorer or leaves it blank. An empty frame is
//! still no answer, without a person.

#![allow(clippy::unwrap_used)]

mod common;

use std::io::Cursor;

use common::{write, DPI};

use image::ImageFormat;
use scoredesk_sheets::drawn::print_page as print;
use scoredesk_sheets::layout::{lay_out, Shape, SheetQuestion};
use scoredesk_sheets::{
    assemble, read_batch_page, Answer, AttemptReading, DoubtReason, Doubted, SheetCode, EDITION,
};

fn questions() -> Vec<SheetQuestion> {
    [(1, 1), (2, 4), (3, 1)]
        .map(|(order, max_score)| SheetQuestion {
            order,
            shape: Shape::Essay { max_score },
        })
        .to_vec()
}

/// Question 1's frame holds the drawn page's stroke (written); question 2's, a
/// large one, "ok", two letters 4 mm tall; question 3's nothing.
fn read() -> AttemptReading {
    let questions = questions();
    let layout = lay_out(&questions);
    let code = SheetCode {
        edition: EDITION,
        area: 3,
        batch: 41,
        attempt: 9001,
        page: 1,
        pages: layout.len() as u16,
    };
    let mut image = print(&layout[0], &code.encode(), DPI, &[]);
    let frame = layout[0]
        .essays
        .iter()
        .find(|e| e.question == 2)
        .unwrap()
        .frame;
    write(
        &mut image,
        frame,
        &[
            // "o": a small box of four strokes; "k": a stem and two arms.
            ((20.0, 20.0), (23.0, 20.0)),
            ((23.0, 20.0), (23.0, 23.0)),
            ((23.0, 23.0), (20.0, 23.0)),
            ((20.0, 23.0), (20.0, 20.0)),
            ((25.0, 19.0), (25.0, 23.0)),
            ((25.0, 21.5), (27.5, 19.5)),
            ((25.5, 21.0), (27.5, 23.0)),
        ],
    );
    let mut bytes = Vec::new();
    image
        .write_to(&mut Cursor::new(&mut bytes), ImageFormat::Png)
        .unwrap();
    let page = read_batch_page(&bytes, &questions, 3, 41).unwrap();
    assert_eq!(layout.len(), 1, "one page");
    let small = page
        .reading
        .essays
        .iter()
        .find(|e| e.question == 2)
        .unwrap();
    assert!(
        (0.0002..0.001).contains(&small.ink),
        "two letters are under an essay's writing share: {}",
        small.ink
    );
    assemble(&questions, &[page.reading]).unwrap()
}

#[test]
fn two_letters_in_a_large_frame_go_to_a_person_and_an_empty_frame_does_not() {
    let reading = read();
    let doubts: Vec<(i32, DoubtReason)> = reading
        .doubts
        .iter()
        .map(|d| (d.question, d.reason))
        .collect();
    assert_eq!(doubts, [(2, DoubtReason::Faint)]);
    let Doubted::Essay { png } = &reading.doubts[0].doubted else {
        panic!("{:?}", reading.doubts[0])
    };
    assert!(png.starts_with(b"\x89PNG"));
    assert_eq!(reading.doubts[0].bubbles.len(), 1, "one choice: an answer");
    assert!(reading.answers.contains(&Answer::Essay {
        question: 3,
        png: None
    }));
    assert!(matches!(
        reading.answers[0],
        Answer::Essay {
            question: 1,
            png: Some(_)
        }
    ));
    assert!(!reading.is_decided());
}

#[test]
fn the_person_sends_the_frame_to_a_scorer_or_leaves_it_blank() {
    let mut sent = read();
    let png = match &sent.doubts[0].doubted {
        Doubted::Essay { png } => png.clone(),
        other => panic!("{other:?}"),
    };
    sent.resolve(2, vec![1]).unwrap();
    assert!(sent.answers.contains(&Answer::Essay {
        question: 2,
        png: Some(png)
    }));
    assert!(sent.is_decided());

    let mut blank = read();
    blank.resolve(2, vec![]).unwrap();
    assert!(blank.answers.contains(&Answer::Essay {
        question: 2,
        png: None
    }));
    assert!(blank.resolve(2, vec![1]).is_err(), "decided once");
}
