//! The answer-sheet page reader on mutated scans: a sheet laid out for any
//! questions, drawn as a printer puts it on paper with pencil marks, then turned,
//! moved, blotted, exposed lighter or darker, encoded as PNG, JPEG or TIFF (or
//! handed over as pixels) and damaged byte by byte, and read back as `sheets scan`
//! and the desktop read a scan (`read_batch_page`). Besides never panicking, a
//! clean scan of a page of ours must be read, with every firm mark found.

use std::io::Cursor;

use arbitrary::{Arbitrary, Unstructured};
use image::{imageops, GrayImage, ImageFormat, Luma};
use imageproc::drawing::draw_filled_rect_mut;
use imageproc::geometric_transformations::{rotate_about_center, Interpolation};
use imageproc::rect::Rect as PixelRect;
use scoredesk_sheets::drawn::{print_page, sample_sheet, Pencil, PAPER};
use scoredesk_sheets::layout::{lay_out, Shape, SheetQuestion};
use scoredesk_sheets::recognise::find_page;
use scoredesk_sheets::{assemble, read_batch_page, SheetCode, Verdict, EDITION};

/// The area and batch the reader is told to expect.
const AREA: i32 = 3;
const BATCH: i32 = 41;

#[derive(Arbitrary, Debug)]
struct Question {
    /// Choices (0 to 31) when not an essay or a short answer.
    choices: u8,
    single: bool,
    essay: bool,
    /// A short answer's box (not on a page of edition 1).
    written: bool,
    /// A picture to mark places on, `choices` + 1 by `max_score` wide and
    /// high (in hundredths of its pixels, times 100).
    picture: bool,
    max_score: i8,
}

#[derive(Arbitrary, Debug)]
enum Code {
    /// A code of ours for this area and batch, for the page drawn.
    Ours { attempt: u16 },
    /// Any fields.
    Fields {
        edition: u8,
        area: i32,
        batch: i32,
        attempt: i32,
        page: u16,
        pages: u16,
    },
    /// Any text in the code's square.
    Text(String),
}

#[derive(Arbitrary, Debug)]
struct Blot {
    x: u16,
    y: u16,
    width: u16,
    height: u16,
    grey: u8,
}

#[derive(Arbitrary, Debug)]
enum Encoding {
    Pixels,
    Png,
    Jpeg { quality: u8 },
    Tiff,
}

#[derive(Arbitrary, Debug)]
struct MutatedScan {
    /// Up to 40 questions; none is the default sheet of eight choice questions
    /// and two essays.
    questions: Vec<Question>,
    /// Which of the sheet's pages is drawn.
    page: u8,
    code: Code,
    /// (question, choice, darkness of 255).
    pencil: Vec<(u8, u8, u8)>,
    /// 122 to 185 dpi: above the reader's least width, small enough to be quick.
    dpi: u8,
    /// A turn of up to ±12.7°, and the page upside down on the scanner.
    turn_tenths: i8,
    upside_down: bool,
    /// The page moved on the scanner, in pixels.
    shift: (i8, i8),
    blots: Vec<Blot>,
    /// Exposure: how much darker than white the paper comes out, and how much
    /// lighter than black the ink (0 and 0: as drawn).
    paper_loss: u8,
    ink_gain: u8,
    encoding: Encoding,
    /// Bytes of the encoded file overwritten: a file damaged on its way.
    damage: Vec<(u32, u8)>,
}

/// Reads one mutated scan; panics only on a bug.
pub fn sheet_page(data: &[u8]) {
    let Ok(scan) = MutatedScan::arbitrary_take_rest(Unstructured::new(data)) else {
        return;
    };
    let questions = questions(&scan.questions);
    let pages = lay_out(&questions);
    let index = usize::from(scan.page) % pages.len();
    let page = &pages[index];
    let code_text = match &scan.code {
        Code::Ours { attempt } => SheetCode {
            edition: EDITION,
            area: AREA,
            batch: BATCH,
            attempt: i32::from(*attempt) + 1,
            page: page.number,
            pages: pages.len() as u16,
        }
        .encode(),
        Code::Fields {
            edition,
            area,
            batch,
            attempt,
            page,
            pages,
        } => format!("SDSHEET{edition}/{area}/{batch}/{attempt}/{page}/{pages}"),
        Code::Text(text) => text.clone(),
    };
    let pencil: Vec<Pencil> = scan
        .pencil
        .iter()
        .take(64)
        .map(|&(question, choice, darkness)| Pencil {
            question: i32::from(question % 48),
            part: 0,
            choice: i32::from(choice % 34),
            darkness: f32::from(darkness) / 255.0,
        })
        .collect();
    let dpi = 122.0 + f32::from(scan.dpi % 64);
    let image = print_page(page, &code_text, dpi, &pencil);
    let image = mutate(image, &scan);
    // The reading, and the page layout it was read against.
    let outcome = match encode(&image, &scan) {
        None => find_page(image)
            .and_then(|found| found.read(page))
            .map(|reading| (page.clone(), reading))
            .map_err(|error| error.to_string()),
        Some(bytes) => {
            read_batch_page(&bytes, &questions, AREA, BATCH).map(|read| (read.layout, read.reading))
        }
    };
    let clean = is_clean(&scan, &pencil);
    match outcome {
        Ok((page, reading)) => {
            assert_eq!(reading.bubbles.len(), page.bubbles.len());
            assert_eq!(reading.essays.len(), page.essays.len());
            assert_eq!(reading.places.len(), page.pictures.len());
            let _ = assemble(&questions, std::slice::from_ref(&reading));
            if clean {
                assert_eq!(reading.upside_down, scan.upside_down, "way up: {scan:?}");
                // A picture's faint print is never a participant's cross.
                for places in &reading.places {
                    assert!(
                        places.marks.is_empty() && !places.unsure,
                        "{places:?}\n{scan:?}"
                    );
                }
                for mark in &pencil {
                    let Some(read) = reading
                        .bubbles
                        .iter()
                        .find(|b| b.question == mark.question && b.choice == mark.choice)
                    else {
                        continue;
                    };
                    if mark.darkness >= 0.8 {
                        assert_eq!(
                            read.verdict,
                            Verdict::Marked,
                            "{mark:?}: {read:?}\n{scan:?}"
                        );
                    }
                }
            }
        }
        Err(error) => assert!(!clean, "a clean scan refused: {error}\n{scan:?}"),
    }
}

