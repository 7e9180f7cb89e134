//! Places marked on a picture (a point question): the picture is printed faint
//! (at most a fifth of the way from paper to ink), so what is darker than half
//! way is the participant's ink. Each blob of ink the size of a cross (2 to 15 mm
//! across; strokes less than 1.5 mm apart are one mark) is a place, at the middle
//! of its extent, a cross's crossing. Ink that is no such mark (a dot, a stroke
//! across the whole picture, a scribble) makes the reading unsure, for a person
//! to decide; it is never dropped without a word.

use image::{GrayImage, Luma};
use imageproc::region_labelling::{connected_components, Connectivity};

use crate::layout::{PictureArea, Rect};

use super::geometry::PageGeometry;
use super::levels::Levels;

/// The picture is read at 8 pixels a millimetre (about 200 dpi).
pub const PLACE_PX_PER_MM: f32 = 8.0;
/// Read inside the picture's edge, clear of the printed frame around it.
const INSET: f32 = 0.8;
/// A point is the participant's ink when at least this dark (the picture is
/// printed at most 0.2 dark; pencil reads 0.4 to 0.7, a pen darker).
const MARK_INK: f32 = 0.42;
/// A mark spans at least this, and at most that (millimetres): a cross.
const LEAST_MARK: f32 = 2.0;
const MOST_MARK: f32 = 15.0;
/// Strokes less than this apart (millimetres) are one mark.
const JOIN: f32 = 1.5;
/// Ink that is no mark makes the reading unsure from this much (mm²): a
/// scanner's specks stay under it.
const STRAY: f32 = 0.5;
/// More blobs than this is no handful of crosses: a person looks.
const MOST_BLOBS: usize = 200;

/// A picture as read.
#[derive(Debug, Clone, PartialEq)]
pub struct PlacesReading {
    pub question: i32,
    /// Each mark's place as a share of the picture's width and height from its
    /// top left corner (0 to 1), left to right.
    pub marks: Vec<(f32, f32)>,
    /// Ink that is no mark: a person must look.
    pub unsure: bool,
}

/// An extent of ink, in the crop's pixels: left, top, right, bottom, and how
/// many pixels of ink it holds.
#[derive(Debug, Clone, Copy)]
struct Blob {
    left: u32,
    top: u32,
    right: u32,
    bottom: u32,
    ink: u32,
}

impl Blob {
    fn near(&self, other: &Blob, gap: u32) -> bool {
        self.left <= other.right + gap
            && other.left <= self.right + gap
            && self.top <= other.bottom + gap
            && other.top <= self.bottom + gap
    }

    fn join(&mut self, other: &Blob) {
        self.left = self.left.min(other.left);
        self.top = self.top.min(other.top);
        self.right = self.right.max(other.right);
        self.bottom = self.bottom.max(other.bottom);
        self.ink += other.ink;
    }

    fn span(&self) -> u32 {
        (self.right - self.left + 1).max(self.bottom - self.top + 1)
    }
}

