//! Scanned answers for the screen. A 12-megapixel scan is far larger than the view,
//! so it is decoded and scaled down here, on the Rust side, and the UI gets a JPEG
//! that fits the screen; the full image is sent only when the scorer zooms in.

use base64::Engine;
use image::imageops::FilterType;
use image::{DynamicImage, ImageFormat};

/// The longest side of the image shown before zooming in, in pixels.
pub const DISPLAY_SIDE: u32 = 1600;

/// An image ready for an `<img src>`.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
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
    let (image, (full_width, full_height)) = match scaled_jpeg(bytes) {
        Some(decoded) => decoded,
        None => {
            let image = image::load_from_memory(bytes)
                .map_err(|e| format!("The scanned answer could not be read as an image: {e}"))?;
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

/// A JPEG decoded straight to the smallest of 1/1, 1/2, 1/4 or 1/8 of its size that
/// still covers [`DISPLAY_SIDE`]: the decoder skips the detail the screen cannot show,
/// which is most of the work for a 12-megapixel scan. Returns the image and the
/// scan's full size; `None` for anything that is not a plain RGB or grey JPEG.
fn scaled_jpeg(bytes: &[u8]) -> Option<(DynamicImage, (u32, u32))> {
    if !bytes.starts_with(&[0xFF, 0xD8]) {
        return None;
    }
    let mut decoder = jpeg_decoder::Decoder::new(bytes);
    decoder.read_info().ok()?;
    let full = decoder.info()?;
    let side = DISPLAY_SIDE.min(u32::from(full.width.max(full.height))) as u16;
    let (width, height) = decoder.scale(side, side).ok()?;
    let pixels = decoder.decode().ok()?;
    let (width, height) = (u32::from(width), u32::from(height));
    let image = match decoder.info()?.pixel_format {
        jpeg_decoder::PixelFormat::RGB24 => {
            DynamicImage::ImageRgb8(image::RgbImage::from_raw(width, height, pixels)?)
        }
        jpeg_decoder::PixelFormat::L8 => {
            DynamicImage::ImageLuma8(image::GrayImage::from_raw(width, height, pixels)?)
        }
        _ => return None,
    };
    Some((image, (u32::from(full.width), u32::from(full.height))))
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
        assert_eq!((shown.width, shown.height), (1600, 1200));
        assert_eq!((shown.full_width, shown.full_height), (4000, 3000));
        assert!(shown.data_url.starts_with("data:image/jpeg;base64,"));
    }

    #[test]
    fn a_small_scan_keeps_its_size_and_junk_is_a_readable_error() {
        let shown = for_display(&jpeg(800, 600)).unwrap();
        assert_eq!((shown.width, shown.height), (800, 600));
        let error = for_display(b"not an image").unwrap_err();
        assert!(error.contains("could not be read"), "{error}");
    }
}
