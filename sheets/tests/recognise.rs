//! Recognition on pages drawn here from the layout (the generated corpus of
//! Chromium-printed pages is in the end-to-end tests): the code read either way up,
//! every bubble decided, essays cut out, and bad scans refused by name.

use std::io::Cursor;

use image::{imageops, GrayImage, ImageFormat, Luma};
use imageproc::drawing::draw_filled_rect_mut;
use imageproc::geometric_transformations::{rotate_about_center, Interpolation};
use imageproc::rect::Rect as PixelRect;
use scoredesk_sheets::drawn::{print_page as print, sample_sheet, Pencil, PAPER};
use scoredesk_sheets::layout::{lay_out, PageLayout, Shape, SheetQuestion, NUMBER_KEYS};
use scoredesk_sheets::recognise::{self, ScanError};
use scoredesk_sheets::{assemble, Answer, DoubtReason, SheetCode, Verdict};

fn code(page: u16, pages: u16) -> SheetCode {
    SheetCode {
        edition: scoredesk_sheets::EDITION,
        area: 3,
        batch: 41,
        attempt: 9001,
        page,
        pages,
    }
}

fn png(image: &GrayImage, format: ImageFormat) -> Vec<u8> {
    let mut bytes = Vec::new();
    image
        .write_to(&mut Cursor::new(&mut bytes), format)
        .expect("encode");
    bytes
}

fn marks() -> Vec<Pencil> {
    vec![
        Pencil {
            question: 1,
            part: 0,
            choice: 2,
            darkness: 0.85,
        },
        Pencil {
            question: 2,
            part: 0,
            choice: 1,
            darkness: 0.7,
        },
        // Two on a multiple-response question.
        Pencil {
            question: 3,
            part: 0,
            choice: 1,
            darkness: 0.8,
        },
        Pencil {
            question: 3,
            part: 0,
            choice: 4,
            darkness: 0.8,
        },
        // A light mark: unsure.
        Pencil {
            question: 4,
            part: 0,
            choice: 3,
            darkness: 0.33,
        },
        // Two on a single-choice question.
        Pencil {
            question: 5,
            part: 0,
            choice: 1,
            darkness: 0.8,
        },
        Pencil {
            question: 5,
            part: 0,
            choice: 2,
            darkness: 0.8,
        },
        // An erasure that left little: blank, and the new mark beside it.
        Pencil {
            question: 6,
            part: 0,
            choice: 1,
            darkness: 0.08,
        },
        Pencil {
            question: 6,
            part: 0,
            choice: 3,
            darkness: 0.9,
        },
    ]
}

fn read(bytes: &[u8], page: &PageLayout) -> scoredesk_sheets::PageReading {
    let scan = recognise::open(bytes).expect("page found");
    scan.read(page).expect("read")
}

fn check(reading: &scoredesk_sheets::PageReading) {
    let verdict = |q: i32, c: i32| {
        reading
            .bubbles
            .iter()
            .find(|b| b.question == q && b.choice == c)
            .map(|b| b.verdict)
            .expect("bubble")
    };
    for pencil in marks() {
        let expected = if pencil.darkness >= 0.6 {
            Verdict::Marked
        } else if pencil.darkness <= 0.1 {
            Verdict::Blank
        } else {
            Verdict::Unsure
        };
        assert_eq!(
            verdict(pencil.question, pencil.choice),
            expected,
            "{}/{}",
            pencil.question,
            pencil.choice
        );
    }
    let marked = reading
        .bubbles
        .iter()
        .filter(|b| b.verdict != Verdict::Blank)
        .count();
    assert_eq!(marked, 8, "every other bubble blank: {:?}", reading.bubbles);
    assert_eq!(reading.essays.len(), 2);
    assert!(reading.essays[0].written, "{:?}", reading.essays[0].ink);
    assert!(!reading.essays[1].written, "{:?}", reading.essays[1].ink);
}

