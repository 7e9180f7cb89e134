//! An item body as the question's markup: an XHTML fragment written from a list of
//! the elements QTI's body may hold, with only harmless attributes kept. Whatever
//! is not on the list is dropped with its content when it could act (script,
//! style, object, iframe, forms, feedback, rubric blocks) and unwrapped (its text
//! kept) otherwise. Images are read from the package and inlined as `data:` URLs,
//! the only URLs the service's markup may hold. The interaction becomes what the
//! service's own markup shows: a choice list (`ol.choices`) or a response hint.

mod blanks;
mod hotspots;
mod matching;
mod math;
mod words;

use crate::error::PackageError;
use crate::images::Images;
use crate::xml::{Element, Node};

pub use hotspots::{area_words, areas, coordinates, picture_words};
pub use words::{choice_text, stem_text};

/// Elements written as they are (with their kept attributes).
const KEPT: &[&str] = &[
    "p",
    "div",
    "span",
    "br",
    "hr",
    "em",
    "strong",
    "b",
    "i",
    "u",
    "sub",
    "sup",
    "small",
    "big",
    "tt",
    "code",
    "pre",
    "kbd",
    "samp",
    "var",
    "cite",
    "abbr",
    "acronym",
    "q",
    "blockquote",
    "address",
    "dfn",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "ul",
    "ol",
    "li",
    "dl",
    "dt",
    "dd",
    "table",
    "caption",
    "thead",
    "tbody",
    "tfoot",
    "tr",
    "th",
    "td",
    "col",
    "colgroup",
    "figure",
    "figcaption",
    "img",
    "ruby",
    "rt",
    "rp",
    "bdo",
    "bdi",
    "mark",
    "s",
    "del",
    "ins",
];

/// Elements dropped with everything in them: they act, or they are for another
/// audience than the question's reader (feedback, scorers' rubric blocks).
const DROPPED: &[&str] = &[
    "script",
    "style",
    "iframe",
    "frame",
    "frameset",
    "embed",
    "applet",
    "form",
    "input",
    "button",
    "select",
    "textarea",
    "link",
    "meta",
    "base",
    "audio",
    "video",
    "source",
    "track",
    "canvas",
    "svg",
    "template",
    "feedbackBlock",
    "feedbackInline",
    "modalFeedback",
    "rubricBlock",
    "templateBlock",
    "templateInline",
    "printedVariable",
    "infoControl",
    "stylesheet",
    "companionMaterialsInfo",
    "catalogInfo",
];

/// Elements inside a line of text: their words join their neighbours' (H₂O is
/// `H<sub>2</sub>O`, one word).
const INLINE: &[&str] = &[
    "span", "em", "strong", "b", "i", "u", "sub", "sup", "small", "big", "tt", "code", "kbd",
    "samp", "var", "cite", "abbr", "acronym", "q", "dfn", "mark", "s", "del", "ins", "bdo", "bdi",
    "a",
];

/// Attributes kept, by element (`*`: any kept element).
fn keeps(element: &str, attribute: &str) -> bool {
    match attribute {
        "title" | "lang" | "dir" => true,
        "alt" | "width" | "height" => element == "img",
        "colspan" | "rowspan" | "scope" => matches!(element, "td" | "th"),
        "start" | "type" => element == "ol",
        _ => false,
    }
}

pub struct Writer<'i, 'a> {
    /// The item's path, to resolve image paths and name errors.
    file: &'i str,
    images: &'i mut Images<'a>,
    out: String,
    /// An inline choice's list, shown after the body: a list cannot stand inside
    /// the sentence its gap is in.
    after: String,
    /// A gap match's gaps written so far (they are numbered).
    gaps: usize,
    /// Blanks (text entries, inline choices) written so far, when the body has
    /// several (a fill-in-the-blanks question's, numbered as its parts are);
    /// `None` for one.
    blanks: Option<usize>,
}

impl<'i, 'a> Writer<'i, 'a> {
    pub fn new(file: &'i str, images: &'i mut Images<'a>) -> Self {
        Self {
            file,
            images,
            out: String::new(),
            after: String::new(),
            gaps: 0,
            blanks: None,
        }
    }

