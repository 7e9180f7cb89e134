//! Blanks in a passage: a text entry or an inline choice stands in its sentence
//! as a blank, numbered when the body has several (the parts of a
//! fill-in-the-blanks question); an inline choice's list is shown after the body,
//! by its blank's number (a list cannot stand inside a sentence), delivery-only
//! (`choices`): paper prints each blank's own options with bubbles.

use super::Writer;
use crate::error::PackageError;
use crate::xml::Element;

impl Writer<'_, '_> {
    pub(super) fn inline_choice(&mut self, element: &Element) -> Result<(), PackageError> {
        let number = self.next_blank();
        self.blank(number);
        let before = std::mem::take(&mut self.out);
        if let Some(number) = number {
            self.out
                .push_str(&format!("<p class=\"choices\">({number})</p>"));
        }
        self.out.push_str("<ol class=\"choices\">");
        for choice in element.children_named("inlineChoice") {
            self.out.push_str("<li>");
            self.children(choice)?;
            self.out.push_str("</li>");
        }
        self.out.push_str("</ol>");
        let list = std::mem::replace(&mut self.out, before);
        self.after.push_str(&list);
        Ok(())
    }

    pub(super) fn text_entry(&mut self) {
        let number = self.next_blank();
        self.blank(number);
    }

    /// The next blank's number, when the body has several.
    pub(super) fn next_blank(&mut self) -> Option<usize> {
        self.blanks.as_mut().map(|written| {
            *written += 1;
            *written
        })
    }

    /// A blank in its sentence, numbered when the body has several.
    pub(super) fn blank(&mut self, number: Option<usize>) {
        match number {
            Some(number) => self.out.push_str(&format!(
                "<span class=\"blank\">({number}) __________</span>"
            )),
            None => self.out.push_str("<span class=\"blank\">__________</span>"),
        }
    }
}
