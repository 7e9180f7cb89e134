//! What the package tests share: a zip written in memory, a package of items
//! with a manifest (and two images), an item around a body.

// Shared by several test binaries, each using part of it.
#![allow(dead_code, clippy::unwrap_used)]

use std::io::Write;

use base64::Engine;

use scoredesk_qti::{read_package, Package};

pub fn zip(entries: &[(&str, String)]) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, text) in entries {
        writer
            .start_file(*name, zip::write::SimpleFileOptions::default())
            .unwrap();
        writer.write_all(text.as_bytes()).unwrap();
    }
    writer.finish().unwrap().into_inner()
}

/// A package of `items` (`(file, xml)`), listed in the manifest with `metadata` on
/// the first, without a test.
pub fn package(items: &[(&str, String)], metadata: &str) -> Package {
    let resources: String = items
        .iter()
        .enumerate()
        .map(|(i, (file, _))| {
            let meta = if i == 0 { metadata } else { "" };
            format!(r#"<resource identifier="r{i}" type="imsqti_item_xmlv2p1" href="{file}">{meta}</resource>"#)
        })
        .collect();
    let mut entries = vec![(
        "imsmanifest.xml",
        format!(
            r#"<manifest identifier="m"><metadata><lom><general><title><string>Package title</string></title></general></lom></metadata><resources>{resources}</resources></manifest>"#
        ),
    )];
    entries.extend(items.iter().map(|(f, x)| (*f, x.clone())));
    entries.push(("images/map.png", String::new()));
    let mut bytes = zip(&entries);
    // A real PNG for the drawing's background.
    let mut png = Vec::new();
    image::GrayImage::from_pixel(2, 2, image::Luma([10]))
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    let mut writer = zip::ZipWriter::new_append(std::io::Cursor::new(&mut bytes)).unwrap();
    writer
        .start_file("images/real.png", zip::write::SimpleFileOptions::default())
        .unwrap();
    writer.write_all(&png).unwrap();
    writer.finish().unwrap();
    read_package(&bytes).unwrap()
}

pub fn item(identifier: &str, declarations: &str, body: &str, processing: &str) -> String {
    format!(
        r#"<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="{identifier}" title="{identifier}" adaptive="false" timeDependent="false">{declarations}<itemBody>{body}</itemBody>{processing}</assessmentItem>"#
    )
}

/// An IMS QTI 2.1 example item kept in `tests/fixtures/ims/`.
pub fn ims(file: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/tests/fixtures/ims/{file}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

/// A stand-in picture of `width` × `height` (the examples' own are not held).
pub fn picture(width: u32, height: u32) -> Vec<u8> {
    let mut png = Vec::new();
    image::GrayImage::from_pixel(width, height, image::Luma([200]))
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    png
}

/// A package of one item (`file`) and its `pictures` (`(path, bytes)`).
pub fn package_with_pictures(file: &str, item: String, pictures: &[(&str, Vec<u8>)]) -> Package {
    let manifest = format!(
        r#"<manifest identifier="m"><resources><resource identifier="r" type="imsqti_item_xmlv2p1" href="{file}"/></resources></manifest>"#
    );
    let mut entries: Vec<(&str, Vec<u8>)> = vec![
        ("imsmanifest.xml", manifest.into_bytes()),
        (file, item.into_bytes()),
    ];
    entries.extend(pictures.iter().cloned());
    read_package(&zip_bytes(&entries)).unwrap()
}

pub fn zip_bytes(entries: &[(&str, Vec<u8>)]) -> Vec<u8> {
    let texts: Vec<(&str, String)> = entries
        .iter()
        .filter(|(name, _)| name.ends_with(".xml"))
        .map(|(name, bytes)| (*name, String::from_utf8(bytes.clone()).unwrap()))
        .collect();
    let mut bytes = zip(&texts);
    let mut writer = zip::ZipWriter::new_append(std::io::Cursor::new(&mut bytes)).unwrap();
    for (name, data) in entries.iter().filter(|(name, _)| !name.ends_with(".xml")) {
        writer
            .start_file(*name, zip::write::SimpleFileOptions::default())
            .unwrap();
        std::io::Write::write_all(&mut writer, data).unwrap();
    }
    writer.finish().unwrap();
    bytes
}

/// The SVG the markup shows the picture through.
pub fn svg_of(markup: &str) -> String {
    let start = markup.find("data:image/svg+xml;base64,").unwrap() + 26;
    let end = start + markup[start..].find('"').unwrap();
    String::from_utf8(
        base64::engine::general_purpose::STANDARD
            .decode(&markup[start..end])
            .unwrap(),
    )
    .unwrap()
}