#[test]
fn a_straight_page_is_read_in_full() {
    let pages = lay_out(&sample_sheet());
    assert_eq!(pages.len(), 1);
    let code = code(1, 1);
    let image = print(&pages[0], &code.encode(), 200.0, &marks());
    let reading = read(&png(&image, ImageFormat::Png), &pages[0]);
    assert_eq!(reading.code, code);
    assert!(!reading.upside_down);
    check(&reading);
    let crop = image::load_from_memory(&reading.essays[0].png).expect("a PNG");
    assert_eq!(crop.width(), ((170.0 - 2.4) * 8.0f32).round() as u32);
}

#[test]
fn a_turned_shifted_page_upside_down_in_jpeg_is_read_the_same() {
    let pages = lay_out(&sample_sheet());
    let code = code(1, 1);
    let image = print(&pages[0], &code.encode(), 150.0, &marks());
    let turned = rotate_about_center(
        &image,
        4.0f32.to_radians(),
        Interpolation::Bilinear,
        Luma([PAPER]),
    );
    let turned = imageops::rotate180(&turned);
    let reading = read(&png(&turned, ImageFormat::Jpeg), &pages[0]);
    assert_eq!(reading.code, code);
    assert!(reading.upside_down);
    check(&reading);
}

#[test]
fn a_600_dpi_tiff_and_a_150_dpi_colour_jpeg_are_read_the_same() {
    let pages = lay_out(&sample_sheet());
    let code = code(1, 1);
    let fine = print(&pages[0], &code.encode(), 600.0, &marks());
    let reading = read(&png(&fine, ImageFormat::Tiff), &pages[0]);
    assert_eq!(reading.code, code);
    check(&reading);
    let coarse = print(&pages[0], &code.encode(), 150.0, &marks());
    let colour = image::DynamicImage::ImageLuma8(coarse).into_rgb8();
    let mut bytes = Vec::new();
    colour
        .write_to(&mut Cursor::new(&mut bytes), ImageFormat::Jpeg)
        .expect("encode");
    let reading = read(&bytes, &pages[0]);
    assert_eq!(reading.code, code);
    check(&reading);
}

#[test]
fn an_attempts_pages_become_answers_and_doubts_that_a_person_resolves() {
    let questions = sample_sheet();
    let pages = lay_out(&questions);
    let image = print(&pages[0], &code(1, 1).encode(), 200.0, &marks());
    let page = read(&png(&image, ImageFormat::Png), &pages[0]);
    let mut reading = assemble(&questions, std::slice::from_ref(&page)).expect("one page of one");
    let doubts: Vec<(i32, DoubtReason)> = reading
        .doubts
        .iter()
        .map(|d| (d.question, d.reason))
        .collect();
    assert_eq!(
        doubts,
        [(4, DoubtReason::Faint), (5, DoubtReason::SeveralMarks)]
    );
    let choices = |reading: &scoredesk_sheets::AttemptReading, q: i32| {
        reading.answers.iter().find_map(|a| match a {
            Answer::Choices { question, selected } if *question == q => Some(selected.clone()),
            _ => None,
        })
    };
    assert_eq!(choices(&reading, 1), Some(vec![2]));
    assert_eq!(choices(&reading, 3), Some(vec![1, 4]));
    assert_eq!(choices(&reading, 6), Some(vec![3]));
    assert_eq!(choices(&reading, 7), Some(vec![]));
    assert!(matches!(
        &reading.answers[reading.answers.len() - 2],
        Answer::Essay {
            question: 9,
            png: Some(_)
        }
    ));
    assert!(matches!(
        reading.answers.last(),
        Some(Answer::Essay {
            question: 10,
            png: None
        })
    ));
    assert!(!reading.is_decided());
    assert!(reading.resolve(5, vec![1, 2]).is_err(), "single choice");
    assert!(reading.resolve(4, vec![9]).is_err(), "no such choice");
    assert!(reading.resolve(1, vec![1]).is_err(), "not in doubt");
    reading.resolve(4, vec![3]).expect("resolved");
    reading.resolve(5, vec![]).expect("resolved");
    assert!(reading.is_decided());
    let order: Vec<i32> = reading.answers.iter().map(Answer::question).collect();
    assert_eq!(order, (1..=10).collect::<Vec<_>>());
    assert!(
        assemble(&questions, &[page.clone(), page.clone()]).is_err(),
        "twice"
    );
    let mut wrong = page;
    wrong.code.pages = 2;
    assert!(assemble(&questions, &[wrong]).is_err(), "another layout");
}