fn questions(drawn: &[Question]) -> Vec<SheetQuestion> {
    if drawn.is_empty() {
        return sample_sheet();
    }
    drawn
        .iter()
        .take(40)
        .enumerate()
        .map(|(index, question)| SheetQuestion {
            order: index as i32 + 1,
            shape: if question.picture {
                Shape::Picture {
                    width: (u32::from(question.choices) + 1) * 100,
                    height: u32::from(question.max_score.unsigned_abs()).max(1) * 100,
                    most: usize::from(question.choices % 4),
                }
            } else if question.written {
                Shape::Written
            } else if question.essay {
                Shape::Essay {
                    max_score: i32::from(question.max_score),
                }
            } else {
                Shape::Choices {
                    count: usize::from(question.choices % 32),
                    most: if question.single {
                        1
                    } else {
                        usize::from(question.choices % 32)
                    },
                }
            },
        })
        .collect()
}

/// A scan without harm done to it: the reader must read it whole. Turned a
/// little, moved a little, exposed as paper and ink are, stored without loss,
/// its pencil marks either firm or absent.
fn is_clean(scan: &MutatedScan, pencil: &[Pencil]) -> bool {
    matches!(scan.code, Code::Ours { .. })
        && matches!(
            scan.encoding,
            Encoding::Pixels | Encoding::Png | Encoding::Tiff
        )
        && scan.damage.is_empty()
        && scan.blots.is_empty()
        && scan.turn_tenths.unsigned_abs() <= 20
        && scan.shift.0.unsigned_abs() <= 20
        && scan.shift.1.unsigned_abs() <= 20
        && scan.paper_loss <= 25
        && scan.ink_gain <= 40
        && pencil
            .iter()
            .all(|mark| mark.darkness >= 0.8 || mark.darkness <= 0.05)
}

fn mutate(image: GrayImage, scan: &MutatedScan) -> GrayImage {
    let mut image = image;
    let (width, height) = image.dimensions();
    for blot in scan.blots.iter().take(16) {
        let x = i32::from(blot.x) % width as i32;
        let y = i32::from(blot.y) % height as i32;
        let size = (u32::from(blot.width).max(1), u32::from(blot.height).max(1));
        let rect = PixelRect::at(x, y).of_size(size.0, size.1);
        draw_filled_rect_mut(&mut image, rect, Luma([blot.grey]));
    }
    if scan.turn_tenths != 0 {
        let angle = (f32::from(scan.turn_tenths) / 10.0).to_radians();
        image = rotate_about_center(&image, angle, Interpolation::Bilinear, Luma([PAPER]));
    }
    if scan.shift != (0, 0) {
        let mut moved = GrayImage::from_pixel(width, height, Luma([PAPER]));
        let (dx, dy) = (i64::from(scan.shift.0), i64::from(scan.shift.1));
        imageops::overlay(&mut moved, &image, dx, dy);
        image = moved;
    }
    if scan.upside_down {
        image = imageops::rotate180(&image);
    }
    let white = f32::from(255 - scan.paper_loss);
    let black = f32::from(scan.ink_gain);
    for pixel in image.pixels_mut() {
        let grey = f32::from(pixel.0[0]) / 255.0;
        pixel.0[0] = (black + grey * (white - black)).round().clamp(0.0, 255.0) as u8;
    }
    image
}

/// The scan as a file, damaged; `None` when it is handed over as pixels.
fn encode(image: &GrayImage, scan: &MutatedScan) -> Option<Vec<u8>> {
    let mut bytes = Vec::new();
    let mut cursor = Cursor::new(&mut bytes);
    let written = match scan.encoding {
        Encoding::Pixels => return None,
        Encoding::Png => image.write_to(&mut cursor, ImageFormat::Png),
        Encoding::Tiff => image.write_to(&mut cursor, ImageFormat::Tiff),
        Encoding::Jpeg { quality } => {
            let quality = quality.clamp(1, 100);
            let encoder = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut cursor, quality);
            image.write_with_encoder(encoder)
        }
    };
    written.expect("an image encodes");
    for &(at, byte) in scan.damage.iter().take(32) {
        let at = at as usize % bytes.len();
        bytes[at] = byte;
    }
    Some(bytes)
}