    /// The body as the question's markup.
    pub fn body(mut self, body: &Element) -> Result<String, PackageError> {
        self.out
            .push_str("<div class=\"question\" xmlns=\"http://www.w3.org/1999/xhtml\">");
        let entries = body
            .descendants()
            .iter()
            .filter(|e| {
                matches!(
                    e.name.as_str(),
                    "textEntryInteraction" | "inlineChoiceInteraction"
                )
            })
            .count();
        self.blanks = (entries > 1).then_some(0);
        self.children(body)?;
        let after = std::mem::take(&mut self.after);
        self.out.push_str(&after);
        self.out.push_str("</div>");
        Ok(self.out)
    }

    fn children(&mut self, element: &Element) -> Result<(), PackageError> {
        for node in &element.children {
            match node {
                Node::Text(text) => self.text(text),
                Node::Element(child) => self.element(child)?,
            }
        }
        Ok(())
    }

    fn text(&mut self, text: &str) {
        self.out.push_str(&quick_xml::escape::escape(text));
    }

    fn element(&mut self, element: &Element) -> Result<(), PackageError> {
        let name = element.name.as_str();
        match name {
            "choiceInteraction" => self.choices(element),
            "associateInteraction" => self.pairs(element),
            "hotspotInteraction" => self.hotspots(element),
            "graphicOrderInteraction" => self.graphic_order(element),
            "graphicAssociateInteraction" => self.graphic_pairs(element),
            "graphicGapMatchInteraction" => self.graphic_gaps(element),
            "selectPointInteraction" => self.select_point(element),
            "positionObjectStage" => self.position_stage(element),
            "matchInteraction" => self.matching(element),
            "gapMatchInteraction" => self.gap_match(element),
            "orderInteraction" => self.order(element),
            "gap" => {
                self.gap();
                Ok(())
            }
            // A gap in its sentence; its choices are listed after the body.
            "inlineChoiceInteraction" => self.inline_choice(element),
            // The passage, its selectable words marked; paper lists them as choices.
            "hottextInteraction" => {
                self.prompt(element)?;
                for node in &element.children {
                    match node {
                        Node::Element(child) if child.name == "prompt" => {}
                        Node::Element(child) => self.element(child)?,
                        Node::Text(text) => self.text(text),
                    }
                }
                Ok(())
            }
            "hottext" => {
                self.out.push_str("<span class=\"hottext\">");
                self.children(element)?;
                self.out.push_str("</span>");
                Ok(())
            }
            "extendedTextInteraction" => {
                self.prompt(element)?;
                self.hint("p", "Write your answer.");
                Ok(())
            }
            // Inline, in the sentence it completes: a blank to fill in, kept on paper.
            "textEntryInteraction" => {
                self.text_entry();
                Ok(())
            }
            // A number on a scale: the scale's ends, on paper as on screen (a hint
            // is for delivery only; the paper gives its own lines to write on).
            "sliderInteraction" => {
                self.prompt(element)?;
                let end = |name: &str| {
                    quick_xml::escape::escape(element.attribute(name).unwrap_or("?").trim())
                        .into_owned()
                };
                self.out.push_str(&format!(
                    "<p class=\"scale\">A number from {} to {}.</p>",
                    end("lowerBound"),
                    end("upperBound")
                ));
                Ok(())
            }
            "uploadInteraction" => {
                self.prompt(element)?;
                self.hint("p", "Answer on paper; the page is scanned.");
                Ok(())
            }
            "drawingInteraction" => {
                self.prompt(element)?;
                if let Some(object) = element.child("object") {
                    self.object(object)?;
                }
                self.hint("p", "Draw your answer on the picture.");
                Ok(())
            }
            "img" => self.image(element),
            "object" => self.object(element),
            "math" => {
                // The service's markup holds no MathML: a line of text instead.
                self.out.push_str(&math::linear(element).0);
                Ok(())
            }
            _ if DROPPED.contains(&name) => Ok(()),
            _ if KEPT.contains(&name) => {
                self.out.push('<');
                self.out.push_str(name);
                for (attribute, value) in &element.attributes {
                    if keeps(name, attribute) {
                        self.attribute(attribute, value);
                    }
                }
                if element.children.is_empty() && matches!(name, "br" | "hr" | "col") {
                    self.out.push_str("/>");
                    return Ok(());
                }
                self.out.push('>');
                self.children(element)?;
                self.out.push_str("</");
                self.out.push_str(name);
                self.out.push('>');
                Ok(())
            }
            // Links (which would navigate the app away), prompts met elsewhere and
            // unknown elements: their content, without them.
            _ => self.children(element),
        }
    }

