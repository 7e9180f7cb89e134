//! The IMS examples of points on a picture (`select_point.xml`, Edinburgh on a
//! map; `position_object.xml`, three airports) with stand-in pictures of the
//! sizes they declare: the examples' own pictures are not in the copy we hold.

use super::{manifest, zip};

/// A stand-in picture of `width` × `height`: a light ground with black strokes
/// across it (a map's coastlines), so that a sheet's faint print of it is shown
/// never to read as a participant's cross.
pub fn stand_in_picture(width: u32, height: u32) -> Vec<u8> {
    let mut picture = image::GrayImage::from_pixel(width, height, image::Luma([210]));
    for (x, y, pixel) in picture.enumerate_pixels_mut() {
        if (x + 2 * y) % 37 < 3 || (3 * x + y) % 53 < 2 {
            *pixel = image::Luma([20]);
        }
    }
    let mut png = Vec::new();
    picture
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .expect("a PNG in memory");
    png
}

/// A package of `items` (of `select_point.xml` and `position_object.xml`), in
/// that order, with the pictures they name.
pub fn ims_points_package(items: &[&str]) -> Vec<u8> {
    let folder = format!("{}/../qti/tests/fixtures/ims", env!("CARGO_MANIFEST_DIR"));
    let resources: Vec<(&str, &str, &str)> = items
        .iter()
        .map(|file| (*file, "imsqti_item_xmlv2p1", *file))
        .collect();
    let mut entries = vec![("imsmanifest.xml", manifest(&resources).into_bytes())];
    for file in items {
        entries.push((
            file,
            std::fs::read(format!("{folder}/{file}")).expect("the fixture item"),
        ));
    }
    entries.push(("images/uk.png", stand_in_picture(196, 280)));
    entries.push(("images/airport.png", stand_in_picture(16, 16)));
    zip(&entries)
}
