//! Whether a JPEG is whole. The `image` crate's decoder (zune-jpeg, lenient by
//! default) fills whatever is missing with grey: a truncated file, one with its
//! headers only, or one whose scan data is noise all "decode", and a scorer would
//! then mark a grey or noisy rectangle. So a JPEG is first walked marker by marker:
//! - it must end with its end-of-image marker, every segment whole;
//! - it must hold at least a bit of scan data for every 8 × 8 block it claims (no
//!   JPEG codes a block in less);
//! - a baseline JPEG's scans are Huffman-decoded block by block
//!   ([`jpeg_scan`](super::jpeg_scan)): every code must be one of its tables, and
//!   the blocks must use up the scan data, neither running past it nor leaving
//!   bytes over, which noise in place of the data never does;
//!
//! a file whose scans were not all accounted for (progressive, or naming tables it
//! leaves to the decoder's defaults) is then decoded in zune-jpeg's strict mode,
//! which refuses bad codes and exhausted data.

use std::ops::Range;

use zune_core::bytestream::ZCursor;
use zune_core::options::DecoderOptions;
use zune_jpeg::JpegDecoder;

use super::jpeg_scan::{self, Component, Scan};

const EOI: u8 = 0xD9;
const SOS: u8 = 0xDA;
const DHT: u8 = 0xC4;
const DRI: u8 = 0xDD;
const DQT: u8 = 0xDB;

/// What the walk found: the frame, the tables as they stood at each scan, and
/// where each scan's entropy-coded data lies.
struct Walked {
    width: u16,
    height: u16,
    components: Vec<Component>,
    /// Each scan, read when it can be accounted for (see `check`), and its data.
    scans: Vec<(Option<Scan>, Range<usize>)>,
}

/// `Ok` for a whole JPEG; otherwise what is wrong with it, as a phrase that
/// follows the field's name ("… ends before its end-of-image marker").
pub fn check(data: &[u8], max_pixels: u64) -> Result<(), String> {
    let walked = walk(data)?;
    let (width, height) = (u32::from(walked.width), u32::from(walked.height));
    let pixels = u64::from(width) * u64::from(height);
    if pixels > max_pixels {
        return Err(format!(
            "is {width} × {height} pixels; at most {max_pixels} pixels are accepted"
        ));
    }
    let scan_bytes: usize = walked.scans.iter().map(|(_, range)| range.len()).sum();
    let blocks = u64::from(width.div_ceil(8)) * u64::from(height.div_ceil(8));
    if (scan_bytes as u64) * 8 < blocks {
        return Err(format!(
            "holds {scan_bytes} bytes of image data, too few for {width} × {height} pixels"
        ));
    }
    for (scan, range) in &walked.scans {
        if let Some(scan) = scan {
            let data = &data[range.clone()];
            jpeg_scan::account(data, scan, &walked.components, width, height)?;
        }
    }
    // A baseline file accounted for block by block is whole; decoding it would
    // only hold its picture (up to 160 MB) to learn nothing more.
    if walked.scans.iter().all(|(scan, _)| scan.is_some()) {
        return Ok(());
    }
    let options = DecoderOptions::default()
        .set_strict_mode(true)
        .set_max_width(width as usize)
        .set_max_height(height as usize);
    JpegDecoder::new_with_options(ZCursor::new(data), options)
        .decode()
        .map(drop)
        .map_err(|e| format!("does not decode: {e:?}"))
}

fn truncated() -> String {
    "ends before its end-of-image marker: the file is cut short".to_owned()
}