#[test]
fn bad_scans_are_refused_by_name() {
    assert!(matches!(
        recognise::open(b"not an image"),
        Err(ScanError::Image(_))
    ));
    let blank = GrayImage::from_pixel(1240, 1754, Luma([PAPER]));
    assert!(matches!(
        recognise::open(&png(&blank, ImageFormat::Png)),
        Err(ScanError::Mark("top left"))
    ));
    let small = GrayImage::from_pixel(600, 800, Luma([PAPER]));
    assert!(matches!(
        recognise::open(&png(&small, ImageFormat::Png)),
        Err(ScanError::TooSmall { .. })
    ));
    let pages = lay_out(&sample_sheet());
    let foreign = print(&pages[0], "https://example.com/", 150.0, &[]);
    let error = recognise::open(&png(&foreign, ImageFormat::Png))
        .err()
        .expect("refused");
    assert!(matches!(error, ScanError::Code(_)), "{error}");
    let no_code = print(&pages[0], "", 150.0, &[]);
    let mut no_code = no_code;
    draw_filled_rect_mut(
        &mut no_code,
        PixelRect::at(940, 140).of_size(160, 160),
        Luma([PAPER]),
    );
    let error = recognise::open(&png(&no_code, ImageFormat::Png))
        .err()
        .expect("refused");
    assert!(matches!(error, ScanError::NoCode), "{error}");
}

/// Found by the `sheet_page` fuzz target: a page of a few pure greys (a sheet of
/// one unmarked question, as a PDF rasterised without smoothing gives: paper, the
/// marks' ink, the code's black and white) makes Otsu's level the marks' own grey:
/// they were lost when ink was taken to be only what is darker than that level.
#[test]
fn a_page_of_two_greys_only_is_read() {
    let pages = lay_out(&[SheetQuestion {
        order: 1,
        shape: Shape::Choices { count: 1, most: 1 },
    }]);
    for dpi in [122.0, 150.0, 300.0] {
        let image = print(&pages[0], &code(1, 1).encode(), dpi, &[]);
        let mut greys: Vec<u8> = image.pixels().map(|p| p.0[0]).collect();
        greys.sort_unstable();
        greys.dedup();
        // Paper, the marks' ink, the labels' grey and the code's black and white.
        assert!(greys.len() <= 5, "no smoothing: {greys:?}");
        let scan = recognise::find_page(image).expect("the page is found");
        let reading = scan.read(&pages[0]).expect("read");
        assert_eq!(reading.bubbles[0].verdict, Verdict::Blank, "{dpi} dpi");
    }
}

/// More choices than a row holds go on to a second row inside the page, and a mark
/// on the last of them is read (from 22 choices on, they were off the paper).
#[test]
fn a_question_of_25_choices_is_read_to_its_last_choice() {
    let pages = lay_out(&[SheetQuestion {
        order: 1,
        shape: Shape::Choices {
            count: 25,
            most: 25,
        },
    }]);
    let pencil = [18, 25].map(|choice| Pencil {
        question: 1,
        part: 0,
        choice,
        darkness: 0.9,
    });
    let image = print(&pages[0], &code(1, 1).encode(), 150.0, &pencil);
    let reading = read(&png(&image, ImageFormat::Png), &pages[0]);
    for bubble in &reading.bubbles {
        let expected = if [18, 25].contains(&bubble.choice) {
            Verdict::Marked
        } else {
            Verdict::Blank
        };
        assert_eq!(bubble.verdict, expected, "choice {}", bubble.choice);
    }
}

