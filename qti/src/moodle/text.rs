//! A Moodle text field (`questiontext`, an `answer`) as markup nodes: its `<text>`
//! read by the field's `format` (`html` and `moodle_auto_format` as HTML,
//! `plain_text` and `markdown` as text), and its images, `@@PLUGINFILE@@/name`,
//! taken from the field's own `<file name="…" encoding="base64">` as `data:` URLs
//! (the markup writer checks each by its bytes).

use base64::Engine;
use percent_encoding::percent_decode_str;

use crate::build::text;
use crate::error::PackageError;
use crate::html;
use crate::xml::{Element, Node};

const PLUGIN_FILE: &str = "@@PLUGINFILE@@/";

/// `Ok(Err(reason))`: an image the field names is not in it.
pub(super) fn nodes(
    field: &Element,
    file: &str,
    default_format: &str,
) -> Result<Result<Vec<Node>, String>, PackageError> {
    let words = field.child("text").map(Element::text).unwrap_or_default();
    let format = field.attribute("format").unwrap_or(default_format);
    if !matches!(format, "html" | "moodle_auto_format") {
        return Ok(Ok(vec![text(&words)]));
    }
    let mut parsed = html::parse(&words, "div", file)?;
    if let Err(reason) = inline_images(&mut parsed, field) {
        return Ok(Err(reason));
    }
    Ok(Ok(parsed.children))
}

fn inline_images(element: &mut Element, field: &Element) -> Result<(), String> {
    if element.name == "img" {
        for (name, value) in &mut element.attributes {
            if name != "src" {
                continue;
            }
            if let Some(wanted) = value.trim().strip_prefix(PLUGIN_FILE) {
                let wanted = percent_decode_str(wanted).decode_utf8_lossy().into_owned();
                *value = data_url(field, &wanted).ok_or_else(|| {
                    format!("the question has no file {wanted}, which <img src=\"{value}\"> names")
                })?;
            }
        }
    }
    for child in &mut element.children {
        if let Node::Element(child) = child {
            inline_images(child, field)?;
        }
    }
    Ok(())
}

/// The field's file `name`, as a `data:` URL of base64 that reads.
fn data_url(field: &Element, name: &str) -> Option<String> {
    let file = field
        .children_named("file")
        .find(|f| f.attribute("name") == Some(name))?;
    let data: String = file.text().split_whitespace().collect();
    base64::engine::general_purpose::STANDARD
        .decode(&data)
        .ok()?;
    Some(format!("data:image;base64,{data}"))
}
