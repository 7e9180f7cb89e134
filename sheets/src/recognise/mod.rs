//! Reading a scanned page back (docs/paper-sheets.md, "Recognition"):
//!
//! 1. decode the image (PNG, JPEG or TIFF, grey or colour) and go to grey;
//! 2. even out the light where one end of the scan is darker ([`light`]);
//! 3. find the four registration marks in the scan's corners ([`marks`]);
//! 4. map the page's millimetres onto the scan through them ([`geometry`]);
//! 5. read the code in its square; when none is there, take the page to be
//!    upside down and read it again the other way round ([`code`]);
//! 6. then, for the page's layout (which the caller finds from the code's attempt),
//!    measure each bubble's ink and its shape ([`bubbles`]), cut out each essay ([`essays`]) and
//!    find the places marked on each picture ([`places`]).

mod bubble_ink;
mod bubbles;
mod code;
mod essays;
mod geometry;
mod levels;
mod light;
mod marks;
mod places;

use std::io::Cursor;

use image::{GrayImage, ImageFormat, ImageReader, Limits};
use imageproc::contrast::otsu_level;

use crate::code::SheetCode;
use crate::layout::{PageLayout, PictureArea, Rect};

pub use bubbles::{marking_in_words, verdict, BubbleReading, MarkKind, Verdict, BLANK, MARKED};
pub use essays::{EssayCrop, ESSAY_PX_PER_MM};
pub use places::{PlacesReading, PLACE_PX_PER_MM};

use geometry::PageGeometry;
use levels::Levels;
pub use levels::ScanError;

/// The least a scan may be: an A4 page at about 120 dpi.
const MIN_WIDTH: u32 = 1000;
/// The most: an A4 page at 600 dpi with room to spare (decoding stops beyond).
const MAX_SIDE: u32 = 9000;
const MAX_DECODE_BYTES: u64 = 400 * 1024 * 1024;

/// A page found and its code read, ready to be read against its layout.
pub struct Scan {
    image: GrayImage,
    geometry: PageGeometry,
    levels: Levels,
    pub code: SheetCode,
    /// Whether the page lay upside down on the scanner.
    pub upside_down: bool,
}

/// Everything read from a page.
#[derive(Debug, Clone, PartialEq)]
pub struct PageReading {
    pub code: SheetCode,
    pub upside_down: bool,
    pub bubbles: Vec<BubbleReading>,
    pub essays: Vec<EssayCrop>,
    pub places: Vec<PlacesReading>,
}

/// Decodes a scan file, bounded in size, and finds its page.
pub fn open(bytes: &[u8]) -> Result<Scan, ScanError> {
    let mut reader = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|error| ScanError::Image(error.to_string()))?;
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE * 3 / 2);
    limits.max_alloc = Some(MAX_DECODE_BYTES);
    reader.limits(limits);
    match reader.format() {
        Some(ImageFormat::Png | ImageFormat::Jpeg | ImageFormat::Tiff) => {}
        _ => return Err(ScanError::Image("not PNG, JPEG or TIFF".into())),
    }
    let image = reader
        .decode()
        .map_err(|error| ScanError::Image(error.to_string()))?;
    find_page(image.into_luma8())
}

/// Finds the page in a grey scan: its marks, its geometry, its way up and its code.
pub fn find_page(mut image: GrayImage) -> Result<Scan, ScanError> {
    let (width, height) = image.dimensions();
    if width < MIN_WIDTH || height < MIN_WIDTH {
        return Err(ScanError::TooSmall { width, height });
    }
    light::even_out(&mut image);
    let threshold = ink_threshold(&image);
    let found = marks::find_marks(&image, threshold)?;
    let ink = found.iter().map(|mark| mark.ink).sum::<f32>() / 4.0;
    let levels = Levels {
        paper: paper_grey(&image, threshold),
        ink,
    };
    if levels.paper - levels.ink < 40.0 {
        return Err(ScanError::Geometry);
    }
    for upside_down in [false, true] {
        let Some(geometry) = PageGeometry::from_marks(&found, upside_down) else {
            return Err(ScanError::Geometry);
        };
        if let Some(code) = code::read_code(&image, &geometry)? {
            return Ok(Scan {
                image,
                geometry,
                levels,
                code,
                upside_down,
            });
        }
    }
    Err(ScanError::NoCode)
}