/// A matching's grid printed, pencilled and scanned: each row read as its own
/// single choice; a row with two marks and a row with a faint one left to a
/// person, each by its row, and decided; a blank row left out of the answer.
#[test]
fn a_grids_rows_are_read_each_as_one_choice_and_doubts_are_decided_by_row() {
    let questions = vec![
        SheetQuestion {
            order: 1,
            shape: Shape::Choices { count: 4, most: 1 },
        },
        SheetQuestion {
            order: 2,
            shape: Shape::Grid {
                parts: 5,
                options: 4,
            },
        },
    ];
    let pages = lay_out(&questions);
    let mark = |question, part, choice, darkness| Pencil {
        question,
        part,
        choice,
        darkness,
    };
    let pencil = [
        mark(1, 0, 3, 0.9),
        mark(2, 1, 2, 0.9),
        mark(2, 2, 4, 0.85),
        // Row 3: two marks. Row 4: faint. Row 5: blank.
        mark(2, 3, 1, 0.9),
        mark(2, 3, 3, 0.9),
        mark(2, 4, 2, 0.33),
    ];
    let image = print(&pages[0], &code(1, 1).encode(), 200.0, &pencil);
    let page = read(&png(&image, ImageFormat::Jpeg), &pages[0]);
    let mut reading = assemble(&questions, &[page]).expect("one page");
    let doubts: Vec<(i32, i32, DoubtReason)> = reading
        .doubts
        .iter()
        .map(|d| (d.question, d.part, d.reason))
        .collect();
    assert_eq!(
        doubts,
        [
            (2, 3, DoubtReason::SeveralMarks),
            (2, 4, DoubtReason::Faint)
        ]
    );
    let parts = |reading: &scoredesk_sheets::AttemptReading| {
        reading.answers.iter().find_map(|a| match a {
            Answer::Parts { question: 2, parts } => Some(parts.clone()),
            _ => None,
        })
    };
    assert_eq!(parts(&reading), Some(vec![(1, 2), (2, 4)]));
    assert!(reading.resolve_part(2, 3, vec![1, 3]).is_err(), "one a row");
    assert!(
        reading.resolve_part(2, 2, vec![4]).is_err(),
        "row 2 is decided"
    );
    reading.resolve_part(2, 4, vec![2]).expect("resolved");
    reading.resolve_part(2, 3, vec![3]).expect("resolved");
    assert!(reading.is_decided());
    assert_eq!(parts(&reading), Some(vec![(1, 2), (2, 4), (3, 3), (4, 2)]));
}

/// A number's rows (edition 3): each row one character, read top row first,
/// blank rows passed over; a faint row goes to a person by its row, and the
/// number is whole once it is decided.
#[test]
fn a_numbers_rows_are_read_into_its_characters() {
    let questions = vec![SheetQuestion {
        order: 1,
        shape: Shape::Number { positions: 6 },
    }];
    let pages = lay_out(&questions);
    assert_eq!(
        pages[0].bubbles.len(),
        6 * NUMBER_KEYS.len(),
        "a bubble per key a row"
    );
    let key = |c: char| NUMBER_KEYS.iter().position(|k| *k == c).unwrap() as i32 + 1;
    let mark = |part, c, darkness| Pencil {
        question: 1,
        part,
        choice: key(c),
        darkness,
    };
    // "-9.8" from the second row, the first and the last left blank; then a
    // faint 1 in row 6 for a person to decide.
    let pencil = [
        mark(2, '-', 0.9),
        mark(3, '9', 0.9),
        mark(4, '.', 0.85),
        mark(5, '8', 0.9),
        mark(6, '1', 0.33),
    ];
    let image = print(&pages[0], &code(1, 1).encode(), 300.0, &pencil);
    let page = read(&png(&image, ImageFormat::Jpeg), &pages[0]);
    let mut reading = assemble(&questions, &[page]).expect("one page");
    let number = |reading: &scoredesk_sheets::AttemptReading| {
        reading.answers.iter().find_map(|a| match a {
            Answer::Number { question: 1, rows } => Some(Answer::number_text(rows)),
            _ => None,
        })
    };
    assert_eq!(number(&reading), Some("-9.8".to_owned()));
    let doubts: Vec<(i32, i32)> = reading
        .doubts
        .iter()
        .map(|d| (d.question, d.part))
        .collect();
    assert_eq!(doubts, [(1, 6)]);
    reading
        .resolve_part(1, 6, vec![key('1')])
        .expect("resolved");
    assert_eq!(number(&reading), Some("-9.81".to_owned()));
}
