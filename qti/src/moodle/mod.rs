//! Moodle XML question banks: a `<quiz>` of `<question type="…">`, as Moodle's
//! question bank exports them. Categories (`<question type="category">`) become
//! the topics of the questions after them; each question is translated into the
//! QTI 2.1 item that asks and scores the same (`question`) and read by the 2.x
//! reader from there; what cannot be translated is skipped with why.

mod cloze;
mod gaps;
mod matching;
mod question;
mod text;

use std::collections::HashMap;

use crate::build::{Document, Translated};
use crate::error::PackageError;
use crate::xml::Element;

pub fn read(root: &Element, file: &str) -> Result<Document, PackageError> {
    if root.name != "quiz" {
        return Err(PackageError::new(
            file,
            format!("the document element is <{}>, not <quiz>", root.name),
        ));
    }
    let mut topic = None;
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut items = Vec::new();
    for question in root.children_named("question") {
        let kind = question.attribute("type").unwrap_or_default();
        if kind == "category" {
            topic = category(question);
            continue;
        }
        let identifier = identifier(question, &mut seen);
        items.push(
            match question::translate(question, kind, &identifier, file)? {
                Ok(element) => Translated::Item {
                    element,
                    topic: topic.clone(),
                },
                Err(reason) => Translated::Skipped { identifier, reason },
            },
        );
    }
    Ok(Document { title: None, items })
}

/// The question's ID number, else its name, made unique in the bank (`Name (2)`).
fn identifier(question: &Element, seen: &mut HashMap<String, usize>) -> String {
    let field = |name: &str| {
        question
            .child(name)
            .map(|e| match e.child("text") {
                Some(text) => text.text(),
                None => e.text(),
            })
            .map(|t| t.trim().to_owned())
            .filter(|t| !t.is_empty())
    };
    let base = field("idnumber")
        .or_else(|| field("name"))
        .unwrap_or_else(|| "question".into());
    let count = seen.entry(base.clone()).or_insert(0);
    *count += 1;
    if *count == 1 {
        base
    } else {
        format!("{base} ({count})")
    }
}

/// A category's path as a topic: `$course$/top/Biology/Cells` is `Biology/Cells`.
fn category(question: &Element) -> Option<String> {
    let path = question.child("category")?.child("text")?.text();
    let parts: Vec<&str> = path
        .trim()
        .split('/')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .filter(|p| !(p.starts_with('$') && p.ends_with('$')))
        .collect();
    let parts = match parts.split_first() {
        Some((&"top", rest)) => rest,
        _ => &parts[..],
    };
    (!parts.is_empty()).then(|| parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xml::Node;

    fn category_of(path: &str) -> Option<String> {
        let text = Element {
            name: "text".into(),
            attributes: Vec::new(),
            children: vec![Node::Text(path.into())],
        };
        let field = Element {
            name: "category".into(),
            attributes: Vec::new(),
            children: vec![Node::Element(text)],
        };
        category(&Element {
            name: "question".into(),
            attributes: Vec::new(),
            children: vec![Node::Element(field)],
        })
    }

    #[test]
    fn a_categorys_path_is_its_topic_without_moodles_markers() {
        assert_eq!(
            category_of("$course$/top/Biology/Cells").as_deref(),
            Some("Biology/Cells")
        );
        assert_eq!(category_of("$module$/Iota").as_deref(), Some("Iota"));
        assert_eq!(category_of("$course$/top"), None);
    }
}