/// Every segment found whole and the end-of-image marker after the last scan.
fn walk(data: &[u8]) -> Result<Walked, String> {
    if !data.starts_with(&[0xFF, 0xD8]) {
        return Err("does not begin as a JPEG does".into());
    }
    let mut at = 2;
    let mut frame: Option<(u16, u16, bool, Vec<Component>)> = None;
    let mut tables = jpeg_scan::Tables::default();
    let mut restart_interval = 0u16;
    // The quantisation tables defined, by ID: a frame naming another cannot decode.
    let mut quantisation = [false; 4];
    let mut scans = Vec::new();
    loop {
        if data.get(at) != Some(&0xFF) {
            return Err(match data.get(at) {
                None => truncated(),
                Some(_) => format!("has stray bytes at offset {at} where a marker belongs"),
            });
        }
        while data.get(at) == Some(&0xFF) {
            at += 1;
        }
        let marker = *data.get(at).ok_or_else(truncated)?;
        at += 1;
        match marker {
            EOI => break,
            0x01 | 0xD0..=0xD7 => continue,
            _ => {}
        }
        let length = data
            .get(at..at + 2)
            .map(|b| usize::from(u16::from_be_bytes([b[0], b[1]])))
            .ok_or_else(truncated)?;
        let segment = data
            .get(at + 2..at + length)
            .filter(|_| length >= 2)
            .ok_or_else(truncated)?;
        match marker {
            // A second frame would leave the scans read against the first one's
            // components (the fuzz target `image` found it); a file is one image.
            _ if is_frame(marker) && frame.is_some() => {
                return Err("has a second frame header: a JPEG file holds one image".into());
            }
            _ if is_frame(marker) => frame = Some(read_frame(marker, segment)?),
            DHT => tables.read(segment)?,
            DQT => read_quantisation(segment, &mut quantisation)?,
            DRI => {
                let [high, low, ..] = *segment else {
                    return Err("has a restart interval segment too short to hold one".into());
                };
                restart_interval = u16::from_be_bytes([high, low]);
            }
            _ => {}
        }
        at += length;
        if marker == SOS {
            // Only a baseline scan is accounted for; one that names a table never
            // defined (Motion JPEG leaves the standard ones out) is left to the
            // strict decoder.
            let scan = match &frame {
                Some((_, _, true, components)) => {
                    Scan::read(segment, components, &tables, restart_interval).ok()
                }
                _ => None,
            };
            let (bytes, next) = entropy_coded(data, at).ok_or_else(truncated)?;
            scans.push((scan, at..at + bytes));
            at = next;
        }
    }
    let (width, height, _, components) = frame.ok_or("has no frame header")?;
    if components.iter().any(|c| {
        !quantisation
            .get(usize::from(c.quantisation))
            .copied()
            .unwrap_or(false)
    }) {
        return Err("has a component whose quantisation table is never defined".into());
    }
    if scans.iter().all(|(_, range)| range.is_empty()) {
        return Err("has no image data".into());
    }
    if width == 0 || height == 0 {
        return Err(format!("claims {width} × {height} pixels"));
    }
    Ok(Walked {
        width,
        height,
        components,
        scans,
    })
}

/// Reads a DQT segment: each table's precision and ID, then 64 values of one or
/// two bytes.
fn read_quantisation(mut segment: &[u8], defined: &mut [bool; 4]) -> Result<(), String> {
    while let [precision_and_id, ref rest @ ..] = *segment {
        let size = if precision_and_id >> 4 == 0 { 64 } else { 128 };
        let id = usize::from(precision_and_id & 0x0F);
        if rest.len() < size || id > 3 {
            return Err("has a quantisation table cut short or of no ID".into());
        }
        defined[id] = true;
        segment = &rest[size..];
    }
    Ok(())
}

/// SOF0 to SOF15, but not DHT (C4), JPG (C8) or DAC (CC).
fn is_frame(marker: u8) -> bool {
    (0xC0..=0xCF).contains(&marker) && !matches!(marker, DHT | 0xC8 | 0xCC)
}

/// A frame header: its size, whether it is baseline Huffman (SOF0, SOF1: the kind
/// whose blocks are accounted for), and its components with their sampling factors.
fn read_frame(marker: u8, segment: &[u8]) -> Result<(u16, u16, bool, Vec<Component>), String> {
    let short = || "has a frame header too short for what it claims".to_owned();
    let [_, h1, h0, w1, w0, count, ref rest @ ..] = *segment else {
        return Err(short());
    };
    let components = rest
        .get(..usize::from(count) * 3)
        .ok_or_else(short)?
        .chunks_exact(3)
        .map(|c| Component {
            id: c[0],
            horizontal: c[1] >> 4,
            vertical: c[1] & 0x0F,
            quantisation: c[2],
        })
        .collect::<Vec<_>>();
    if components.is_empty()
        || components
            .iter()
            .any(|c| !(1..=4).contains(&c.horizontal) || !(1..=4).contains(&c.vertical))
    {
        return Err("has a frame header with impossible components".into());
    }
    Ok((
        u16::from_be_bytes([w1, w0]),
        u16::from_be_bytes([h1, h0]),
        matches!(marker, 0xC0 | 0xC1),
        components,
    ))
}

