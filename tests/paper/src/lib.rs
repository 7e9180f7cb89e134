//! Paper for the answer-sheet tests: a batch's sheets printed by headless Chromium
//! to PDF and rasterised at 300 dpi (pdftoppm), the way a coordinator prints them;
//! then pencil on them (full, partial, light, erased, re-marked), handwriting in the
//! essay frames, and a scanner's damage (rotation, shift, scale, blur, noise, JPEG,
//! 150 dpi, colour, upside down). Deterministic: every choice comes from a seed.

use std::io::Cursor;
use std::path::Path;
use std::process::Command;

use image::{imageops, DynamicImage, GrayImage, ImageFormat, Luma, Rgb, RgbImage};
use imageproc::filter::gaussian_blur_f32;
use imageproc::geometric_transformations::{warp_into, Interpolation, Projection};
use imageproc::noise::gaussian_noise_mut;
/// The random source and its methods, for the tests that draw with it.
pub use rand::Rng;
use rand::SeedableRng;
pub use rand_chacha::ChaCha8Rng;
use scoredesk_sheets::layout::{Point, Rect, BUBBLE_RADIUS};

pub mod pdf;
pub mod strokes;

/// The resolution pages are printed at; 150 dpi scans are made from them.
pub const PRINT_DPI: f32 = 300.0;
/// The scanner's lid, seen around the page, and how far the bed reaches beyond
/// the page on each side (millimetres).
const LID: u8 = 236;
const BED_MARGIN: f32 = 15.0;

pub fn px(mm: f32) -> f32 {
    mm * PRINT_DPI / 25.4
}

/// Runs headless Chromium with `args`, its profile in `dir`; fails the test when
/// it fails.
pub fn chromium(dir: &Path, args: &[&str]) {
    let output = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
        ])
        .arg(format!("--user-data-dir={}", dir.join("profile").display()))
        .args(args)
        .output()
        .expect("chromium runs (scripts/test installs it)");
    assert!(
        output.status.success(),
        "chromium: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The pages of the document at `url`, printed to PDF by Chromium and rasterised
/// in grey at 300 dpi, in order.
pub fn print_pages(url: &str, dir: &Path) -> Vec<GrayImage> {
    let pdf = dir.join("sheets.pdf");
    chromium(
        dir,
        &[
            &format!("--print-to-pdf={}", pdf.display()),
            "--no-pdf-header-footer",
            url,
        ],
    );
    let prefix = dir.join("page");
    let output = Command::new("pdftoppm")
        .args(["-r", "300", "-gray"])
        .arg(&pdf)
        .arg(&prefix)
        .output()
        .expect("pdftoppm runs (poppler-utils; scripts/test installs it)");
    assert!(
        output.status.success(),
        "pdftoppm: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("the directory")
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|e| e == "pgm"))
        .collect();
    // page-01.pgm, page-02.pgm, …: the same width of number throughout.
    files.sort();
    files
        .iter()
        .map(|path| image::open(path).expect("a PGM page").into_luma8())
        .collect()
}

/// What a pencil did to a bubble.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pencil {
    /// Filled, as the sheet asks.
    Full,
    /// Filled three quarters or more, a hurried mark.
    Partial,
    /// Filled lightly: ambiguous.
    Light,
    /// Filled, then rubbed out well: blank.
    Erased,
    /// Filled, then rubbed out badly: ambiguous.
    Smudged,
    /// A tick over the bubble.
    Tick,
    /// A cross over the bubble.
    Cross,
    /// A ring drawn round the bubble's letter.
    Circle,
    /// A cross, then rubbed out: blank.
    CrossErased,
}

impl Pencil {
    /// Whether a reader must take the bubble as marked (`Some(true)`), as blank
    /// (`Some(false)`), or must not decide (`None`).
    pub fn clear(self) -> Option<bool> {
        match self {
            Pencil::Full | Pencil::Partial | Pencil::Tick | Pencil::Cross | Pencil::Circle => {
                Some(true)
            }
            Pencil::Erased | Pencil::CrossErased => Some(false),
            Pencil::Light | Pencil::Smudged => None,
        }
    }
}

