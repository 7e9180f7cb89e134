//! A page drawn from its layout as a printer puts it on paper, with pencil marks
//! on chosen bubbles and a stroke in the first essay frame (short answers' boxes
//! are left empty): what recognition's
//! tests and the `sheet_page` fuzz target read back. Only with the `drawn` feature;
//! the product prints through Chromium (docs/paper-sheets.md).

use image::{imageops, GrayImage, Luma};
use imageproc::drawing::{
    draw_filled_circle_mut, draw_filled_rect_mut, draw_hollow_rect_mut, draw_line_segment_mut,
};
use imageproc::rect::Rect as PixelRect;
use qrcode::{EcLevel, QrCode};

use crate::layout::{
    PageLayout, Shape, SheetQuestion, BUBBLE_RADIUS, MARK_SIDE, PAGE_HEIGHT, PAGE_WIDTH,
};

/// The paper's grey and the ink's, as a clean scan shows them.
pub const PAPER: u8 = 248;
pub const INK: u8 = 25;

/// The sheet that tests draw: eight choice questions of 4 to 6 choices (the third
/// with several right), then two essays worth 2 and 1; one page.
pub fn sample_sheet() -> Vec<SheetQuestion> {
    let mut questions: Vec<SheetQuestion> = (1..=8)
        .map(|order| SheetQuestion {
            order,
            shape: Shape::Choices {
                count: 4 + (order as usize % 3),
                most: if order == 3 {
                    4 + (order as usize % 3)
                } else {
                    1
                },
            },
        })
        .collect();
    for (order, max_score) in [(9, 2), (10, 1)] {
        questions.push(SheetQuestion {
            order,
            shape: Shape::Essay { max_score },
        });
    }
    questions
}

/// A pencil mark of this darkness (0 paper, 1 ink) on a bubble.
#[derive(Debug, Clone, Copy)]
pub struct Pencil {
    pub question: i32,
    /// A grid's row (0 for a choice question).
    pub part: i32,
    pub choice: i32,
    pub darkness: f32,
}

/// The page at `dpi`, its code square holding `code_text` as a QR code (any text,
/// so that a foreign code can be drawn too).
pub fn print_page(page: &PageLayout, code_text: &str, dpi: f32, pencil: &[Pencil]) -> GrayImage {
    let s = dpi / 25.4;
    let px = |mm: f32| (mm * s).round() as i32;
    let mut image =
        GrayImage::from_pixel(px(PAGE_WIDTH) as u32, px(PAGE_HEIGHT) as u32, Luma([PAPER]));
    let side = px(MARK_SIDE) as u32;
    for mark in &page.marks {
        let corner = PixelRect::at(
            px(mark.center.x - MARK_SIDE / 2.0),
            px(mark.center.y - MARK_SIDE / 2.0),
        );
        draw_filled_rect_mut(&mut image, corner.of_size(side, side), Luma([INK]));
    }
    if let Ok(code) = QrCode::with_error_correction_level(code_text, EcLevel::H) {
        let qr = code
            .render::<Luma<u8>>()
            .quiet_zone(false)
            .module_dimensions(1, 1)
            .build();
        let side = px(page.code.width) as u32;
        let qr = imageops::resize(&qr, side, side, imageops::FilterType::Nearest);
        let (x, y) = (px(page.code.x), px(page.code.y));
        imageops::overlay(&mut image, &qr, i64::from(x), i64::from(y));
    }
    for bubble in &page.bubbles {
        let center = (px(bubble.center.x), px(bubble.center.y));
        draw_filled_circle_mut(&mut image, center, px(BUBBLE_RADIUS), Luma([INK]));
        let inside = px(BUBBLE_RADIUS - 0.3);
        draw_filled_circle_mut(&mut image, center, inside, Luma([PAPER]));
        draw_label(&mut image, bubble, s);
        let mark = pencil.iter().find(|p| {
            p.question == bubble.question && p.part == bubble.part && p.choice == bubble.choice
        });
        if let Some(mark) = mark {
            let grey = f32::from(PAPER) - mark.darkness.clamp(0.0, 1.0) * f32::from(PAPER - INK);
            draw_filled_circle_mut(&mut image, center, inside, Luma([grey as u8]));
        }
    }
    let first_essay = page.essays.iter().position(|essay| !essay.typed);
    for (index, essay) in page.essays.iter().enumerate() {
        let frame = essay.frame;
        let corner = PixelRect::at(px(frame.x), px(frame.y));
        let size = (px(frame.width) as u32, px(frame.height) as u32);
        draw_hollow_rect_mut(&mut image, corner.of_size(size.0, size.1), Luma([INK]));
        if Some(index) == first_essay {
            for dy in 0..3 {
                let y = frame.y * s + frame.height * s / 2.0 + dy as f32;
                let from = (px(frame.x + 20.0) as f32, y);
                let to = (px(frame.x + 120.0) as f32, y);
                draw_line_segment_mut(&mut image, from, to, Luma([60]));
            }
        }
    }
    for picture in &page.pictures {
        draw_picture(&mut image, picture.frame, s);
    }
    image
}

