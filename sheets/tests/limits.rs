//! A multiple response with its own limit (QTI's `maxChoices`): a row marked
//! more times than it takes goes to a person, who may not decide more than it
//! takes; within the limit, the marks are the answer. Readings made here from
//! bubbles as the recogniser gives them, one page.

// A test binary: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used)]

use scoredesk_sheets::layout::{Shape, SheetQuestion};
use scoredesk_sheets::{
    assemble, Answer, BubbleReading, DoubtReason, MarkKind, PageReading, SheetCode, Verdict,
    EDITION,
};

fn page(marked: &[i32]) -> PageReading {
    PageReading {
        code: SheetCode {
            edition: EDITION,
            area: 1,
            batch: 1,
            attempt: 9,
            page: 1,
            pages: 1,
        },
        upside_down: false,
        bubbles: (1..=5)
            .map(|choice| BubbleReading {
                question: 1,
                part: 0,
                choice,
                darkness: if marked.contains(&choice) { 0.9 } else { 0.02 },
                verdict: if marked.contains(&choice) {
                    Verdict::Marked
                } else {
                    Verdict::Blank
                },
                kind: if marked.contains(&choice) {
                    MarkKind::Fill
                } else {
                    MarkKind::Nothing
                },
            })
            .collect(),
        essays: Vec::new(),
        places: Vec::new(),
    }
}

const AT_MOST_TWO: [SheetQuestion; 1] = [SheetQuestion {
    order: 1,
    shape: Shape::Choices { count: 5, most: 2 },
}];

#[test]
fn marks_within_the_limit_are_the_answer() {
    let reading = assemble(&AT_MOST_TWO, &[page(&[2, 4])]).unwrap();
    assert!(reading.doubts.is_empty());
    assert_eq!(
        reading.answers,
        [Answer::Choices {
            question: 1,
            selected: vec![2, 4]
        }]
    );
}

#[test]
fn more_marks_than_the_limit_go_to_a_person_who_decides_within_it() {
    let mut reading = assemble(&AT_MOST_TWO, &[page(&[1, 2, 4])]).unwrap();
    assert!(reading.answers.is_empty(), "{:?}", reading.answers);
    assert_eq!(reading.doubts.len(), 1);
    assert_eq!(reading.doubts[0].reason, DoubtReason::SeveralMarks);
    assert_eq!(reading.doubts[0].most, 2);
    let refused = reading.resolve(1, vec![1, 2, 4]).unwrap_err();
    assert_eq!(refused.to_string(), "question 1 takes at most 2 choices");
    reading.resolve(1, vec![1, 4]).unwrap();
    assert_eq!(
        reading.answers,
        [Answer::Choices {
            question: 1,
            selected: vec![1, 4]
        }]
    );
    // Without a limit, three marks are the answer.
    let any = [SheetQuestion {
        order: 1,
        shape: Shape::Choices { count: 5, most: 5 },
    }];
    let reading = assemble(&any, &[page(&[1, 2, 4])]).unwrap();
    assert!(reading.doubts.is_empty());
}
