//! Scanned answers for the screen. A 12-megapixel scan is far larger than the view,
//! so it is decoded and scaled down here, on the Rust side, and the UI gets a JPEG
//! that fits the screen; the full image is sent only when the scorer zooms in.

use base64::Engine;
use image::imageops::FilterType;
use image::{DynamicImage, ImageFormat};
use ts_rs::TS;

/// The longest side of the image shown before zooming in, in pixels.
pub const DISPLAY_SIDE: u32 = 1100;

/// The largest scan decoded, in pixels: an A3 page at 600 dpi is 70 megapixels. A
/// file that claims more (a few hundred bytes can claim 65535 × 65535) is refused
/// before any pixel memory is asked for.
pub const MAX_PIXELS: u64 = 100_000_000;

/// The most memory one decode may ask for, in bytes.
const MAX_DECODE_BYTES: u64 = 768 * 1024 * 1024;

/// An image ready for an `<img src>`.
#[derive(Debug, Clone, serde::Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct ShownImage {
    pub data_url: String,
    pub width: u32,
    pub height: u32,
    /// The scan's own size: more detail is there when this is larger.
    pub full_width: u32,
    pub full_height: u32,
}

/// Decodes a scan and scales it to fit [`DISPLAY_SIDE`] (smaller ones are re-encoded
/// as they are).
pub fn for_display(bytes: &[u8]) -> Result<ShownImage, String> {
    let (image, (full_width, full_height)) = match scaled_jpeg(bytes)? {
        Some(decoded) => decoded,
        None => {
            let image = decode_limited(bytes)?;
            let size = (image.width(), image.height());
            (image, size)
        }
    };
    let shown = if full_width.max(full_height) > DISPLAY_SIDE {
        // Triangle (bilinear) is several times faster than Lanczos at this ratio and
        // the difference does not show on a handwritten page.
        image.resize(DISPLAY_SIDE, DISPLAY_SIDE, FilterType::Triangle)
    } else {
        image
    };
    let mut jpeg = Vec::new();
    DynamicImage::ImageRgb8(shown.to_rgb8())
        .write_to(&mut std::io::Cursor::new(&mut jpeg), ImageFormat::Jpeg)
        .map_err(|e| format!("The scanned answer could not be prepared: {e}"))?;
    Ok(ShownImage {
        data_url: data_url("image/jpeg", &jpeg),
        width: shown.width(),
        height: shown.height(),
        full_width,
        full_height,
    })
}

/// A decoded image and the scan's full size.
type Decoded = (DynamicImage, (u32, u32));

/// Refuses a scan that claims more than [`MAX_PIXELS`].
fn check_size(width: u64, height: u64) -> Result<(), String> {
    if width * height > MAX_PIXELS {
        return Err(format!(
            "The scanned answer claims to be {width} × {height} pixels, more than the {} megapixels the app opens; it may be damaged.",
            MAX_PIXELS / 1_000_000
        ));
    }
    Ok(())
}

/// Any image type, its size checked from its header first and decoded under
/// [`MAX_DECODE_BYTES`].
fn decode_limited(bytes: &[u8]) -> Result<DynamicImage, String> {
    let unreadable =
        |e: image::ImageError| format!("The scanned answer could not be read as an image: {e}");
    let reader = || {
        let mut reader = image::ImageReader::new(std::io::Cursor::new(bytes))
            .with_guessed_format()
            .map_err(|e| format!("The scanned answer could not be read as an image: {e}"))?;
        let mut limits = image::Limits::default();
        limits.max_alloc = Some(MAX_DECODE_BYTES);
        reader.limits(limits);
        Ok::<_, String>(reader)
    };
    let (width, height) = reader()?.into_dimensions().map_err(unreadable)?;
    check_size(u64::from(width), u64::from(height))?;
    reader()?.decode().map_err(unreadable)
}

/// A JPEG decoded straight to the smallest of 1/1, 1/2, 1/4 or 1/8 of its size that
/// still covers [`DISPLAY_SIDE`]: the decoder skips the detail the screen cannot show,
/// which is most of the work for a 12-megapixel scan. Returns the image and the
/// scan's full size; `Ok(None)` for anything that is not a plain RGB or grey JPEG
/// (the general decoder then tries), an error for one too large to open.
fn scaled_jpeg(bytes: &[u8]) -> Result<Option<Decoded>, String> {
    if !bytes.starts_with(&[0xFF, 0xD8]) {
        return Ok(None);
    }
    let mut decoder = jpeg_decoder::Decoder::new(bytes);
    // The header first: a progressive JPEG keeps coefficients for the whole claimed
    // size, so the claim is checked before a pixel is decoded.
    if decoder.read_info().is_err() {
        return Ok(None);
    }
    let Some(full) = decoder.info() else {
        return Ok(None);
    };
    check_size(u64::from(full.width), u64::from(full.height))?;
    decoder.set_max_decoding_buffer_size(MAX_DECODE_BYTES as usize);
    let side = DISPLAY_SIDE.min(u32::from(full.width.max(full.height))) as u16;
    let Ok((width, height)) = decoder.scale(side, side) else {
        return Ok(None);
    };
    let Ok(pixels) = decoder.decode() else {
        return Ok(None);
    };
    let (width, height) = (u32::from(width), u32::from(height));
    let image = match decoder.info().map(|info| info.pixel_format) {
        Some(jpeg_decoder::PixelFormat::RGB24) => {
            image::RgbImage::from_raw(width, height, pixels).map(DynamicImage::ImageRgb8)
        }
        Some(jpeg_decoder::PixelFormat::L8) => {
            image::GrayImage::from_raw(width, height, pixels).map(DynamicImage::ImageLuma8)
        }
        _ => None,
    };
    Ok(image.map(|image| (image, (u32::from(full.width), u32::from(full.height)))))
}