/// A bubble's label as the sheet prints it: grey (#555), 1.8 mm high, in the
/// middle of the bubble (the glyphs of the `font8x8` crate, scaled).
fn draw_label(image: &mut GrayImage, bubble: &crate::layout::Bubble, s: f32) {
    const LABEL_GREY: u8 = 0x55;
    const HEIGHT: f32 = 1.8;
    let glyph = font8x8::legacy::BASIC_LEGACY[usize::from(bubble.label as u8 & 0x7f)];
    let cell = HEIGHT * s / 8.0;
    let (left, top) = (
        (bubble.center.x - HEIGHT / 2.0) * s,
        (bubble.center.y - HEIGHT / 2.0) * s,
    );
    let side = (HEIGHT * s).ceil() as u32;
    for v in 0..side {
        for u in 0..side {
            let (column, row) = ((u as f32 / cell) as usize, (v as f32 / cell) as usize);
            if column < 8 && row < 8 && glyph[row] >> column & 1 == 1 {
                let (x, y) = (left as u32 + u, top as u32 + v);
                if let Some(pixel) = image.get_pixel_mut_checked(x, y) {
                    pixel.0[0] = LABEL_GREY;
                }
            }
        }
    }
}

/// A picture as the sheet prints it: a frame around it, and the picture itself
/// faint (a fifth of the way to ink): a coastline's outline and a shaded sea.
fn draw_picture(image: &mut GrayImage, frame: crate::layout::Rect, s: f32) {
    let px = |mm: f32| (mm * s).round() as i32;
    let faint = f32::from(PAPER) - 0.2 * f32::from(PAPER - INK);
    let corner = PixelRect::at(px(frame.x - 1.0), px(frame.y - 1.0));
    let size = (px(frame.width + 2.0) as u32, px(frame.height + 2.0) as u32);
    draw_hollow_rect_mut(image, corner.of_size(size.0, size.1), Luma([INK]));
    let sea = PixelRect::at(px(frame.x), px(frame.y))
        .of_size(px(frame.width / 3.0) as u32, px(frame.height) as u32);
    draw_filled_rect_mut(image, sea, Luma([(faint + 20.0) as u8]));
    let coast: Vec<(f32, f32)> = (0..=40)
        .map(|i| {
            let t = i as f32 / 40.0;
            let x = frame.x + frame.width * (0.3 + 0.1 * (t * 17.0).sin());
            (x * s, (frame.y + frame.height * t) * s)
        })
        .collect();
    for pair in coast.windows(2) {
        for offset in 0..3 {
            let shift = offset as f32;
            draw_line_segment_mut(
                image,
                (pair[0].0 + shift, pair[0].1),
                (pair[1].0 + shift, pair[1].1),
                Luma([faint as u8]),
            );
        }
    }
}