pub(crate) fn read_places(
    scan: &GrayImage,
    geometry: &PageGeometry,
    levels: Levels,
    area: &PictureArea,
) -> PlacesReading {
    let inside = Rect {
        x: area.frame.x + INSET,
        y: area.frame.y + INSET,
        width: area.frame.width - 2.0 * INSET,
        height: area.frame.height - 2.0 * INSET,
    };
    let crop = geometry.crop(scan, inside, PLACE_PX_PER_MM);
    let ink = GrayImage::from_fn(crop.width(), crop.height(), |x, y| {
        let dark = levels.darkness(crop.get_pixel(x, y).0[0]) >= MARK_INK;
        Luma([if dark { 255 } else { 0 }])
    });
    let labels = connected_components(&ink, Connectivity::Eight, Luma([0]));
    let mut blobs: Vec<Option<Blob>> = Vec::new();
    for (x, y, label) in labels.enumerate_pixels() {
        let label = label.0[0] as usize;
        if label == 0 {
            continue;
        }
        if blobs.len() < label {
            blobs.resize(label, None);
        }
        let pixel = Blob {
            left: x,
            top: y,
            right: x,
            bottom: y,
            ink: 1,
        };
        match &mut blobs[label - 1] {
            Some(blob) => blob.join(&pixel),
            empty => *empty = Some(pixel),
        }
    }
    let mut blobs: Vec<Blob> = blobs.into_iter().flatten().collect();
    if blobs.len() > MOST_BLOBS {
        return PlacesReading {
            question: area.question,
            marks: Vec::new(),
            unsure: true,
        };
    }
    join_near(&mut blobs, (JOIN * PLACE_PX_PER_MM) as u32);
    let px = |mm: f32| (mm * PLACE_PX_PER_MM) as u32;
    let (marks, stray): (Vec<Blob>, Vec<Blob>) = blobs
        .into_iter()
        .partition(|b| (px(LEAST_MARK)..=px(MOST_MARK)).contains(&b.span()));
    let stray_ink = stray.iter().map(|b| b.ink).sum::<u32>() as f32;
    let mut places: Vec<(f32, f32)> = marks
        .iter()
        .map(|b| {
            let middle = |low: u32, high: u32| (low + high) as f32 / 2.0 / PLACE_PX_PER_MM;
            (
                (INSET + middle(b.left, b.right)) / area.frame.width,
                (INSET + middle(b.top, b.bottom)) / area.frame.height,
            )
        })
        .collect();
    places.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    PlacesReading {
        question: area.question,
        marks: places,
        unsure: stray_ink >= STRAY * PLACE_PX_PER_MM * PLACE_PX_PER_MM,
    }
}

/// Joins blobs less than `gap` pixels apart until none are (a cross drawn in
/// two strokes that do not quite meet is one mark). Quadratic in the blobs,
/// which are at most [`MOST_BLOBS`].
fn join_near(blobs: &mut Vec<Blob>, gap: u32) {
    let mut joined = true;
    while joined {
        joined = false;
        'outer: for i in 0..blobs.len() {
            for j in i + 1..blobs.len() {
                if blobs[i].near(&blobs[j], gap) {
                    let other = blobs.swap_remove(j);
                    blobs[i].join(&other);
                    joined = true;
                    break 'outer;
                }
            }
        }
    }
}

/// The picture of `area` as scanned, each of `marks` (shares of the picture,
/// as [`PlacesReading`] gives them) ringed and lettered A, B, … in their order:
/// what a person looks at to pick the marks that count.
pub(crate) fn lettered(
    scan: &GrayImage,
    geometry: &PageGeometry,
    area: &PictureArea,
    marks: &[(f32, f32)],
) -> GrayImage {
    let mut crop = geometry.crop(scan, area.frame, PLACE_PX_PER_MM);
    let ring = 4.0 * PLACE_PX_PER_MM;
    for (index, (x, y)) in marks.iter().enumerate() {
        let centre = (
            (x * area.frame.width * PLACE_PX_PER_MM) as i32,
            (y * area.frame.height * PLACE_PX_PER_MM) as i32,
        );
        for r in [ring as i32, ring as i32 + 1] {
            imageproc::drawing::draw_hollow_circle_mut(&mut crop, centre, r, Luma([0]));
        }
        let letter = char::from(b'A' + (index % 26) as u8);
        write_letter(
            &mut crop,
            letter,
            centre.0 + ring as i32,
            centre.1 - ring as i32 - 24,
        );
    }
    crop
}

/// `letter` in black on a white square, three times the 8 × 8 font's size, its
/// top left corner at `(left, top)`.
fn write_letter(image: &mut GrayImage, letter: char, left: i32, top: i32) {
    const SCALE: i32 = 3;
    // The font's ASCII table: a byte per row, its lowest bit leftmost.
    let glyph = font8x8::legacy::BASIC_LEGACY[usize::from(letter as u8 & 0x7f)];
    for v in -2..8 * SCALE + 2 {
        for u in -2..8 * SCALE + 2 {
            let (x, y) = (left + u, top + v);
            if x < 0 || y < 0 || x >= image.width() as i32 || y >= image.height() as i32 {
                continue;
            }
            let (column, row) = (u.div_euclid(SCALE), v.div_euclid(SCALE));
            let ink = (0..8).contains(&column)
                && (0..8).contains(&row)
                && glyph[row as usize] >> column & 1 == 1;
            image.put_pixel(x as u32, y as u32, Luma([if ink { 0 } else { 255 }]));
        }
    }
}
