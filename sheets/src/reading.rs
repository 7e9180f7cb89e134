//! What an attempt's pages are read into: the answers decided, the doubts and the
//! short answers left to a person, and why a reading or a decision is refused.
//! Plain data, shared by the reading of marks (`answers`) and of short answers'
//! boxes (`written`).

use crate::recognise::BubbleReading;

/// What one question's answer is, as read.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// The choice numbers marked, in order (none when the question was left blank).
    Choices { question: i32, selected: Vec<i32> },
    /// The essay's frame as a PNG, or `None` when nothing was written in it.
    Essay { question: i32, png: Option<Vec<u8>> },
    /// A grid's decided rows: `(part, choice)`, by part; a row left blank is not
    /// in it, nor is one still in doubt.
    Parts {
        question: i32,
        parts: Vec<(i32, i32)>,
    },
    /// A number's decided rows: `(row, choice)`, by row ([`Answer::number_text`]
    /// reads them); a row left blank is not in it, nor is one still in doubt.
    Number {
        question: i32,
        rows: Vec<(i32, i32)>,
    },
    /// A short answer (or a blank: `part` > 0) as a person typed it from its box
    /// (`None`: the box was empty, or they saw nothing written).
    Text {
        question: i32,
        part: i32,
        text: Option<String>,
    },
    /// The places marked on a picture, in its own pixels from its top left
    /// corner, to a tenth of a pixel (none: nothing marked).
    Places {
        question: i32,
        places: Vec<(f32, f32)>,
    },
}

impl Answer {
    pub fn question(&self) -> i32 {
        match self {
            Answer::Choices { question, .. }
            | Answer::Essay { question, .. }
            | Answer::Parts { question, .. }
            | Answer::Number { question, .. }
            | Answer::Text { question, .. }
            | Answer::Places { question, .. } => *question,
        }
    }

    /// A number's rows as the characters they mark, top row first; rows left
    /// blank are passed over (a number written from the second row, or ending
    /// before the last, is the same number). Empty for no mark at all.
    pub fn number_text(rows: &[(i32, i32)]) -> String {
        let mut rows = rows.to_vec();
        rows.sort_unstable();
        rows.iter()
            .filter_map(|(_, choice)| {
                let index = usize::try_from(choice - 1).ok()?;
                crate::layout::NUMBER_KEYS.get(index).copied()
            })
            .collect()
    }

    /// Where it goes among the answers: its question, then its blank.
    fn order(&self) -> (i32, i32) {
        match self {
            Answer::Text { question, part, .. } => (*question, *part),
            other => (other.question(), 0),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DoubtReason {
    /// A bubble between blank and marked: a light mark, a poor erasure, a smudge.
    Faint,
    /// Two or more marks on a question that takes one.
    SeveralMarks,
}

/// A question a person must decide, with what was measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Doubt {
    pub question: i32,
    /// A grid's row in doubt (0 for a choice question).
    pub part: i32,
    pub page: u16,
    /// The most choices it takes (1: one).
    pub most: usize,
    pub reason: DoubtReason,
    pub bubbles: Vec<BubbleReading>,
    /// What is in doubt: a row of bubbles, a picture's crosses, an essay's
    /// frame with a little ink.
    pub doubted: Doubted,
}

/// What a person decides on, beside the doubt's bubbles.
#[derive(Debug, Clone, PartialEq)]
pub enum Doubted {
    /// A row of bubbles (a choice question's, a grid's row): its bubbles.
    Bubbles,
    /// A picture's crosses, lettered A, B, … as the doubt's bubbles name them
    /// (choice 1, 2, …), in the picture's pixels: the places a person picks
    /// from (perhaps none, when ink that is no cross made it unsure).
    Picture { places: Vec<(f32, f32)> },
    /// An essay's frame with ink in it, too little to be sure it is writing (a
    /// word or two in a large frame, or a smudge): its one bubble (A) is "a
    /// short answer", picked to upload the frame; none, to leave it blank.
    Essay { png: Vec<u8> },
}

/// An attempt's answers as read from its pages.
#[derive(Debug, Clone, PartialEq)]
pub struct AttemptReading {
    pub attempt: i32,
    /// The questions decided, in order.
    pub answers: Vec<Answer>,
    /// The questions left to a person, in order.
    pub doubts: Vec<Doubt>,
    /// The short answers left to a person to type, in order.
    pub written: Vec<WrittenAnswer>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AssembleError {
    #[error("attempt {attempt}: page {page} was scanned more than once")]
    Duplicate { attempt: i32, page: u16 },
    #[error("attempt {attempt}: page {page} of {pages} is missing")]
    Missing { attempt: i32, page: u16, pages: u16 },
    #[error("attempt {attempt}: the page's code says {printed} pages, but the snapshot's sheet has {laid_out}")]
    Pages {
        attempt: i32,
        printed: u16,
        laid_out: u16,
    },
    #[error("attempt {attempt}: the pages are of more than one attempt")]
    Mixed { attempt: i32 },
    #[error("attempt {attempt}: the pages were printed with two layouts (editions {first} and {other}); scan one printing")]
    Editions { attempt: i32, first: u8, other: u8 },
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResolveError {
    #[error("question {0} is not in doubt")]
    NotInDoubt(i32),
    #[error("row {part} of question {question} is not in doubt")]
    PartNotInDoubt { question: i32, part: i32 },
    #[error("question {question} has no choice {choice}")]
    Choice { question: i32, choice: i32 },
    #[error("question {question} takes {}", if *most == 1 { "one choice".to_owned() } else { format!("at most {most} choices") })]
    TooMany { question: i32, most: usize },
    #[error("question {question}{} has no written answer waiting to be typed", if *part > 0 { format!(", blank {part},") } else { String::new() })]
    NotWritten { question: i32, part: i32 },
}

/// A short answer's box (or a blank's) with ink in it, waiting to be typed.
#[derive(Debug, Clone, PartialEq)]
pub struct WrittenAnswer {
    pub question: i32,
    /// The blank (1, 2, …); 0 for a short answer's one box.
    pub part: i32,
    pub page: u16,
    /// The box's inside, upright, as a PNG.
    pub png: Vec<u8>,
    /// The share of the box that is ink.
    pub ink: f32,
}

impl AttemptReading {
    /// `answer` among the decided ones, in the questions' order (a blank's by its
    /// number after its question's others).
    pub(crate) fn insert_answer(&mut self, answer: Answer) {
        let at = self
            .answers
            .iter()
            .position(|decided| decided.order() > answer.order())
            .unwrap_or(self.answers.len());
        self.answers.insert(at, answer);
    }

    /// Whether every question is decided and every short answer typed, so that
    /// the upload may go.
    pub fn is_decided(&self) -> bool {
        self.doubts.is_empty() && self.written.is_empty()
    }
}
