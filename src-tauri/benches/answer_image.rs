//! `cargo bench -p scoredesk-desktop --bench answer_image`: how long the Rust side
//! takes to turn a 12-megapixel scanned answer (4000 × 3000 JPEG) into the image the
//! scoring view shows. Prints the median and the slowest of 20 runs; the figures are
//! in docs/benchmarks.md.

use std::time::Instant;

use image::{ImageFormat, Rgb, RgbImage};

/// A page-like 12-megapixel JPEG: paper noise and dark strokes, so that the encoder
/// and decoder have real detail to work on.
fn scan() -> Vec<u8> {
    let mut page = RgbImage::from_pixel(4000, 3000, Rgb([236, 236, 230]));
    let mut state: u32 = 12345;
    for (x, y, pixel) in page.enumerate_pixels_mut() {
        state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
        let noise = (state >> 24) as u8 % 12;
        let stroke = (y % 60 < 4 && (x / 7 + y / 60) % 9 != 0) || (x % 311 < 3 && y % 60 < 40);
        let value = if stroke { 40 + noise } else { 230 + noise };
        *pixel = Rgb([value, value, value.saturating_sub(4)]);
    }
    let mut bytes = Vec::new();
    page.write_to(&mut std::io::Cursor::new(&mut bytes), ImageFormat::Jpeg)
        .expect("the scan encodes");
    bytes
}

fn main() {
    let bytes = scan();
    println!("scan: 4000 x 3000 JPEG, {} KB", bytes.len() / 1024);
    let mut times = Vec::new();
    for _ in 0..20 {
        let started = Instant::now();
        let shown = scoredesk_desktop::scoring::for_display(&bytes).expect("it decodes");
        times.push(started.elapsed().as_secs_f64() * 1000.0);
        assert_eq!(shown.width, 1600);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "for_display: median {:.1} ms, slowest {:.1} ms (20 runs)",
        times[times.len() / 2],
        times[times.len() - 1]
    );
}
