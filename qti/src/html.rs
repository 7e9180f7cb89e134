//! HTML written inside text, as QTI 1.2 (`<mattext texttype="text/html">`), Canvas
//! and Moodle carry a question's words, read into the same element tree as XML so
//! that the one markup writer (`markup`) and its allow-list handle both. html5ever's
//! tokenizer reads the text as a browser would (named character references such as
//! `&times;` and `&nbsp;`, unquoted attributes, `<br>` without a slash); the tree is
//! built here, simply: void elements hold nothing, an end tag closes the nearest
//! open element of its name (and what is open inside it), and a stray end tag is
//! ignored. The contents of `script`, `style`, `textarea` and `title` stay text, and
//! the writer drops those elements whole.

use std::cell::RefCell;

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{
    BufferQueue, Tag, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};

use crate::error::PackageError;
use crate::limits;
use crate::xml::{Element, Node};

const VOID: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
    "track", "wbr",
];

/// `html` as the children of an element named `name`. Refused, naming `file`, when
/// its elements nest deeper or are more than an XML document's may.
pub fn parse(html: &str, name: &str, file: &str) -> Result<Element, PackageError> {
    let sink = TreeSink {
        tree: RefCell::new(Tree {
            stack: vec![Element {
                name: name.to_owned(),
                attributes: Vec::new(),
                children: Vec::new(),
            }],
            elements: 0,
            too_big: None,
        }),
    };
    let tokenizer = Tokenizer::new(sink, TokenizerOpts::default());
    let input = BufferQueue::default();
    input.push_back(StrTendril::from_slice(html));
    let _ = tokenizer.feed(&input);
    tokenizer.end();
    let mut tree = tokenizer.sink.tree.into_inner();
    if let Some(problem) = tree.too_big {
        return Err(PackageError::new(file, problem));
    }
    while tree.stack.len() > 1 {
        tree.close_top();
    }
    Ok(tree.stack.remove(0))
}

struct TreeSink {
    tree: RefCell<Tree>,
}

struct Tree {
    /// The open elements; the first is the one returned.
    stack: Vec<Element>,
    elements: usize,
    too_big: Option<String>,
}

impl Tree {
    fn close_top(&mut self) {
        if let Some(element) = self.stack.pop() {
            self.append(Node::Element(element));
        }
    }

    fn append(&mut self, node: Node) {
        if let Some(parent) = self.stack.last_mut() {
            parent.children.push(node);
        }
    }

    fn text(&mut self, text: &str) {
        let Some(parent) = self.stack.last_mut() else {
            return;
        };
        match parent.children.last_mut() {
            Some(Node::Text(last)) => last.push_str(text),
            _ => parent.children.push(Node::Text(text.to_owned())),
        }
    }

    fn start(&mut self, tag: Tag) -> TokenSinkResult<()> {
        self.elements += 1;
        if self.elements > limits::MAX_XML_ELEMENTS {
            self.too_big = Some(format!(
                "its HTML has more than {} elements",
                limits::MAX_XML_ELEMENTS
            ));
        }
        if self.stack.len() > limits::MAX_XML_DEPTH {
            self.too_big = Some(format!(
                "its HTML nests deeper than {}",
                limits::MAX_XML_DEPTH
            ));
        }
        if self.too_big.is_some() {
            return TokenSinkResult::Continue;
        }
        let name = tag.name.to_string();
        let element = Element {
            name: name.clone(),
            attributes: tag
                .attrs
                .iter()
                .map(|a| (a.name.local.to_string(), a.value.to_string()))
                .collect(),
            children: Vec::new(),
        };
        if VOID.contains(&name.as_str()) || tag.self_closing {
            self.append(Node::Element(element));
            return TokenSinkResult::Continue;
        }
        self.stack.push(element);
        match name.as_str() {
            "script" => TokenSinkResult::RawData(RawKind::ScriptData),
            "style" => TokenSinkResult::RawData(RawKind::Rawtext),
            "textarea" | "title" => TokenSinkResult::RawData(RawKind::Rcdata),
            _ => TokenSinkResult::Continue,
        }
    }

    fn end(&mut self, tag: &Tag) {
        let name = tag.name.as_ref();
        // Never the first: that is the element returned, not one of the HTML's.
        if let Some(open) = self.stack.iter().skip(1).rposition(|e| e.name == name) {
            while self.stack.len() > open + 1 {
                self.close_top();
            }
        }
    }
}

impl TokenSink for TreeSink {
    type Handle = ();

    fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
        let mut tree = self.tree.borrow_mut();
        match token {
            Token::TagToken(tag) => match tag.kind {
                TagKind::StartTag => return tree.start(tag),
                TagKind::EndTag => tree.end(&tag),
            },
            Token::CharacterTokens(text) => tree.text(&text),
            Token::NullCharacterToken => tree.text("\u{fffd}"),
            Token::CommentToken(_)
            | Token::DoctypeToken(_)
            | Token::EOFToken
            | Token::ParseError(_) => {}
        }
        TokenSinkResult::Continue
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(element: &Element) -> Vec<String> {
        element
            .descendants()
            .iter()
            .map(|e| e.name.clone())
            .collect()
    }

    #[test]
    fn html_is_read_as_a_browser_reads_it() {
        let read = parse(
            "<p>What is 7 &times; 6?<br>H<sub>2</sub>O&nbsp;<img src=leaf.png alt='a leaf'></p>",
            "body",
            "q.xml",
        )
        .unwrap();
        assert_eq!(names(&read), ["p", "br", "sub", "img"]);
        assert_eq!(read.text(), "What is 7 × 6?H2O\u{a0}");
        let image = read.descendants()[3];
        assert_eq!(image.attribute("src"), Some("leaf.png"));
        assert_eq!(image.attribute("alt"), Some("a leaf"));
    }

    #[test]
    fn unclosed_and_stray_tags_make_a_tree_all_the_same() {
        let read = parse("<b>bold <i>both</b> after</i></p>text", "body", "q.xml").unwrap();
        assert_eq!(names(&read), ["b", "i"]);
        assert_eq!(read.text(), "bold both aftertext");
    }

    #[test]
    fn a_script_stays_text_inside_its_element() {
        let read = parse(
            "<script>if (a < b) { x('<p>') }</script>ok",
            "body",
            "q.xml",
        )
        .unwrap();
        assert_eq!(names(&read), ["script"]);
        assert_eq!(read.descendants()[0].text(), "if (a < b) { x('<p>') }");
    }

    #[test]
    fn deep_nesting_is_refused() {
        let deep = "<span>".repeat(limits::MAX_XML_DEPTH + 5);
        let error = parse(&deep, "body", "q.xml").unwrap_err();
        assert!(error.to_string().contains("nests deeper"), "{error}");
    }
}
