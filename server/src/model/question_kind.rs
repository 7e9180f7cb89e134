//! The kinds of question the service delivers and how each is marked.

/// How a question is answered and marked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuestionKind {
    /// One choice is correct; marked automatically.
    MultipleChoice,
    /// Several choices may be selected; marked automatically.
    MultipleResponse,
    /// A free response (text or a scanned image) that a person scores.
    Essay,
    /// A short typed answer marked against its keys (QTI's text entry, imported).
    TextEntry,
    /// Parts (rows, positions, gaps) each answered with one of the question's
    /// choices, marked by pairs (`model::matching`; imported).
    Matching,
    /// Blanks in a passage, each answered with words and marked by its own keys:
    /// the sum of the blanks' values (`model::fill_in`; imported).
    FillIn,
    /// Places marked on a picture, answered with points and marked by the
    /// picture's areas (`model::points`; imported).
    Point,
}

impl QuestionKind {
    pub fn as_str(self) -> &'static str {
        match self {
            QuestionKind::MultipleChoice => "multiple_choice",
            QuestionKind::MultipleResponse => "multiple_response",
            QuestionKind::Essay => "essay",
            QuestionKind::TextEntry => "text_entry",
            QuestionKind::Matching => "matching",
            QuestionKind::FillIn => "fill_in_blanks",
            QuestionKind::Point => "point",
        }
    }

    /// The kind stored as `as_str` gives it.
    pub fn parse(text: &str) -> Option<Self> {
        [
            QuestionKind::MultipleChoice,
            QuestionKind::MultipleResponse,
            QuestionKind::Essay,
            QuestionKind::TextEntry,
            QuestionKind::Matching,
            QuestionKind::FillIn,
            QuestionKind::Point,
        ]
        .into_iter()
        .find(|kind| kind.as_str() == text)
    }

    /// Whether answers to this kind need a scorer (and so a ScoringTask).
    pub fn needs_scorer(self) -> bool {
        matches!(self, QuestionKind::Essay)
    }
}
