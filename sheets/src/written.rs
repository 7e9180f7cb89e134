//! Short answers' boxes read back: a box with any ink in it waits for a person to
//! type what is written (`AttemptReading::transcribe`); an empty one is no answer.
//! A fill-in-the-blanks question has a box per blank, each typed on its own and
//! marked by that blank's keys.

use std::collections::BTreeMap;

use crate::layout::{Shape, SheetQuestion};
use crate::reading::{Answer, AttemptReading, ResolveError, WrittenAnswer};
use crate::recognise::PageReading;

/// Each of `question`'s boxes, wherever its pages put them: written ones wait for
/// a person, empty ones are no answer.
pub(crate) fn read_boxes(
    question: &SheetQuestion,
    pages: &BTreeMap<u16, &PageReading>,
    reading: &mut AttemptReading,
) {
    // A blank picked from its list is a row of bubbles, read as a grid's.
    let parts: Vec<i32> = match &question.shape {
        Shape::Blanks { options } => (1..=options.len() as i32)
            .filter(|part| options[*part as usize - 1] == 0)
            .collect(),
        _ => vec![0],
    };
    for part in parts {
        let found = pages.iter().find_map(|(number, page)| {
            page.essays
                .iter()
                .find(|e| e.question == question.order && e.part == part)
                .map(|crop| (*number, crop))
        });
        match found.filter(|(_, crop)| crop.written) {
            Some((page, crop)) => reading.written.push(WrittenAnswer {
                question: question.order,
                part,
                page,
                png: crop.png.clone(),
                ink: crop.ink,
            }),
            None => reading.answers.push(Answer::Text {
                question: question.order,
                part,
                text: None,
            }),
        }
    }
}

impl AttemptReading {
    /// What a person read in a short answer's box, typed (trimmed; nothing typed
    /// is no answer).
    pub fn transcribe(&mut self, question: i32, typed: &str) -> Result<(), ResolveError> {
        self.transcribe_part(question, 0, typed)
    }

    /// What a person read in the box of blank `part` of `question` (0: a short
    /// answer's one box), typed.
    pub fn transcribe_part(
        &mut self,
        question: i32,
        part: i32,
        typed: &str,
    ) -> Result<(), ResolveError> {
        let index = self
            .written
            .iter()
            .position(|written| written.question == question && written.part == part)
            .ok_or(ResolveError::NotWritten { question, part })?;
        self.written.remove(index);
        let typed = typed.trim();
        self.insert_answer(Answer::Text {
            question,
            part,
            text: (!typed.is_empty()).then(|| typed.to_owned()),
        });
        Ok(())
    }
}
