//! The words of an item, as plain text: its stem for the report and a choice's
//! text for the service's Choice, images standing as their alternative text.

use super::{DROPPED, INLINE};
use crate::xml::{Element, Node};

/// What the item asks, in words (for reports and lists): the body's text without
/// its choices, whitespace collapsed, cut at `limit` characters.
pub fn stem_text(body: &Element, limit: usize) -> String {
    let mut words = String::new();
    gather_stem(body, &mut words);
    let words = words.split_whitespace().collect::<Vec<_>>().join(" ");
    match words.char_indices().nth(limit) {
        Some((at, _)) => format!("{}…", &words[..at]),
        None => words,
    }
}

fn gather_stem(element: &Element, out: &mut String) {
    for node in &element.children {
        match node {
            Node::Text(text) => out.push_str(text),
            Node::Element(child) if child.name == "math" => {
                out.push_str(&super::math::linear(child).1)
            }
            Node::Element(child)
                if DROPPED.contains(&child.name.as_str())
                    || matches!(
                        child.name.as_str(),
                        "simpleChoice" | "simpleMatchSet" | "gapText"
                    ) => {}
            // The blank the answer fills, in its sentence.
            Node::Element(child)
                if child.name == "textEntryInteraction"
                    || child.name == "inlineChoiceInteraction"
                    || child.name == "gap" =>
            {
                out.push_str("____")
            }
            Node::Element(child) if INLINE.contains(&child.name.as_str()) => {
                gather_stem(child, out)
            }
            Node::Element(child) => {
                out.push(' ');
                gather_stem(child, out);
                out.push(' ');
            }
        }
    }
}

/// A choice as the service's Choice text: its words, whitespace collapsed; an
/// image stands as its alternative text.
pub fn choice_text(choice: &Element) -> String {
    let mut words = String::new();
    gather(choice, &mut words);
    words.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn gather(element: &Element, out: &mut String) {
    for node in &element.children {
        match node {
            Node::Text(text) => out.push_str(text),
            Node::Element(child) if DROPPED.contains(&child.name.as_str()) => {}
            Node::Element(child) if child.name == "math" => {
                out.push_str(&super::math::linear(child).1)
            }
            Node::Element(child) if child.name == "img" => {
                let alt = child.attribute("alt").unwrap_or("image");
                out.push_str(&format!(" [{}] ", alt.trim()));
            }
            Node::Element(child)
                if matches!(child.name.as_str(), "p" | "div" | "li" | "br" | "td" | "th") =>
            {
                out.push(' ');
                gather(child, out);
                out.push(' ');
            }
            Node::Element(child) => gather(child, out),
        }
    }
}
