//! Places marked on a picture (a point question): the picture printed faint in
//! its frame is never read as a mark; each cross is a place at its crossing,
//! pencil or pen; more crosses than the question takes, or ink that is no cross
//! (a dot, a stroke across the picture), go to a person, who picks the marks by
//! letter; a picture left alone is no answer.

#![allow(clippy::unwrap_used)]

use std::io::Cursor;

use image::{GrayImage, ImageFormat, Luma};
use imageproc::drawing::{draw_filled_circle_mut, draw_line_segment_mut};
use scoredesk_sheets::answers::ResolveError;
use scoredesk_sheets::drawn::print_page as print;
use scoredesk_sheets::layout::{lay_out, PageLayout, Rect, Shape, SheetQuestion};
use scoredesk_sheets::{
    assemble, read_batch_page, Answer, AttemptReading, DoubtReason, Doubted, SheetCode, EDITION,
};

const DPI: f32 = 200.0;

/// A choice question, Edinburgh on a 196 × 280 map (one place), and three
/// airports on a 206 × 280 one (at most three).
fn questions() -> Vec<SheetQuestion> {
    vec![
        SheetQuestion {
            order: 1,
            shape: Shape::Choices { count: 4, most: 1 },
        },
        SheetQuestion {
            order: 2,
            shape: Shape::Picture {
                width: 19600,
                height: 28000,
                most: 1,
            },
        },
        SheetQuestion {
            order: 3,
            shape: Shape::Picture {
                width: 20600,
                height: 28000,
                most: 3,
            },
        },
    ]
}

fn frame(layout: &[PageLayout], question: i32) -> (usize, Rect) {
    layout
        .iter()
        .enumerate()
        .find_map(|(index, page)| {
            page.pictures
                .iter()
                .find(|p| p.question == question)
                .map(|p| (index, p.frame))
        })
        .unwrap()
}

/// A cross of 4 mm arms at `at` (shares of the picture), `grey` and `width`
/// pixels wide, its second stroke `gap` pixels short of the first (a cross in
/// two strokes that do not quite meet).
fn cross(image: &mut GrayImage, frame: Rect, at: (f32, f32), grey: u8, width: i32) {
    let px = |mm: f32| mm * DPI / 25.4;
    let (x, y) = (
        px(frame.x + at.0 * frame.width),
        px(frame.y + at.1 * frame.height),
    );
    let arm = px(2.0);
    for offset in 0..width {
        let d = offset as f32;
        draw_line_segment_mut(
            image,
            (x - arm + d, y - arm),
            (x + arm + d, y + arm),
            Luma([grey]),
        );
        draw_line_segment_mut(
            image,
            (x + arm + d, y - arm),
            (x - arm + d, y + arm),
            Luma([grey]),
        );
    }
}

fn read(pages: Vec<GrayImage>) -> AttemptReading {
    let questions = questions();
    let readings = pages
        .iter()
        .map(|image| {
            let mut bytes = Vec::new();
            image
                .write_to(&mut Cursor::new(&mut bytes), ImageFormat::Png)
                .unwrap();
            read_batch_page(&bytes, &questions, 3, 41).unwrap().reading
        })
        .collect::<Vec<_>>();
    assemble(&questions, &readings).unwrap()
}

/// The attempt's pages printed blank, and its layout.
fn printed() -> (Vec<PageLayout>, Vec<GrayImage>) {
    let layout = lay_out(&questions());
    let pages = layout
        .iter()
        .map(|page| {
            let code = SheetCode {
                edition: EDITION,
                area: 3,
                batch: 41,
                attempt: 9001,
                page: page.number,
                pages: layout.len() as u16,
            };
            print(page, &code.encode(), DPI, &[])
        })
        .collect();
    (layout, pages)
}

