//! A QTI 1.2 `<material>` as markup nodes: `mattext` as text, or as HTML when its
//! `texttype` says so (Canvas writes every question's words so); `matimage` as an
//! image; `matbreak` as a line break. Audio, video and applets are not kept (the
//! markup writer would drop them too). Canvas's `$IMS-CC-FILEBASE$/` (the package's
//! `web_resources` folder) becomes a path from the quiz's file.

use crate::build::{node, text as text_node};
use crate::error::PackageError;
use crate::html;
use crate::xml::{Element, Node};

const CANVAS_FILES: &str = "$IMS-CC-FILEBASE$/";

/// The nodes every `material` in `parent` (not inside a response) shows, in order.
pub(super) fn nodes(material: &Element, file: &str) -> Result<Vec<Node>, PackageError> {
    let mut out = Vec::new();
    for part in material.elements() {
        match part.name.as_str() {
            "mattext" => {
                let html = part
                    .attribute("texttype")
                    .is_some_and(|t| t.trim().eq_ignore_ascii_case("text/html"));
                out.extend(words(&part.text(), html, file)?);
            }
            // Blackboard's: `<mat_formattedtext type="HTML|SMART_TEXT|PLAIN_TEXT">`.
            "mat_extension" => {
                for formatted in part.children_named("mat_formattedtext") {
                    let html = formatted.attribute("type") != Some("PLAIN_TEXT");
                    out.extend(words(&formatted.text(), html, file)?);
                }
            }
            "matimage" => {
                let uri = part.attribute("uri").unwrap_or_default();
                let src = canvas_path(uri, file);
                let alt = part.attribute("label").unwrap_or_default();
                out.push(node(
                    "img",
                    &[("src", src.as_str()), ("alt", alt)],
                    Vec::new(),
                ));
            }
            "matbreak" => out.push(node("br", &[], Vec::new())),
            _ => {}
        }
    }
    Ok(out)
}

fn words(text: &str, html: bool, file: &str) -> Result<Vec<Node>, PackageError> {
    if !html {
        return Ok(vec![text_node(text)]);
    }
    let mut parsed = html::parse(text, "div", file)?;
    canvas_paths(&mut parsed, file);
    Ok(parsed.children)
}

fn canvas_paths(element: &mut Element, file: &str) {
    if element.name == "img" {
        for (name, value) in &mut element.attributes {
            if name == "src" {
                *value = canvas_path(value, file);
            }
        }
    }
    for child in &mut element.children {
        if let Node::Element(child) = child {
            canvas_paths(child, file);
        }
    }
}

/// `$IMS-CC-FILEBASE$/x.png` as a path from `file` to `web_resources/x.png`.
fn canvas_path(src: &str, file: &str) -> String {
    match src.trim().strip_prefix(CANVAS_FILES) {
        Some(rest) => {
            let depth = file.matches('/').count();
            format!("{}web_resources/{rest}", "../".repeat(depth))
        }
        None => src.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canvas_files_are_found_from_the_quiz_file() {
        assert_eq!(
            canvas_path("$IMS-CC-FILEBASE$/Uploaded%20Media/leaf.png", "g1/g1.xml"),
            "../web_resources/Uploaded%20Media/leaf.png"
        );
        assert_eq!(canvas_path("images/a.png", "q.xml"), "images/a.png");
    }
}