/// The length of the scan data from `start` (stuffed bytes and restart markers
/// included), and where the next marker begins; `None` when the file ends first.
fn entropy_coded(data: &[u8], start: usize) -> Option<(usize, usize)> {
    let mut at = start;
    loop {
        let ff = at + data.get(at..)?.iter().position(|&b| b == 0xFF)?;
        match *data.get(ff + 1)? {
            0x00 | 0xD0..=0xD7 => at = ff + 2,
            // Fill bytes before a marker.
            0xFF => at = ff + 1,
            _ => return Some((ff - start, ff)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn jpeg(width: u32, height: u32) -> Vec<u8> {
        let image = image::RgbImage::from_fn(width, height, |x, y| {
            image::Rgb([
                (x * 7 % 251) as u8,
                (y * 3 % 251) as u8,
                ((x ^ y) % 251) as u8,
            ])
        });
        let mut bytes = Vec::new();
        image
            .write_to(&mut Cursor::new(&mut bytes), image::ImageFormat::Jpeg)
            .unwrap();
        bytes
    }

    fn scan_start(data: &[u8]) -> usize {
        let sos = data.windows(2).position(|w| w == [0xFF, SOS]).unwrap();
        sos + 2 + usize::from(u16::from_be_bytes([data[sos + 2], data[sos + 3]]))
    }

    const MAX: u64 = 40_000_000;

    #[test]
    fn a_whole_jpeg_passes_in_colour_and_in_grey() {
        assert_eq!(check(&jpeg(300, 200), MAX), Ok(()));
        assert_eq!(check(&jpeg(1, 1), MAX), Ok(()));
        assert_eq!(check(&jpeg(17, 9), MAX), Ok(()));
        let mut grey = Vec::new();
        image::GrayImage::from_fn(123, 77, |x, y| image::Luma([(x * y % 256) as u8]))
            .write_to(&mut Cursor::new(&mut grey), image::ImageFormat::Jpeg)
            .unwrap();
        assert_eq!(check(&grey, MAX), Ok(()));
    }

    #[test]
    fn a_truncated_jpeg_is_refused_wherever_it_is_cut() {
        let whole = jpeg(300, 200);
        for cut in [
            whole.len() - 1,
            whole.len() - 2,
            whole.len() - 40,
            whole.len() / 2,
            300,
            3,
        ] {
            let error = check(&whole[..cut], MAX).unwrap_err();
            assert!(error.contains("cut short"), "{cut}: {error}");
        }
    }

    #[test]
    fn headers_that_claim_a_large_image_without_its_data_are_refused() {
        let whole = jpeg(64, 64);
        let mut headers = whole[..scan_start(&whole)].to_vec();
        // Claim 6000 × 6666, as the probe's 198-byte file did.
        let sof = headers.windows(2).position(|w| w == [0xFF, 0xC0]).unwrap();
        headers[sof + 5..sof + 9].copy_from_slice(&[0x1A, 0x0A, 0x17, 0x70]);
        assert!(check(&headers, MAX).unwrap_err().contains("cut short"));
        headers.extend([0x12, 0x34, 0xFF, EOI]);
        let error = check(&headers, MAX).unwrap_err();
        assert!(
            error.contains("2 bytes of image data, too few for 6000 × 6666"),
            "{error}"
        );
    }

    #[test]
    fn noise_in_place_of_the_scan_data_is_refused() {
        use rand::{Rng, SeedableRng};
        for (width, height) in [(640, 480), (200, 150), (32, 32)] {
            let whole = jpeg(width, height);
            let start = scan_start(&whole);
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(31);
            for round in 0..50 {
                let mut noisy = whole.clone();
                for byte in &mut noisy[start..whole.len() - 2] {
                    *byte = rng.random_range(0..0xFF);
                }
                assert!(
                    check(&noisy, MAX).is_err(),
                    "{width} × {height}, round {round}"
                );
            }
        }
    }

    /// libjpeg-turbo's `cjpeg` (installed by scripts/test): every kind of JPEG it
    /// writes passes whole, and is refused cut short or with noise for its data.
    #[test]
    fn what_another_encoder_writes_passes_whole_and_fails_broken() {
        let (width, height) = (203, 151);
        let mut ppm = format!("P6\n{width} {height}\n255\n").into_bytes();
        for y in 0..height {
            for x in 0..width {
                ppm.extend([
                    (x * 7 % 251) as u8,
                    (y * 5 % 251) as u8,
                    ((x ^ y) % 251) as u8,
                ]);
            }
        }
        let variants: &[&[&str]] = &[
            &[],
            &["-quality", "30"],
            &["-quality", "100", "-sample", "1x1"],
            &["-sample", "2x1"],
            &["-sample", "4x1"],
            &["-restart", "1"],
            &["-restart", "3B"],
            &["-optimize"],
            &["-optimize", "-restart", "2", "-sample", "2x2"],
            &["-grayscale"],
            &["-grayscale", "-restart", "5B"],
            &["-progressive"],
            &["-progressive", "-grayscale"],
        ];
        for variant in variants {
            let mut cjpeg = std::process::Command::new("cjpeg")
                .args(*variant)
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .spawn()
                .expect("cjpeg (libjpeg-turbo-progs): run the tests with scripts/test");
            std::io::Write::write_all(&mut cjpeg.stdin.take().unwrap(), &ppm).unwrap();
            let jpeg = cjpeg.wait_with_output().unwrap().stdout;
            assert_eq!(check(&jpeg, MAX), Ok(()), "{variant:?}");
            let cut = check(&jpeg[..jpeg.len() * 7 / 10], MAX);
            assert!(cut.is_err(), "{variant:?} cut short");
            // Noise in place of the last scan's data (a progressive file's
            // refinements included).
            let sos = jpeg.windows(2).rposition(|w| w == [0xFF, SOS]).unwrap();
            let start = sos + 2 + usize::from(u16::from_be_bytes([jpeg[sos + 2], jpeg[sos + 3]]));
            let mut noisy = jpeg.clone();
            let mut state = 0x2545_F491_u32;
            for byte in &mut noisy[start..jpeg.len() - 2] {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                *byte = (state % 255) as u8;
            }
            if variant.contains(&"-progressive") {
                // A progressive file's last scan refines bits: noise there is
                // only a wrong picture, which no check short of looking can tell.
                continue;
            }
            assert!(check(&noisy, MAX).is_err(), "{variant:?} with noise");
        }
    }

    #[test]
    fn a_frame_without_its_quantisation_table_is_refused() {
        let whole = jpeg(32, 32);
        let dqt = whole.windows(2).position(|w| w == [0xFF, DQT]).unwrap();
        let length = usize::from(u16::from_be_bytes([whole[dqt + 2], whole[dqt + 3]]));
        let mut without = whole[..dqt].to_vec();
        without.extend_from_slice(&whole[dqt + 2 + length..]);
        // The encoder may write both tables in one segment or two.
        let error = check(&without, MAX).unwrap_err();
        assert!(error.contains("quantisation"), "{error}");
    }

    #[test]
    fn a_second_frame_header_is_refused() {
        let whole = jpeg(32, 32);
        let sof = whole.windows(2).position(|w| w == [0xFF, 0xC0]).unwrap();
        // A grey frame of one component after the colour one's scan.
        let grey = [0xFF, 0xC0, 0, 11, 8, 0, 32, 0, 32, 1, 1, 0x11, 0];
        assert_eq!(whole[sof + 9], 3, "a colour frame first");
        let mut twice = whole[..whole.len() - 2].to_vec();
        twice.extend_from_slice(&grey);
        twice.extend_from_slice(&whole[whole.len() - 2..]);
        let error = check(&twice, MAX).unwrap_err();
        assert!(error.contains("second frame"), "{error}");
    }

    #[test]
    fn stray_bytes_and_a_missing_frame_are_refused_by_what_is_wrong() {
        assert!(check(b"\xFF\xD8garbage", MAX)
            .unwrap_err()
            .contains("stray bytes"));
        assert!(check(b"\x89PNG", MAX).unwrap_err().contains("begin"));
        assert!(check(b"\xFF\xD8\xFF\xD9", MAX)
            .unwrap_err()
            .contains("no frame"));
    }
}
