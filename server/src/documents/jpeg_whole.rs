//! Whether a JPEG is whole. The `image` crate's decoder (zune-jpeg, lenient by
//! default) fills whatever is missing with grey: a truncated file, one with its
//! headers only, or one whose scan data is noise all "decode". A scorer would then
//! mark a grey rectangle. So a JPEG is walked marker by marker first (it must end
//! with its end-of-image marker, and hold at least a bit of scan data for every
//! 8 × 8 block it claims: no JPEG codes a block in less), then decoded in
//! zune-jpeg's strict mode, which refuses bad Huffman codes and exhausted data.

use zune_core::bytestream::ZCursor;
use zune_core::options::DecoderOptions;
use zune_jpeg::JpegDecoder;

const EOI: u8 = 0xD9;
const SOS: u8 = 0xDA;

/// `Ok` for a whole JPEG; otherwise what is wrong with it, as a phrase that
/// follows the field's name ("… ends before its end-of-image marker").
pub fn check(data: &[u8], max_pixels: u64) -> Result<(), String> {
    let (width, height, scan_bytes) = walk(data)?;
    let blocks = u64::from(width.div_ceil(8)) * u64::from(height.div_ceil(8));
    if scan_bytes * 8 < blocks {
        return Err(format!(
            "holds {scan_bytes} bytes of image data, too few for {width} × {height} pixels"
        ));
    }
    let options = DecoderOptions::default()
        .set_strict_mode(true)
        .set_max_width(width as usize)
        .set_max_height(height as usize);
    let pixels = u64::from(width) * u64::from(height);
    if pixels > max_pixels {
        return Err(format!(
            "is {width} × {height} pixels; at most {max_pixels} pixels are accepted"
        ));
    }
    JpegDecoder::new_with_options(ZCursor::new(data), options)
        .decode()
        .map(drop)
        .map_err(|e| format!("does not decode: {e:?}"))
}

/// The frame's width and height and the bytes of entropy-coded data, once every
/// segment is found whole and the end-of-image marker after the last scan.
fn walk(data: &[u8]) -> Result<(u32, u32, u64), String> {
    if !data.starts_with(&[0xFF, 0xD8]) {
        return Err("does not begin as a JPEG does".into());
    }
    let truncated = || "ends before its end-of-image marker: the file is cut short".to_owned();
    let mut at = 2;
    let mut frame = None;
    let mut scan_bytes = 0u64;
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
        if is_frame(marker) {
            let [_, h1, h0, w1, w0, ..] = *segment else {
                return Err("has a frame header too short to name its size".into());
            };
            frame = Some((u16::from_be_bytes([w1, w0]), u16::from_be_bytes([h1, h0])));
        }
        at += length;
        if marker == SOS {
            let (bytes, next) = entropy_coded(data, at).ok_or_else(truncated)?;
            scan_bytes += bytes as u64;
            at = next;
        }
    }
    let (width, height) = frame.ok_or("has no frame header")?;
    if scan_bytes == 0 {
        return Err("has no image data".into());
    }
    if width == 0 || height == 0 {
        return Err(format!("claims {width} × {height} pixels"));
    }
    Ok((u32::from(width), u32::from(height), scan_bytes))
}

/// SOF0 to SOF15, but not DHT (C4), JPG (C8) or DAC (CC).
fn is_frame(marker: u8) -> bool {
    (0xC0..=0xCF).contains(&marker) && !matches!(marker, 0xC4 | 0xC8 | 0xCC)
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
    fn a_whole_jpeg_passes() {
        assert_eq!(check(&jpeg(300, 200), MAX), Ok(()));
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
            assert!(
                error.contains("cut short") || error.contains("does not decode"),
                "{cut}: {error}"
            );
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
        let whole = jpeg(640, 480);
        let start = scan_start(&whole);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(31);
        for round in 0..20 {
            let mut noisy = whole.clone();
            for byte in &mut noisy[start..whole.len() - 2] {
                *byte = rng.random_range(0..0xFF);
            }
            assert!(check(&noisy, MAX).is_err(), "round {round}");
        }
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