/// Pencil on the bubble centred at `center` (millimetres) of a 300 dpi page.
pub fn mark_bubble(page: &mut GrayImage, center: Point, pencil: Pencil, rng: &mut ChaCha8Rng) {
    let line = strokes::Line::random(rng);
    // Graphite's grey, and the share of the disc it covers.
    let (grey, cover, holes): (f32, f32, f64) = match pencil {
        Pencil::Tick => return strokes::tick(page, center, line, rng),
        Pencil::Cross => return strokes::cross(page, center, line, rng),
        Pencil::Circle => return strokes::circle(page, center, line, rng),
        Pencil::CrossErased => {
            let rubbed = line.rubbed_out(rng);
            return strokes::cross(page, center, rubbed, rng);
        }
        Pencil::Full => (rng.random_range(70.0..105.0), 1.0, 0.06),
        Pencil::Partial => (
            rng.random_range(70.0..100.0),
            rng.random_range(0.78..0.9),
            0.06,
        ),
        Pencil::Light => (rng.random_range(165.0..185.0), 1.0, 0.1),
        Pencil::Erased => (rng.random_range(228.0..238.0), 1.05, 0.2),
        Pencil::Smudged => (rng.random_range(180.0..195.0), 1.05, 0.15),
    };
    let radius = px(BUBBLE_RADIUS - 0.1);
    let (cx, cy) = (px(center.x), px(center.y));
    // A partial mark leaves a side of the disc bare.
    let angle: f32 = rng.random_range(0.0..std::f32::consts::TAU);
    let (ax, ay) = (angle.cos(), angle.sin());
    let reach = radius * (2.0 * cover - 1.0);
    let r = radius * cover.max(1.0);
    for y in (cy - r).floor() as i32..=(cy + r).ceil() as i32 {
        for x in (cx - r).floor() as i32..=(cx + r).ceil() as i32 {
            let (dx, dy) = (x as f32 - cx, y as f32 - cy);
            if dx.hypot(dy) > r || dx * ax + dy * ay > reach || rng.random_bool(holes) {
                continue;
            }
            let (Ok(x), Ok(y)) = (u32::try_from(x), u32::try_from(y)) else {
                continue;
            };
            if let Some(pixel) = page.get_pixel_mut_checked(x, y) {
                let value = grey + rng.random_range(-18.0..18.0);
                // Graphite darkens; it does not lighten what is printed.
                pixel.0[0] = pixel.0[0].min(value.clamp(0.0, 255.0) as u8);
            }
        }
    }
}

/// A pencil cross (×) centred at `center` (millimetres) of a 300 dpi page: two
/// strokes of 3.5 to 5 mm arms, tilted a little either way, about 0.4 mm wide,
/// graphite grey with its grain: what a participant marks a place with.
pub fn mark_cross(page: &mut GrayImage, center: Point, rng: &mut ChaCha8Rng) {
    let arm = rng.random_range(1.75..2.5);
    let tilt: f32 = rng.random_range(-0.25..0.25);
    let grey: f32 = rng.random_range(70.0..105.0);
    for stroke in [std::f32::consts::FRAC_PI_4, -std::f32::consts::FRAC_PI_4] {
        let angle = stroke + tilt;
        let (dx, dy) = (angle.cos(), angle.sin());
        let steps = (px(2.0 * arm) * 2.0) as i32;
        for step in 0..=steps {
            let t = -arm + 2.0 * arm * step as f32 / steps as f32;
            for (nx, ny) in NIB {
                let x = px(center.x + t * dx + nx);
                let y = px(center.y + t * dy + ny);
                if rng.random_bool(0.08) || x < 0.0 || y < 0.0 {
                    continue;
                }
                if let Some(pixel) = page.get_pixel_mut_checked(x as u32, y as u32) {
                    let value = grey + rng.random_range(-18.0..18.0);
                    pixel.0[0] = pixel.0[0].min(value.clamp(0.0, 255.0) as u8);
                }
            }
        }
    }
}

/// The points a pen's tip covers around its centre, in millimetres.
const NIB: [(f32, f32); 9] = [
    (-0.15, -0.15),
    (0.0, -0.15),
    (0.15, -0.15),
    (-0.15, 0.0),
    (0.0, 0.0),
    (0.15, 0.0),
    (-0.15, 0.15),
    (0.0, 0.15),
    (0.15, 0.15),
];

/// Handwriting in `frame` (millimetres): lines of cursive-like strokes over its
/// upper part; returns the centre of the ink, in millimetres, to check the crop by.
pub fn write_essay(page: &mut GrayImage, frame: Rect, rng: &mut ChaCha8Rng) -> Point {
    let lines = ((frame.height - 12.0) / 9.0).clamp(1.0, 5.0) as usize;
    let (mut sum_x, mut sum_y, mut count) = (0.0, 0.0, 0.0);
    for line in 0..lines {
        let baseline = frame.y + 8.0 + 9.0 * line as f32;
        let mut x = frame.x + 6.0;
        let end = frame.x + frame.width - rng.random_range(10.0..60.0);
        while x < end {
            // A word: a wavy stroke 8 to 25 mm long, kept inside the frame.
            let length: f32 = rng.random_range(8.0f32..25.0).min(end - x);
            let phase: f32 = rng.random_range(0.0..6.0);
            let mut t = 0.0;
            while t < length {
                let (wx, wy) = (x + t, baseline - 1.6 * ((t * 2.2 + phase).sin() + 1.0));
                // A pen's line, about 0.4 mm wide.
                for (ox, oy) in NIB {
                    let (Ok(px_x), Ok(px_y)) = (
                        u32::try_from(px(wx + ox) as i64),
                        u32::try_from(px(wy + oy) as i64),
                    ) else {
                        continue;
                    };
                    if let Some(pixel) = page.get_pixel_mut_checked(px_x, px_y) {
                        pixel.0[0] = pixel.0[0].min(rng.random_range(45..110));
                    }
                }
                sum_x += wx;
                sum_y += wy;
                count += 1.0;
                t += 0.05;
            }
            x += length + rng.random_range(3.0..6.0);
        }
    }
    Point {
        x: sum_x / count,
        y: sum_y / count,
    }
}