/// The least grey that is paper: ink is what is darker. Otsu's level is the
/// darkest class's last grey (imageproc counts the level itself as dark), so the
/// threshold is one above it; on a page of a few pure greys the level is the
/// marks' own ink, which `< level` lost. imageproc's sum of intensities is a u32,
/// which a page of more than 16.8 million pixels (600 dpi) overflows, so a large
/// scan is measured on every n-th pixel each way: the histogram's shape does not
/// need them all.
fn ink_threshold(image: &GrayImage) -> u8 {
    const MOST_PIXELS: u64 = 4_000_000;
    let (width, height) = image.dimensions();
    let pixels = u64::from(width) * u64::from(height);
    let level = if pixels <= MOST_PIXELS {
        otsu_level(image)
    } else {
        let step = ((pixels as f64 / MOST_PIXELS as f64).sqrt().ceil()) as u32;
        let sample = GrayImage::from_fn(width / step, height / step, |x, y| {
            *image.get_pixel(x * step, y * step)
        });
        otsu_level(&sample)
    };
    level.saturating_add(1)
}

/// The paper's grey: the median of what is lighter than the threshold.
fn paper_grey(image: &GrayImage, threshold: u8) -> f32 {
    let mut histogram = [0u64; 256];
    for pixel in image.pixels() {
        histogram[usize::from(pixel.0[0])] += 1;
    }
    let light: u64 = histogram[usize::from(threshold)..].iter().sum();
    let mut seen = 0;
    for (grey, count) in histogram.iter().enumerate().skip(usize::from(threshold)) {
        seen += count;
        if seen * 2 >= light {
            return grey as f32;
        }
    }
    255.0
}

impl Scan {
    /// The scan's resolution, as the marks measure it, in dots per inch.
    pub fn dpi(&self) -> f32 {
        self.geometry.px_per_mm * 25.4
    }

    /// The page read against its layout: every bubble measured, every essay cut
    /// out, every picture's marks found.
    pub fn read(&self, layout: &PageLayout) -> Result<PageReading, ScanError> {
        let bubbles =
            bubbles::read_bubbles(&self.image, &self.geometry, self.levels, &layout.bubbles);
        let essays = layout
            .essays
            .iter()
            .map(|area| essays::crop_essay(&self.image, &self.geometry, self.levels, area))
            .collect::<Result<_, _>>()
            .map_err(|error| ScanError::Image(error.to_string()))?;
        let places = layout
            .pictures
            .iter()
            .map(|area| places::read_places(&self.image, &self.geometry, self.levels, area))
            .collect();
        Ok(PageReading {
            code: self.code,
            upside_down: self.upside_down,
            bubbles,
            essays,
            places,
        })
    }

    /// A picture of the page, upright, its `marks` (shares of it) ringed and
    /// lettered A, B, … as a PNG: what a coordinator looks at to pick the marks
    /// that count.
    pub fn lettered_picture_png(
        &self,
        area: &PictureArea,
        marks: &[(f32, f32)],
    ) -> Result<Vec<u8>, ScanError> {
        let picture = places::lettered(&self.image, &self.geometry, area, marks);
        let mut png = Vec::new();
        picture
            .write_to(&mut Cursor::new(&mut png), ImageFormat::Png)
            .map_err(|error| ScanError::Image(error.to_string()))?;
        Ok(png)
    }

    /// A part of the page, upright, as a PNG: what a coordinator looks at to decide
    /// an unsure mark.
    pub fn crop_png(&self, rect: Rect, px_per_mm: f32) -> Result<Vec<u8>, ScanError> {
        let crop = self.geometry.crop(&self.image, rect, px_per_mm);
        let mut png = Vec::new();
        crop.write_to(&mut Cursor::new(&mut png), ImageFormat::Png)
            .map_err(|error| ScanError::Image(error.to_string()))?;
        Ok(png)
    }
}
