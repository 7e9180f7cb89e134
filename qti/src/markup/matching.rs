//! How a match, a gap match and an order show on screen: the rows to match in a
//! table with a blank each, the options in a lettered list, and a gap match's
//! passage with its gaps numbered. The table and the list are delivery-only
//! (`choices`): paper prints its own grid of bubbles, one row per row.

use super::Writer;
use crate::error::PackageError;
use crate::xml::{Element, Node};

impl Writer<'_, '_> {
    pub(super) fn matching(&mut self, interaction: &Element) -> Result<(), PackageError> {
        self.prompt(interaction)?;
        let sets: Vec<&Element> = interaction.children_named("simpleMatchSet").collect();
        if let [rows, options] = sets.as_slice() {
            self.out
                .push_str("<table class=\"choices matching\"><tbody>");
            for row in rows.children_named("simpleAssociableChoice") {
                self.out.push_str("<tr><td>");
                self.children(row)?;
                self.out
                    .push_str("</td><td><span class=\"blank\">_____</span></td></tr>");
            }
            self.out.push_str("</tbody></table>");
            self.options(options.children_named("simpleAssociableChoice"))?;
        }
        Ok(())
    }

    /// The passage with its gaps numbered (kept on paper: the grid's rows are
    /// the gaps by number), then the words to place.
    pub(super) fn gap_match(&mut self, interaction: &Element) -> Result<(), PackageError> {
        self.prompt(interaction)?;
        for node in &interaction.children {
            match node {
                Node::Element(child) if matches!(child.name.as_str(), "prompt" | "gapText") => {}
                Node::Element(child) => self.element(child)?,
                Node::Text(text) => self.text(text),
            }
        }
        self.options(interaction.children_named("gapText"))
    }

    pub(super) fn gap(&mut self) {
        self.gaps += 1;
        self.out.push_str(&format!(
            "<span class=\"gap\">({}) __________</span>",
            self.gaps
        ));
    }

    pub(super) fn order(&mut self, interaction: &Element) -> Result<(), PackageError> {
        self.prompt(interaction)?;
        self.options(interaction.children_named("simpleChoice"))
    }

    fn options<'e>(
        &mut self,
        options: impl Iterator<Item = &'e Element>,
    ) -> Result<(), PackageError> {
        self.out.push_str("<ol class=\"choices options\">");
        for option in options {
            self.out.push_str("<li>");
            self.children(option)?;
            self.out.push_str("</li>");
        }
        self.out.push_str("</ol>");
        Ok(())
    }
}

impl Writer<'_, '_> {
    /// An associate interaction: its prompt, then its candidate pairs as the
    /// choices they are scored as (`response::associate`), "Antonio – Prospero".
    pub(super) fn pairs(&mut self, interaction: &Element) -> Result<(), PackageError> {
        self.prompt(interaction)?;
        let set: Vec<String> = interaction
            .children_named("simpleAssociableChoice")
            .map(crate::markup::choice_text)
            .collect();
        self.pair_list(&set);
        Ok(())
    }

    /// Every pair of `set`, "first – second", as lettered choices.
    pub(super) fn pair_list(&mut self, set: &[String]) {
        self.out.push_str("<ol class=\"choices\">");
        for (i, first) in set.iter().enumerate() {
            for second in &set[i + 1..] {
                let pair = format!("{first} – {second}");
                self.out.push_str("<li>");
                self.out.push_str(&quick_xml::escape::escape(pair.as_str()));
                self.out.push_str("</li>");
            }
        }
        self.out.push_str("</ol>");
    }
}