fn places(reading: &AttemptReading, question: i32) -> Vec<(f32, f32)> {
    reading
        .answers
        .iter()
        .find_map(|answer| match answer {
            Answer::Places {
                question: q,
                places,
            } if *q == question => Some(places.clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("question {question} decided: {reading:?}"))
}

/// Places read in a picture of `size` pixels against the shares expected: within
/// a hundredth of the picture (2 to 3 pixels; about a millimetre on the sheet).
fn near(read: &[(f32, f32)], size: (f32, f32), expected: &[(f32, f32)]) {
    assert_eq!(read.len(), expected.len(), "{read:?}");
    for (r, e) in read.iter().zip(expected) {
        let (x, y) = (r.0 / size.0, r.1 / size.1);
        assert!(
            (x - e.0).abs() < 0.01 && (y - e.1).abs() < 0.01,
            "{read:?} against {expected:?}"
        );
    }
}

#[test]
fn a_blank_picture_is_no_answer_and_its_faint_print_no_mark() {
    let (layout, pages) = printed();
    assert!(layout.iter().all(|page| page.pictures.iter().all(|p| {
        // As large as fits, its proportions kept: 110 mm tall.
        (p.frame.height - 110.0).abs() < 0.01
    })));
    let reading = read(pages);
    assert!(reading.doubts.is_empty(), "{:?}", reading.doubts);
    assert_eq!(places(&reading, 2), []);
    assert_eq!(places(&reading, 3), []);
}

#[test]
fn each_cross_is_a_place_at_its_crossing_in_pencil_or_pen() {
    let (layout, mut pages) = printed();
    let (page, edinburgh) = frame(&layout, 2);
    // Pencil (grey 110, about 0.6 dark), three pixels wide.
    cross(&mut pages[page], edinburgh, (0.52, 0.40), 110, 3);
    let (page, airports) = frame(&layout, 3);
    // A pen, and one drawn on the faint coastline.
    for at in [(0.57, 0.66), (0.73, 0.84), (0.30, 0.41)] {
        cross(&mut pages[page], airports, at, 40, 2);
    }
    let reading = read(pages);
    assert!(reading.doubts.is_empty(), "{:?}", reading.doubts);
    near(&places(&reading, 2), (196.0, 280.0), &[(0.52, 0.40)]);
    near(
        &places(&reading, 3),
        (206.0, 280.0),
        &[(0.30, 0.41), (0.57, 0.66), (0.73, 0.84)],
    );
}

#[test]
fn too_many_crosses_go_to_a_person_who_picks_them_by_letter() {
    let (layout, mut pages) = printed();
    let (page, airports) = frame(&layout, 3);
    for at in [(0.2, 0.2), (0.4, 0.5), (0.6, 0.3), (0.8, 0.7)] {
        cross(&mut pages[page], airports, at, 60, 2);
    }
    let mut reading = read(pages);
    let doubt = reading.doubts.iter().find(|d| d.question == 3).unwrap();
    assert_eq!(doubt.reason, DoubtReason::SeveralMarks);
    assert_eq!((doubt.most, doubt.bubbles.len()), (3, 4));
    assert_eq!(
        reading.resolve(3, vec![1, 2, 3, 4]),
        Err(ResolveError::TooMany {
            question: 3,
            most: 3
        })
    );
    assert_eq!(
        reading.resolve(3, vec![5]),
        Err(ResolveError::Choice {
            question: 3,
            choice: 5
        })
    );
    reading.resolve(3, vec![1, 3, 4]).unwrap();
    near(
        &places(&reading, 3),
        (206.0, 280.0),
        &[(0.2, 0.2), (0.6, 0.3), (0.8, 0.7)],
    );
}

#[test]
fn ink_that_is_no_cross_is_never_dropped_without_a_person() {
    // A dot 1.5 mm across; and a stroke 30 mm long across the picture.
    let (layout, mut pages) = printed();
    let (page, edinburgh) = frame(&layout, 2);
    let px = |mm: f32| mm * DPI / 25.4;
    let center = (
        px(edinburgh.x + 0.5 * edinburgh.width) as i32,
        px(edinburgh.y + 0.5 * edinburgh.height) as i32,
    );
    draw_filled_circle_mut(&mut pages[page], center, px(0.75) as i32, Luma([60]));
    let (page, airports) = frame(&layout, 3);
    for offset in 0..3 {
        let y = px(airports.y + 20.0) + offset as f32;
        draw_line_segment_mut(
            &mut pages[page],
            (px(airports.x + 10.0), y),
            (px(airports.x + 40.0), y),
            Luma([60]),
        );
    }
    let mut reading = read(pages);
    for question in [2, 3] {
        let doubt = reading
            .doubts
            .iter()
            .find(|d| d.question == question)
            .unwrap();
        assert_eq!(doubt.reason, DoubtReason::Faint, "question {question}");
        assert_eq!(doubt.doubted, Doubted::Picture { places: Vec::new() });
    }
    // Nothing to pick: the person says no place was marked.
    reading.resolve(2, Vec::new()).unwrap();
    assert_eq!(places(&reading, 2), []);
}