    fn attribute(&mut self, name: &str, value: &str) {
        let name = if name == "lang" { "xml:lang" } else { name };
        self.out.push(' ');
        self.out.push_str(name);
        self.out.push_str("=\"");
        self.out.push_str(&quick_xml::escape::escape(value));
        self.out.push('"');
    }

    fn hint(&mut self, element: &str, text: &str) {
        self.out.push_str(&format!(
            "<{element} class=\"response-hint\">{text}</{element}>"
        ));
    }

    fn prompt(&mut self, interaction: &Element) -> Result<(), PackageError> {
        if let Some(prompt) = interaction.child("prompt") {
            self.out.push_str("<p class=\"prompt\">");
            self.children(prompt)?;
            self.out.push_str("</p>");
        }
        Ok(())
    }

    fn choices(&mut self, interaction: &Element) -> Result<(), PackageError> {
        self.prompt(interaction)?;
        self.out.push_str("<ol class=\"choices\">");
        for choice in interaction.children_named("simpleChoice") {
            self.out.push_str("<li>");
            self.children(choice)?;
            self.out.push_str("</li>");
        }
        self.out.push_str("</ol>");
        Ok(())
    }

    fn image(&mut self, element: &Element) -> Result<(), PackageError> {
        let src = element.attribute("src").unwrap_or_default();
        let url = self.images.data_url(self.file, "img src", src)?;
        self.out.push_str("<img src=\"");
        self.out.push_str(&url);
        self.out.push('"');
        for (attribute, value) in &element.attributes {
            if keeps("img", attribute) {
                self.attribute(attribute, value);
            }
        }
        if element.attribute("alt").is_none() {
            self.out.push_str(" alt=\"\"");
        }
        self.out.push_str("/>");
        Ok(())
    }

    /// QTI 2.x shows images as `<object data type="image/...">`; other objects
    /// (players, applets) are not shown and their fallback content is.
    pub(super) fn object(&mut self, element: &Element) -> Result<(), PackageError> {
        let is_image = element
            .attribute("type")
            .is_some_and(|t| t.trim().starts_with("image/"));
        match (is_image, element.attribute("data")) {
            (true, Some(data)) => {
                let url = self.images.data_url(self.file, "object data", data)?;
                self.out.push_str("<img src=\"");
                self.out.push_str(&url);
                self.out.push_str("\" alt=\"");
                self.out
                    .push_str(&quick_xml::escape::escape(element.text().trim()));
                self.out.push_str("\"/>");
                Ok(())
            }
            _ => self.children(element),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xml::parse;

    #[test]
    fn words_inside_a_line_stay_one_word_and_blocks_are_apart() {
        let body = parse(
            b"<itemBody><p>What is H<sub>2</sub>O?</p><p>Choose.</p><choiceInteraction><simpleChoice identifier='a'>Water</simpleChoice></choiceInteraction></itemBody>",
            "q.xml",
        )
        .expect("parses");
        assert_eq!(stem_text(&body, 160), "What is H2O? Choose.");
        assert_eq!(stem_text(&body, 7), "What is…");
        let choice = parse(
            b"<simpleChoice identifier='a'><p>CO<sub>2</sub></p></simpleChoice>",
            "q.xml",
        )
        .expect("parses");
        assert_eq!(choice_text(&choice), "CO2");
    }
}
