//! Ticks and crosses over bubbles (issue 36): their strokes cover a quarter of
//! the disc or less, under the blank line, so the disc's darkness alone read
//! them as blank and the answer was lost without a word. Read by their shape
//! (strokes that meet on clean paper, against the page's own printing of the
//! label), they are marks, named as such; blank bubbles stay blank and fills
//! marked, on a clean page and on a JPEG turned a degree.

#![allow(clippy::unwrap_used)]

use std::io::Cursor;

use image::{GrayImage, ImageFormat, Luma};
use imageproc::drawing::draw_line_segment_mut;
use imageproc::geometric_transformations::{rotate_about_center, Interpolation};
use scoredesk_sheets::drawn::{print_page as print, Pencil, PAPER};
use scoredesk_sheets::layout::{lay_out, Point, Shape, SheetQuestion};
use scoredesk_sheets::recognise;
use scoredesk_sheets::{MarkKind, SheetCode, Verdict};

const DPI: f32 = 200.0;

fn questions() -> Vec<SheetQuestion> {
    (1..=12)
        .map(|order| SheetQuestion {
            order,
            shape: Shape::Choices { count: 5, most: 1 },
        })
        .collect()
}

/// A pencil stroke 0.4 mm wide from `a` to `b` (millimetres on the page).
fn stroke(image: &mut GrayImage, a: (f32, f32), b: (f32, f32)) {
    let px = |mm: f32| mm * DPI / 25.4;
    for offset in 0..3 {
        let d = offset as f32;
        draw_line_segment_mut(
            image,
            (px(a.0) + d, px(a.1)),
            (px(b.0) + d, px(b.1)),
            Luma([80]),
        );
    }
}

/// A tick: a short stroke down to the right, then a long one up out of the
/// bubble, as a hurried hand makes it.
fn tick(image: &mut GrayImage, at: Point) {
    let bottom = (at.x - 0.2, at.y + 1.3);
    stroke(image, (at.x - 1.6, at.y - 0.1), bottom);
    stroke(image, bottom, (at.x + 2.4, at.y - 3.4));
}

/// A cross whose arms reach 3.5 mm from the bubble's centre.
fn cross(image: &mut GrayImage, at: Point) {
    stroke(image, (at.x - 2.5, at.y - 2.5), (at.x + 2.5, at.y + 2.5));
    stroke(image, (at.x + 2.5, at.y - 2.5), (at.x - 2.5, at.y + 2.5));
}

#[test]
fn a_tick_or_a_cross_is_read_as_a_mark() {
    let questions = questions();
    let layout = lay_out(&questions);
    let page = &layout[0];
    let code = SheetCode {
        edition: scoredesk_sheets::EDITION,
        area: 3,
        batch: 41,
        attempt: 9001,
        page: 1,
        pages: 1,
    };
    // Questions 1-4 filled (choice 2), 5-8 ticked (choice 3), 9-12 crossed (choice 4).
    let fills: Vec<Pencil> = (1..=4)
        .map(|question| Pencil {
            question,
            part: 0,
            choice: 2,
            darkness: 0.85,
        })
        .collect();
    let mut image = print(page, &code.encode(), DPI, &fills);
    let centre = |question: i32, choice: i32| {
        page.bubbles
            .iter()
            .find(|b| b.question == question && b.choice == choice)
            .unwrap()
            .center
    };
    for question in 5..=8 {
        tick(&mut image, centre(question, 3));
    }
    for question in 9..=12 {
        cross(&mut image, centre(question, 4));
    }
    let turned = rotate_about_center(
        &image,
        1f32.to_radians(),
        Interpolation::Bilinear,
        Luma([PAPER]),
    );
    for (name, scan, format) in [
        ("clean", &image, ImageFormat::Png),
        ("turned JPEG", &turned, ImageFormat::Jpeg),
    ] {
        let mut bytes = Vec::new();
        scan.write_to(&mut Cursor::new(&mut bytes), format).unwrap();
        let reading = recognise::open(&bytes).unwrap().read(page).unwrap();
        for bubble in &reading.bubbles {
            let drawn = match bubble.question {
                1..=4 if bubble.choice == 2 => Some(Verdict::Marked),
                5..=8 if bubble.choice == 3 => None,
                9..=12 if bubble.choice == 4 => None,
                _ => Some(Verdict::Blank),
            };
            match drawn {
                Some(verdict) => assert_eq!(bubble.verdict, verdict, "{name}: {bubble:?}"),
                // A tick or a cross: marked by its strokes, though the disc
                // alone would not read it.
                None => {
                    assert_eq!(bubble.verdict, Verdict::Marked, "{name}: {bubble:?}");
                    assert!(
                        matches!(bubble.kind, MarkKind::Tick | MarkKind::Cross),
                        "{name}: {bubble:?}"
                    );
                    assert!(
                        bubble.darkness < 0.47,
                        "{name}: the disc alone would not read it: {bubble:?}"
                    );
                }
            }
        }
    }
}
