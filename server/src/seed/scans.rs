//! Scanned-looking handwritten answers for the demo: a page of paper grain, ruled
//! lines and cursive-like ink strokes, encoded as JPEG as a scanner would.

use std::sync::OnceLock;

use image::codecs::jpeg::JpegEncoder;
use image::{GrayImage, Luma};
use imageproc::drawing::{draw_hollow_rect_mut, draw_line_segment_mut};
use imageproc::rect::Rect;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// An A4 page at 150 dots per inch.
pub const SCAN_WIDTH: u32 = 1240;
pub const SCAN_HEIGHT: u32 = 1754;
pub const SCAN_MEDIA_TYPE: &str = "image/jpeg";

/// How many distinct pages the demo draws; a question's answers take them in turn
/// (issue 33, defect 15: six pages drawn at random for 153 answers put the same
/// page on neighbouring students).
const DISTINCT_SCANS: u64 = 16;

/// The demo's scans, drawn once per process on two threads (each takes about a
/// quarter of a second in a debug build, most of it the JPEG encoding of grain).
pub fn demo_scans() -> &'static [Vec<u8>] {
    static SCANS: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    SCANS.get_or_init(|| {
        let half = DISTINCT_SCANS / 2;
        std::thread::scope(|scope| {
            let second =
                scope.spawn(|| (half..DISTINCT_SCANS).map(render_scan).collect::<Vec<_>>());
            let mut scans: Vec<Vec<u8>> = (0..half).map(render_scan).collect();
            scans.extend(second.join().unwrap_or_default());
            scans
        })
    })
}

/// Renders one page from `seed`: the same seed gives the same bytes.
pub fn render_scan(seed: u64) -> Vec<u8> {
    let mut jpeg = Vec::new();
    JpegEncoder::new_with_quality(&mut jpeg, 72)
        .encode_image(&render_page(seed))
        .expect("encoding an in-memory grey image as JPEG cannot fail");
    jpeg
}

/// The page of `seed` as a colour scanner at a higher resolution gives it:
/// `width` × `height` RGB, slightly tinted paper. For the benchmarks of large scans
/// (a 12-megapixel page is 3000 × 4000).
pub fn render_colour_scan_at(seed: u64, width: u32, height: u32) -> Vec<u8> {
    let page = image::imageops::resize(
        &render_page(seed),
        width,
        height,
        image::imageops::FilterType::Triangle,
    );
    let colour = image::RgbImage::from_fn(width, height, |x, y| {
        let value = page.get_pixel(x, y).0[0];
        image::Rgb([value, value, value.saturating_sub(6)])
    });
    let mut jpeg = Vec::new();
    JpegEncoder::new_with_quality(&mut jpeg, 85)
        .encode_image(&colour)
        .expect("encoding an in-memory image as JPEG cannot fail");
    jpeg
}

fn render_page(seed: u64) -> GrayImage {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut page = GrayImage::new(SCAN_WIDTH, SCAN_HEIGHT);
    paper_grain(&mut page, rng.random());
    let margin = 90.0;
    draw_hollow_rect_mut(
        &mut page,
        Rect::at(90, 80).of_size(SCAN_WIDTH - 180, 110),
        Luma([120]),
    );
    draw_pen_line(&mut page, &mut rng, 120.0, 150.0, 520.0);
    let line_gap = 52.0;
    let mut baseline = 280.0;
    let lines = rng.random_range(12..24);
    for line in 0..26 {
        let y = baseline;
        draw_line_segment_mut(
            &mut page,
            (margin, y + 4.0),
            (SCAN_WIDTH as f32 - margin, y + 4.0),
            Luma([196]),
        );
        if line < lines {
            let end = if line + 1 == lines {
                rng.random_range(300.0..900.0)
            } else {
                SCAN_WIDTH as f32 - margin - 40.0
            };
            draw_pen_line(&mut page, &mut rng, margin + 10.0, y, end);
        }
        baseline += line_gap;
    }
    page
}

/// Paper grain: every pixel a light grey from 228 to 241. A small generator of its
/// own (xorshift), four pixels a draw: the page has 2.2 million pixels, and a call
/// of the seeded generator for each took most of a page's time in a debug build.
fn paper_grain(page: &mut GrayImage, seed: u64) {
    let mut state = seed | 1;
    for chunk in page.as_mut().chunks_mut(4) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        for (pixel, byte) in chunk.iter_mut().zip(state.to_le_bytes()) {
            *pixel = 228 + byte % 14;
        }
    }
}

/// Writes a line of "words": joined loops of varying height, like cursive script.
fn draw_pen_line(page: &mut GrayImage, rng: &mut ChaCha8Rng, start: f32, baseline: f32, end: f32) {
    let ink = Luma([rng.random_range(30..70u8)]);
    let mut x = start;
    while x < end {
        let letters = rng.random_range(2..9);
        let mut previous = (x, baseline);
        let mut phase: f32 = 0.0;
        for _ in 0..letters {
            let height = if rng.random_bool(0.2) {
                rng.random_range(26.0..34.0)
            } else {
                rng.random_range(10.0..18.0)
            };
            let width = rng.random_range(9.0..16.0);
            for step in 1..=8 {
                phase += std::f32::consts::PI / 8.0;
                let point = (
                    x + width * step as f32 / 8.0,
                    baseline - height * phase.sin().abs(),
                );
                for offset in [0.0, 1.0] {
                    draw_line_segment_mut(
                        page,
                        (previous.0 + offset, previous.1),
                        (point.0 + offset, point.1),
                        ink,
                    );
                }
                previous = point;
            }
            x += width;
        }
        x += rng.random_range(14.0..30.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scan_decodes_as_a_jpeg_of_the_stated_size() {
        let bytes = render_scan(1);
        let decoded = image::load_from_memory(&bytes).unwrap();
        assert_eq!(
            (decoded.width(), decoded.height()),
            (SCAN_WIDTH, SCAN_HEIGHT)
        );
        assert!(
            bytes.len() > 50_000,
            "a page of grain and ink is not tiny: {}",
            bytes.len()
        );
    }

    #[test]
    fn the_same_seed_draws_the_same_page() {
        assert_eq!(render_scan(3), render_scan(3));
        assert_ne!(render_scan(3), render_scan(4));
    }

    #[test]
    fn a_large_colour_scan_has_the_size_and_colour_asked_for() {
        let bytes = render_colour_scan_at(2, 600, 800);
        let decoded = image::load_from_memory(&bytes).unwrap();
        assert_eq!((decoded.width(), decoded.height()), (600, 800));
        assert_eq!(decoded.color(), image::ColorType::Rgb8);
    }
}
