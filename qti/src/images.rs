//! The package's images, as the `data:` URLs the question markup holds. Each is
//! read once (bounded), and its type is taken from its bytes, never from its name:
//! PNG, JPEG, GIF and WebP by their signatures, SVG when it is XML whose document
//! element is `svg` (read by the same DOCTYPE-refusing reader; an SVG shown through
//! `<img>` runs no script).

use std::collections::hash_map::DefaultHasher;
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};

use base64::Engine;

use crate::archive::Archive;
use crate::error::PackageError;
use crate::{limits, names, xml};

pub struct Images<'a> {
    archive: Archive<'a>,
    /// Member path → data URL.
    urls: HashMap<String, String>,
    /// Images already inline (Moodle's), by a hash of their URL: counted, not kept.
    inline: HashSet<u64>,
}

impl<'a> Images<'a> {
    pub fn new(archive: Archive<'a>) -> Self {
        Self {
            archive,
            urls: HashMap::new(),
            inline: HashSet::new(),
        }
    }

    pub fn archive(&mut self) -> &mut Archive<'a> {
        &mut self.archive
    }

    /// How many distinct images were inlined.
    pub fn count(&self) -> usize {
        self.urls.len() + self.inline.len()
    }

    /// The image that `src` (written in `file`, in the attribute `what`) names.
    pub fn data_url(&mut self, file: &str, what: &str, src: &str) -> Result<String, PackageError> {
        if let Some(inline) = src.trim().strip_prefix("data:") {
            let url = inline_url(file, what, src, inline)?;
            let mut hasher = DefaultHasher::new();
            url.hash(&mut hasher);
            self.inline.insert(hasher.finish());
            return Ok(url);
        }
        let path = names::resolve(file, src)
            .map_err(|problem| PackageError::at_path(file, what, src, &problem))?;
        if let Some(url) = self.urls.get(&path) {
            return Ok(url.clone());
        }
        if !self.archive.contains(&path) {
            return Err(PackageError::new(
                format!("{file} <{what}=\"{src}\">"),
                format!("the package has no file {path}"),
            ));
        }
        let bytes = self.archive.read(&path, limits::MAX_IMAGE_BYTES)?;
        let media_type = media_type(&bytes, &path)?;
        let url = format!(
            "data:{media_type};base64,{}",
            base64::engine::general_purpose::STANDARD.encode(&bytes)
        );
        self.urls.insert(path, url.clone());
        Ok(url)
    }
}

/// The width and height of a raster image's `data:` URL (read from its header,
/// not decoded); `None` for an SVG or what cannot be read.
pub fn dimensions(url: &str) -> Option<(u32, u32)> {
    let (_, data) = url.strip_prefix("data:")?.split_once(";base64,")?;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(data)
        .ok()?;
    image::ImageReader::new(std::io::Cursor::new(bytes))
        .with_guessed_format()
        .ok()?
        .into_dimensions()
        .ok()
}

fn media_type(bytes: &[u8], path: &str) -> Result<&'static str, PackageError> {
    use image::ImageFormat;
    match image::guess_format(bytes) {
        Ok(ImageFormat::Png) => return Ok("image/png"),
        Ok(ImageFormat::Jpeg) => return Ok("image/jpeg"),
        Ok(ImageFormat::Gif) => return Ok("image/gif"),
        Ok(ImageFormat::WebP) => return Ok("image/webp"),
        _ => {}
    }
    let looks_like_xml = bytes
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|b| *b == b'<');
    if looks_like_xml && xml::parse(bytes, path)?.name == "svg" {
        return Ok("image/svg+xml");
    }
    Err(PackageError::new(
        path,
        "not an image that can be shown (PNG, JPEG, GIF, WebP or SVG)",
    ))
}

/// A `data:` URL already in the item: kept if it is a base64 image of a shown type
/// within the image bound.
fn inline_url(file: &str, what: &str, src: &str, inline: &str) -> Result<String, PackageError> {
    let part = || {
        let shown: String = src.chars().take(40).collect();
        format!("{file} <{what}=\"{shown}...\">")
    };
    let (header, data) = inline
        .split_once(',')
        .ok_or_else(|| PackageError::new(part(), "a data URL without data"))?;
    if !header.ends_with(";base64") {
        return Err(PackageError::new(part(), "a data URL that is not base64"));
    }
    if data.len() as u64 > limits::MAX_IMAGE_BYTES * 4 / 3 + 4 {
        return Err(PackageError::new(
            part(),
            "an inline image larger than the bound for images",
        ));
    }
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(data.trim())
        .map_err(|_| PackageError::new(part(), "a data URL whose base64 cannot be read"))?;
    let media_type = media_type(&bytes, &part())?;
    Ok(format!(
        "data:{media_type};base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&bytes)
    ))
}
