//! `cargo bench -p scoredesk-desktop --bench answer_image`: how long the Rust side
//! takes to turn a 12-megapixel scanned answer (3000 × 4000 colour JPEG) into the image the
//! scoring view shows. Prints the median and the slowest of 20 runs; the figures are
//! in docs/benchmarks.md.

use std::time::Instant;

fn main() {
    // The demo's handwritten page as a colour scanner gives it at 12 megapixels.
    let bytes = scoredesk_server::seed::scans::render_colour_scan_at(1, 3000, 4000);
    println!("scan: 3000 x 4000 colour JPEG, {} KB", bytes.len() / 1024);
    let mut times = Vec::new();
    for _ in 0..20 {
        let started = Instant::now();
        let shown = scoredesk_desktop::scoring::for_display(&bytes).expect("it decodes");
        times.push(started.elapsed().as_secs_f64() * 1000.0);
        assert_eq!(shown.width.max(shown.height), 1600);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "for_display: median {:.1} ms, slowest {:.1} ms (20 runs)",
        times[times.len() / 2],
        times[times.len() - 1]
    );
}
