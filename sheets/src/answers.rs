//! From the pages of one attempt's sheet to its answers. A question's answer is
//! taken only when every bubble of it is clearly marked or clearly blank and a
//! single-choice question has at most one mark; anything else is a doubt, shown to
//! a person with the question's crop, and never guessed. Every page of the sheet
//! must be there, once, so that an upload never leaves out what a missing page
//! held. A short answer's box is never read by machine: with ink in it, it waits
//! for a person to type what is written, and its keys mark what they type.

use std::collections::BTreeMap;

use crate::layout::{lay_out, printed_in, Shape, SheetQuestion};
pub use crate::reading::{
    Answer, AssembleError, AttemptReading, Doubt, DoubtReason, Doubted, ResolveError, WrittenAnswer,
};
use crate::recognise::{BubbleReading, MarkKind, PageReading, Verdict};
use crate::written::read_boxes;

/// The answers on `pages`, all of one attempt, whose snapshot asks `questions`.
pub fn assemble(
    questions: &[SheetQuestion],
    pages: &[PageReading],
) -> Result<AttemptReading, AssembleError> {
    let attempt = pages.first().map_or(0, |page| page.code.attempt);
    let edition = pages
        .first()
        .map_or(crate::code::EDITION, |page| page.code.edition);
    if let Some(other) = pages.iter().find(|page| page.code.edition != edition) {
        return Err(AssembleError::Editions {
            attempt,
            first: edition,
            other: other.code.edition,
        });
    }
    // The questions as the pages were printed: a page of the first edition had
    // no short answers on it.
    let questions = &printed_in(questions, edition);
    let laid_out = lay_out(questions).len() as u16;
    let mut by_number: BTreeMap<u16, &PageReading> = BTreeMap::new();
    for page in pages {
        if page.code.attempt != attempt {
            return Err(AssembleError::Mixed { attempt });
        }
        if page.code.pages != laid_out {
            return Err(AssembleError::Pages {
                attempt,
                printed: page.code.pages,
                laid_out,
            });
        }
        if by_number.insert(page.code.page, page).is_some() {
            return Err(AssembleError::Duplicate {
                attempt,
                page: page.code.page,
            });
        }
    }
    if let Some(page) = (1..=laid_out).find(|page| !by_number.contains_key(page)) {
        return Err(AssembleError::Missing {
            attempt,
            page,
            pages: laid_out,
        });
    }
    let mut reading = AttemptReading {
        attempt,
        answers: Vec::new(),
        doubts: Vec::new(),
        written: Vec::new(),
    };
    for question in questions {
        let Some((number, page)) = by_number.iter().find(|(_, page)| {
            page.bubbles.iter().any(|b| b.question == question.order)
                || page.essays.iter().any(|e| e.question == question.order)
                || page.places.iter().any(|p| p.question == question.order)
        }) else {
            continue;
        };
        match &question.shape {
            Shape::Essay { .. } => {
                let crop = page.essays.iter().find(|e| e.question == question.order);
                match crop {
                    // A little ink, too little to be sure: a person looks.
                    Some(crop) if crop.faint => reading.doubts.push(Doubt {
                        question: question.order,
                        part: 0,
                        page: *number,
                        most: 1,
                        reason: DoubtReason::Faint,
                        bubbles: vec![BubbleReading {
                            question: question.order,
                            part: 0,
                            choice: 1,
                            darkness: crop.ink,
                            verdict: Verdict::Unsure,
                            kind: MarkKind::Faint,
                        }],
                        doubted: Doubted::Essay {
                            png: crop.png.clone(),
                        },
                    }),
                    _ => reading.answers.push(Answer::Essay {
                        question: question.order,
                        png: crop.filter(|c| c.written).map(|c| c.png.clone()),
                    }),
                }
            }
            Shape::Choices { most, .. } => {
                let bubbles: Vec<BubbleReading> = page
                    .bubbles
                    .iter()
                    .filter(|b| b.question == question.order)
                    .copied()
                    .collect();
                let (selected, reason) = read_row(&bubbles, *most);
                match reason {
                    Some(reason) => reading.doubts.push(Doubt {
                        question: question.order,
                        part: 0,
                        page: *number,
                        most: *most,
                        reason,
                        bubbles,
                        doubted: Doubted::Bubbles,
                    }),
                    None => reading.answers.push(Answer::Choices {
                        question: question.order,
                        selected,
                    }),
                }
            }
            Shape::Grid { parts, .. } => {
                let rows: Vec<i32> = (1..=*parts as i32).collect();
                let decided = read_grid(question.order, &rows, &by_number, &mut reading);
                reading.answers.push(Answer::Parts {
                    question: question.order,
                    parts: decided,
                });
            }
            Shape::Number { positions } => {
                let rows: Vec<i32> = (1..=*positions as i32).collect();
                let decided = read_grid(question.order, &rows, &by_number, &mut reading);
                reading.answers.push(Answer::Number {
                    question: question.order,
                    rows: decided,
                });
            }
            Shape::Picture {
                width,
                height,
                most,
            } => {
                let Some(read) = page.places.iter().find(|p| p.question == question.order) else {
                    continue;
                };
                // From shares of the picture to its own pixels.
                let pixel =
                    |share: f32, hundredths: u32| (share * hundredths as f32 / 10.0).round() / 10.0;
                let marks: Vec<(f32, f32)> = read
                    .marks
                    .iter()
                    .map(|(x, y)| (pixel(*x, *width), pixel(*y, *height)))
                    .collect();
                let too_many = *most > 0 && marks.len() > *most;
                if read.unsure || too_many {
                    reading.doubts.push(places_doubt(
                        question.order,
                        *number,
                        *most,
                        read.unsure,
                        marks,
                    ));
                } else {
                    reading.answers.push(Answer::Places {
                        question: question.order,
                        places: marks,
                    });
                }
            }
            Shape::Written => read_boxes(question, &by_number, &mut reading),
            Shape::Blanks { options } => {
                // Picked blanks are rows of bubbles; typed ones boxes.
                let picked: Vec<i32> = (1..=options.len() as i32)
                    .filter(|part| options[*part as usize - 1] > 0)
                    .collect();
                if !picked.is_empty() {
                    let decided = read_grid(question.order, &picked, &by_number, &mut reading);
                    reading.answers.push(Answer::Parts {
                        question: question.order,
                        parts: decided,
                    });
                }
                read_boxes(question, &by_number, &mut reading);
            }
        }
    }
    Ok(reading)
}