/// The scan as it is, for zooming in.
pub fn full_image(media_type: &str, bytes: &[u8]) -> String {
    data_url(media_type, bytes)
}

fn data_url(media_type: &str, bytes: &[u8]) -> String {
    format!(
        "data:{media_type};base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jpeg(width: u32, height: u32) -> Vec<u8> {
        let mut bytes = Vec::new();
        DynamicImage::new_rgb8(width, height)
            .write_to(&mut std::io::Cursor::new(&mut bytes), ImageFormat::Jpeg)
            .unwrap();
        bytes
    }

    #[test]
    fn a_large_scan_is_scaled_to_fit_and_keeps_its_proportions() {
        let shown = for_display(&jpeg(4000, 3000)).unwrap();
        assert_eq!((shown.width, shown.height), (1100, 825));
        assert_eq!((shown.full_width, shown.full_height), (4000, 3000));
        assert!(shown.data_url.starts_with("data:image/jpeg;base64,"));
    }

    /// A real progressive JPEG (made with Pillow), 320 × 240.
    const PROGRESSIVE: &[u8] = include_bytes!("../../tests/data/progressive-320x240.jpg");

    /// `bytes` with the size in its start-of-frame marker (SOF0 or SOF2) rewritten.
    fn claiming(mut bytes: Vec<u8>, width: u16, height: u16) -> Vec<u8> {
        let sof = bytes
            .windows(2)
            .position(|pair| pair == [0xFF, 0xC0] || pair == [0xFF, 0xC2])
            .expect("a JPEG has a start-of-frame marker");
        bytes[sof + 5..sof + 7].copy_from_slice(&height.to_be_bytes());
        bytes[sof + 7..sof + 9].copy_from_slice(&width.to_be_bytes());
        bytes
    }

    /// The error of a scan that must be refused (the picture is never printed: a
    /// failure message would carry megabytes of data URL).
    fn refused(bytes: &[u8], what: &str) -> String {
        match for_display(bytes) {
            Ok(shown) => panic!(
                "{what}: opened as {} × {} instead of being refused",
                shown.full_width, shown.full_height
            ),
            Err(error) => error,
        }
    }

    /// Either a picture that fits the view or an error in words; never a panic.
    fn shown_or_refused(bytes: &[u8], what: &str) {
        match for_display(bytes) {
            Ok(shown) => assert!(shown.width.max(shown.height) <= DISPLAY_SIDE, "{what}"),
            Err(error) => assert!(error.contains("scanned answer"), "{what}: {error}"),
        }
    }

    #[test]
    fn a_real_progressive_scan_opens() {
        let shown = for_display(PROGRESSIVE).unwrap();
        assert_eq!((shown.full_width, shown.full_height), (320, 240));
    }

    #[test]
    fn hostile_scans_are_refused_with_words_and_never_abort_the_app() {
        for (name, bytes) in [
            ("baseline", jpeg(16, 16)),
            ("progressive", PROGRESSIVE.to_vec()),
        ] {
            let error = refused(&claiming(bytes.clone(), 65535, 65535), name);
            assert!(error.contains("65535 × 65535"), "{name}: {error}");
            // Within the limit, but no data behind the claim.
            shown_or_refused(&claiming(bytes, 4000, 4000), name);
        }
        for (name, whole) in [
            ("baseline", jpeg(800, 600)),
            ("progressive", PROGRESSIVE.to_vec()),
        ] {
            for cut in [2, 20, whole.len() / 3, whole.len() - 10] {
                shown_or_refused(&whole[..cut], &format!("{name} cut at {cut}"));
            }
        }
        // A PNG that claims a huge size goes through the general decoder's check.
        let mut png = Vec::new();
        DynamicImage::new_rgb8(4, 4)
            .write_to(&mut std::io::Cursor::new(&mut png), ImageFormat::Png)
            .unwrap();
        png[16..20].copy_from_slice(&60_000u32.to_be_bytes());
        png[20..24].copy_from_slice(&60_000u32.to_be_bytes());
        // The header's checksum, so that only the size is a lie.
        let crc = crc32fast::hash(&png[12..29]);
        png[29..33].copy_from_slice(&crc.to_be_bytes());
        let error = refused(&png, "png");
        assert!(error.contains("60000 × 60000"), "{error}");
    }

    #[test]
    fn a_small_scan_keeps_its_size_and_junk_is_a_readable_error() {
        let shown = for_display(&jpeg(800, 600)).unwrap();
        assert_eq!((shown.width, shown.height), (800, 600));
        let error = refused(b"not an image", "junk");
        assert!(error.contains("could not be read"), "{error}");
    }
}
