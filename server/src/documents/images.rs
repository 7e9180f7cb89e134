//! Images clients send (an upload's `ImageResponse`): decoded with the `image`
//! crate before they are accepted, so that what a scorer opens is an image of the
//! type it claims, within the pixel limit, and whole. The dimensions are read from
//! the header first, so that a small file claiming a huge image (a decompression
//! bomb) is refused before any pixel is decoded.

use std::io::Cursor;

use image::{ImageFormat, ImageReader, Limits};

use crate::model::snapshot::limits::MAX_IMAGE_PIXELS;
use crate::model::upload::UploadError;

/// Whether `data` is a whole image of `media_type`; `field` names it in a refusal.
pub fn check(media_type: &str, data: &[u8], field: &str) -> Result<(), UploadError> {
    let refuse = |message: String| UploadError {
        field: field.to_owned(),
        message,
    };
    let claimed = ImageFormat::from_mime_type(media_type)
        .ok_or_else(|| refuse(format!("'{media_type}' is not an image type")))?;
    let reader = ImageReader::new(Cursor::new(data))
        .with_guessed_format()
        .map_err(|e| refuse(format!("cannot be read: {e}")))?;
    let actual = reader
        .format()
        .ok_or_else(|| refuse("is not an image".into()))?;
    if actual != claimed {
        return Err(refuse(format!(
            "is a {} image, not the {media_type} its MediaType says",
            actual.to_mime_type()
        )));
    }
    let (width, height) = reader
        .into_dimensions()
        .map_err(|e| refuse(format!("is not a whole image: {e}")))?;
    let pixels = u64::from(width) * u64::from(height);
    if pixels > MAX_IMAGE_PIXELS {
        return Err(refuse(format!(
            "is {width} × {height} pixels; at most {MAX_IMAGE_PIXELS} pixels are accepted"
        )));
    }
    match actual {
        ImageFormat::Jpeg => {
            return super::jpeg_whole::check(data, MAX_IMAGE_PIXELS).map_err(refuse)
        }
        ImageFormat::Png => return png_whole(data).map_err(refuse),
        _ => {}
    }
    let mut reader = ImageReader::with_format(Cursor::new(data), actual);
    let mut limits = Limits::default();
    limits.max_image_width = Some(width);
    limits.max_image_height = Some(height);
    limits.max_alloc = Some(MAX_IMAGE_PIXELS * 4);
    reader.limits(limits);
    reader
        .decode()
        .map_err(|e| refuse(format!("does not decode: {e}")))?;
    Ok(())
}

/// A PNG decoded row by row to its end (every chunk's CRC and the image data's
/// checksum included), holding one row at a time rather than the whole picture: a
/// small file may claim 40,000,000 pixels.
fn png_whole(data: &[u8]) -> Result<(), String> {
    let mut decoder = png::Decoder::new(Cursor::new(data));
    decoder.set_limits(png::Limits {
        bytes: usize::try_from(MAX_IMAGE_PIXELS * 8).unwrap_or(usize::MAX),
    });
    let failed = |e: png::DecodingError| format!("does not decode: {e}");
    let mut reader = decoder.read_info().map_err(failed)?;
    while reader.next_row().map_err(failed)?.is_some() {}
    reader.finish().map_err(failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(width: u32, height: u32) -> Vec<u8> {
        let mut bytes = Vec::new();
        image::RgbImage::new(width, height)
            .write_to(&mut Cursor::new(&mut bytes), ImageFormat::Png)
            .unwrap();
        bytes
    }

    #[test]
    fn a_whole_image_of_its_type_passes_and_anything_else_names_the_field() {
        let image = png(20, 10);
        assert_eq!(check("image/png", &image, "f"), Ok(()));
        let field = |result: Result<(), UploadError>| result.unwrap_err().field;
        assert_eq!(field(check("image/jpeg", &image, "f")), "f");
        assert_eq!(
            field(check("image/png", &image[..image.len() / 2], "f")),
            "f"
        );
        assert_eq!(field(check("image/png", b"not an image at all", "f")), "f");
        assert_eq!(field(check("text/plain", &image, "f")), "f");
    }

    #[test]
    fn a_png_is_read_to_its_end() {
        let image = png(300, 200);
        assert_eq!(png_whole(&image), Ok(()));
        // Cut before its end chunk, or a byte changed inside its image data.
        assert!(png_whole(&image[..image.len() - 12]).is_err());
        let mut changed = image.clone();
        let at = changed.windows(4).position(|w| w == b"IDAT").unwrap() + 20;
        changed[at] ^= 0x55;
        assert!(png_whole(&changed).is_err());
    }

    #[test]
    fn a_truncated_tiff_is_refused() {
        let mut bytes = Vec::new();
        image::RgbImage::from_fn(64, 64, |x, y| image::Rgb([x as u8, y as u8, 7]))
            .write_to(&mut Cursor::new(&mut bytes), ImageFormat::Tiff)
            .unwrap();
        assert_eq!(check("image/tiff", &bytes, "f"), Ok(()));
        for cut in [bytes.len() - 1, bytes.len() / 2, 100] {
            assert!(
                check("image/tiff", &bytes[..cut], "f").is_err(),
                "cut at {cut}"
            );
        }
    }

    #[test]
    fn a_broken_jpeg_is_refused_naming_the_field() {
        let mut bytes = Vec::new();
        image::RgbImage::from_fn(64, 64, |x, y| image::Rgb([x as u8, y as u8, 7]))
            .write_to(&mut Cursor::new(&mut bytes), ImageFormat::Jpeg)
            .unwrap();
        assert_eq!(check("image/jpeg", &bytes, "f"), Ok(()));
        // Cut inside the scan data: the headers, and so the size, are whole.
        let error = check("image/jpeg", &bytes[..bytes.len() - 40], "Answers[2]").unwrap_err();
        assert_eq!(error.field, "Answers[2]");
        assert!(error.message.contains("cut short"), "{}", error.message);
    }
}