/// A picture a person must decide: its `marks` (in the picture's pixels)
/// lettered as bubbles are (choice 1 is A), each as marked; ink that is no mark
/// (`unsure`) makes it faint, too many marks several. `most` 0 (any number)
/// takes every mark.
fn places_doubt(
    question: i32,
    page: u16,
    most: usize,
    unsure: bool,
    marks: Vec<(f32, f32)>,
) -> Doubt {
    Doubt {
        question,
        part: 0,
        page,
        most: if most == 0 { marks.len() } else { most },
        reason: if unsure {
            DoubtReason::Faint
        } else {
            DoubtReason::SeveralMarks
        },
        bubbles: (1..=marks.len() as i32)
            .map(|choice| BubbleReading {
                question,
                part: 0,
                choice,
                darkness: 1.0,
                verdict: Verdict::Marked,
                kind: MarkKind::Cross,
            })
            .collect(),
        doubted: Doubted::Picture { places: marks },
    }
}

/// A row of bubbles read: the choices marked, and why a person must decide it (a
/// faint mark; more marks than the row takes, `most`), if they must.
fn read_row(bubbles: &[BubbleReading], most: usize) -> (Vec<i32>, Option<DoubtReason>) {
    let marked: Vec<i32> = bubbles
        .iter()
        .filter(|b| b.verdict == Verdict::Marked)
        .map(|b| b.choice)
        .collect();
    let reason = if bubbles.iter().any(|b| b.verdict == Verdict::Unsure) {
        Some(DoubtReason::Faint)
    } else if marked.len() > most {
        Some(DoubtReason::SeveralMarks)
    } else {
        None
    };
    (marked, reason)
}