/// What the scanner did to a page.
#[derive(Debug, Clone, Copy)]
pub struct Damage {
    pub degrees: f32,
    /// Millimetres.
    pub shift: (f32, f32),
    pub scale: f32,
    pub blur: f32,
    pub noise: f64,
    pub dpi: f32,
    pub upside_down: bool,
    pub colour: bool,
    pub format: ScanFormat,
    /// Uneven light: the scan's top row is this much darker (0.5: half as
    /// bright), the light rising evenly to the bottom row.
    pub shade: f32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScanFormat {
    Png,
    Jpeg(u8),
    Tiff,
}

impl Damage {
    /// Random damage within a scanner's bounds (5 degrees, 6 mm, 4 %), the page
    /// always whole on the bed; one page in five unevenly lit (a shade of 0.1 to
    /// 0.5 from the top).
    pub fn random(rng: &mut ChaCha8Rng, dpi: f32) -> Damage {
        let format = match rng.random_range(0..10) {
            0..=4 => ScanFormat::Jpeg(rng.random_range(60..92)),
            5 => ScanFormat::Tiff,
            _ => ScanFormat::Png,
        };
        Damage {
            degrees: rng.random_range(-5.0..5.0),
            shift: (rng.random_range(-6.0..6.0), rng.random_range(-6.0..6.0)),
            scale: rng.random_range(0.96..1.04),
            blur: rng.random_range(0.4..1.3),
            noise: rng.random_range(2.0..8.0),
            dpi,
            upside_down: rng.random_bool(0.15),
            colour: rng.random_bool(0.2),
            format,
            shade: if rng.random_bool(0.2) {
                rng.random_range(0.1..0.5)
            } else {
                0.0
            },
        }
    }
}

/// The page as the scanner hands it over, as a file's bytes.
pub fn scan(page: &GrayImage, damage: Damage, seed: u64) -> Vec<u8> {
    let factor = damage.dpi / PRINT_DPI;
    let page = if (factor - 1.0).abs() > f32::EPSILON {
        let (w, h) = page.dimensions();
        imageops::resize(
            page,
            (w as f32 * factor) as u32,
            (h as f32 * factor) as u32,
            imageops::FilterType::Triangle,
        )
    } else {
        page.clone()
    };
    let mm = damage.dpi / 25.4;
    // The scanner's bed is larger than the page: a margin of lid around it, so that
    // a turned page keeps its corners.
    let margin = (BED_MARGIN * mm).round() as u32;
    let (w, h) = (page.width() + 2 * margin, page.height() + 2 * margin);
    let (cx, cy) = (page.width() as f32 / 2.0, page.height() as f32 / 2.0);
    let moved = Projection::translate(
        cx + margin as f32 + damage.shift.0 * mm,
        cy + margin as f32 + damage.shift.1 * mm,
    ) * Projection::rotate(damage.degrees.to_radians())
        * Projection::scale(damage.scale, damage.scale)
        * Projection::translate(-cx, -cy);
    let mut bed = GrayImage::new(w, h);
    warp_into(
        &page,
        &moved,
        Interpolation::Bilinear,
        Luma([LID]),
        &mut bed,
    );
    let mut page = bed;
    if damage.blur > 0.0 {
        page = gaussian_blur_f32(&page, damage.blur);
    }
    if damage.shade > 0.0 {
        for (_, y, pixel) in page.enumerate_pixels_mut() {
            let light = 1.0 - damage.shade * (1.0 - y as f32 / h as f32);
            pixel.0[0] = (f32::from(pixel.0[0]) * light) as u8;
        }
    }
    gaussian_noise_mut(&mut page, 0.0, damage.noise, seed);
    if damage.upside_down {
        page = imageops::rotate180(&page);
    }
    let image = if damage.colour {
        // Slightly cream paper under a colour scanner.
        DynamicImage::ImageRgb8(RgbImage::from_fn(w, h, |x, y| {
            let g = f32::from(page.get_pixel(x, y).0[0]);
            Rgb([g as u8, (g * 0.98) as u8, (g * 0.92) as u8])
        }))
    } else {
        DynamicImage::ImageLuma8(page)
    };
    let mut bytes = Vec::new();
    match damage.format {
        ScanFormat::Png => image.write_to(&mut Cursor::new(&mut bytes), ImageFormat::Png),
        ScanFormat::Tiff => image.write_to(&mut Cursor::new(&mut bytes), ImageFormat::Tiff),
        ScanFormat::Jpeg(quality) => {
            let encoder = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, quality);
            image.write_with_encoder(encoder)
        }
    }
    .expect("the scan encodes");
    bytes
}

/// A seeded random source.
pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}