/// A grid's rows (or a fill-in-the-blanks question's picked blanks), wherever
/// its pages put them: each row read as a single-choice question; a row with a
/// faint mark or two marks is a doubt of its own. The rows decided, `(part,
/// choice)`.
fn read_grid(
    question: i32,
    parts: &[i32],
    pages: &BTreeMap<u16, &PageReading>,
    reading: &mut AttemptReading,
) -> Vec<(i32, i32)> {
    let mut decided = Vec::new();
    for &part in parts {
        let Some((number, page)) = pages.iter().find(|(_, page)| {
            page.bubbles
                .iter()
                .any(|b| b.question == question && b.part == part)
        }) else {
            continue;
        };
        let bubbles: Vec<BubbleReading> = page
            .bubbles
            .iter()
            .filter(|b| b.question == question && b.part == part)
            .copied()
            .collect();
        let (marked, reason) = read_row(&bubbles, 1);
        match reason {
            Some(reason) => reading.doubts.push(Doubt {
                question,
                part,
                page: *number,
                most: 1,
                reason,
                bubbles,
                doubted: Doubted::Bubbles,
            }),
            None => decided.extend(marked.first().map(|choice| (part, *choice))),
        }
    }
    decided
}

impl AttemptReading {
    /// A person's decision on a doubt: the choices they see marked.
    pub fn resolve(&mut self, question: i32, selected: Vec<i32>) -> Result<(), ResolveError> {
        self.resolve_part(question, 0, selected)
    }

    /// A person's decision on a doubt of a grid's row `part` (0: a choice
    /// question's): the choice they see marked, or none.
    pub fn resolve_part(
        &mut self,
        question: i32,
        part: i32,
        mut selected: Vec<i32>,
    ) -> Result<(), ResolveError> {
        let index = self
            .doubts
            .iter()
            .position(|doubt| doubt.question == question && doubt.part == part)
            .ok_or(if part == 0 {
                ResolveError::NotInDoubt(question)
            } else {
                ResolveError::PartNotInDoubt { question, part }
            })?;
        let doubt = &self.doubts[index];
        selected.sort_unstable();
        selected.dedup();
        if let Some(choice) = selected
            .iter()
            .find(|choice| !doubt.bubbles.iter().any(|b| b.choice == **choice))
        {
            return Err(ResolveError::Choice {
                question,
                choice: *choice,
            });
        }
        if selected.len() > doubt.most {
            return Err(ResolveError::TooMany {
                question,
                most: doubt.most,
            });
        }
        let doubt = self.doubts.remove(index);
        match doubt.doubted {
            Doubted::Picture { places: marks } => {
                // A picture: the places of the crosses picked.
                let places = selected
                    .iter()
                    .filter_map(|choice| marks.get(usize::try_from(choice - 1).ok()?).copied())
                    .collect();
                self.insert_answer(Answer::Places { question, places });
                return Ok(());
            }
            // An essay's frame: picked, it is written; not, it is blank.
            Doubted::Essay { png } => {
                let png = (!selected.is_empty()).then_some(png);
                self.insert_answer(Answer::Essay { question, png });
                return Ok(());
            }
            Doubted::Bubbles => {}
        }
        if part > 0 {
            // The grid's (or the number's) answer holds its decided rows; this
            // one joins them.
            let rows = self.answers.iter_mut().find_map(|answer| match answer {
                Answer::Parts { question: q, parts } if *q == question => Some(parts),
                Answer::Number { question: q, rows } if *q == question => Some(rows),
                _ => None,
            });
            if let Some(rows) = rows {
                rows.extend(selected.first().map(|choice| (part, *choice)));
                rows.sort_unstable();
            }
            return Ok(());
        }
        self.insert_answer(Answer::Choices { question, selected });
        Ok(())
    }
}
