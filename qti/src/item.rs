//! What a package is read into: its items (markup, the one interaction's
//! response, its scoring), the test's score bands, and the items skipped with why.
//! Plain data, shared by the readers (`package`, `response`, `test_order`).

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QtiVersion {
    /// QTI 1.2 (`questestinterop`: Canvas, Blackboard, Questionmark).
    V1,
    /// QTI 2.0, 2.1 or 2.2.
    V2,
    V3,
    /// Not QTI: a Moodle XML question bank.
    Moodle,
}

impl QtiVersion {
    pub fn as_str(self) -> &'static str {
        match self {
            QtiVersion::V1 => "1.2",
            QtiVersion::V2 => "2.x",
            QtiVersion::V3 => "3.0",
            QtiVersion::Moodle => "Moodle XML",
        }
    }
}

#[derive(Debug, Clone)]
pub struct Package {
    pub version: QtiVersion,
    /// The manifest's identifier.
    pub identifier: String,
    pub test_identifier: Option<String>,
    /// The test's title, else the manifest's, else empty (the caller names it).
    pub title: String,
    pub language: Option<String>,
    /// The items imported, in the test's order.
    pub items: Vec<Item>,
    pub skipped: Vec<SkippedItem>,
    pub score_bands: Vec<ScoreBand>,
    /// Distinct images inlined into the markup.
    pub images: usize,
    /// What was read differently from how the package meant it.
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScoreBand {
    pub min_percentage: i32,
    pub title: String,
}

#[derive(Debug, Clone)]
pub struct Item {
    pub identifier: String,
    /// The item's file in the package.
    pub file: String,
    pub title: String,
    /// What it asks, in words, at most 160 characters (for reports).
    pub stem: String,
    pub language: Option<String>,
    /// A topic path (`Biology/Cells`): the test's category for it, else its
    /// manifest classification.
    pub topic: Option<String>,
    /// An XHTML fragment; images inlined.
    pub markup: String,
    pub response: Response,
    pub max_score: i32,
    pub notes: Vec<String>,
    /// A template item's template, as XML with its images inlined: each snapshot
    /// draws its own instance of it (`instantiate`); the item itself is one draw.
    pub template: Option<String>,
    /// The template variables of the draw the item is, `(name, value)` in the
    /// order declared (empty for an item that is no template).
    pub values: Vec<(String, String)>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Response {
    Choice {
        multiple: bool,
        /// At most this many may be selected (0: any number).
        max_choices: usize,
        shuffle: bool,
        /// In the item's order.
        choices: Vec<Choice>,
        scoring: ChoiceScoring,
    },
    Text {
        /// An essay (extended text) rather than a short entry.
        extended: bool,
        scoring: TextScoring,
    },
    /// A scan or photo of work on paper (upload), or a drawing.
    Image { drawing: bool },
    /// Rows, each paired with one of the options they share: QTI's match and gap
    /// match (a gap is a row) and order (a position is a row) interactions, a
    /// Canvas or Moodle matching question. Scored as QTI scores the pairs: the
    /// maximum for exactly the key's pairs, or the sum of the pairs' values.
    Matching {
        /// What each row asks (`Capulet`, `Gap 1`, `Position 1`), in order.
        rows: Vec<String>,
        /// The options every row picks from, in the item's order.
        options: Vec<MatchOption>,
        shuffle: bool,
        /// Each pair the key or the mapping names.
        pairs: Vec<PairKey>,
        scoring: ChoiceScoring,
    },
    /// Points marked on a picture: QTI's select point, and position object (an
    /// object placed on a picture, at a point each time). Scored as QTI's
    /// `map_response_point`: each area holding a point adds its value once;
    /// the default when no area holds one; within the bounds.
    Points {
        /// The picture's size in its own pixels, the unit of points and areas.
        width: f64,
        height: f64,
        /// At most this many points (0: any number).
        most: usize,
        areas: Vec<Area>,
        scoring: ChoiceScoring,
    },
    /// Blanks in a passage (several text entries or inline choices), each marked
    /// by its own keys: under map_response the question's score is the sum of the
    /// blanks' values (a blank no key accepts: the default), rounded as every
    /// mapped sum is; under match_correct the maximum when every blank is right.
    Blanks {
        /// In the passage's order.
        blanks: Vec<Blank>,
        scoring: ChoiceScoring,
    },
}

/// An area of a picture that points are scored by (QTI's `areaMapEntry`).
#[derive(Debug, Clone, PartialEq)]
pub struct Area {
    /// `circle`, `rect`, `ellipse`, `poly` or `default` (the whole picture).
    pub shape: String,
    /// In the picture's own pixels (a percentage already read against its size):
    /// circle x, y, r; rect left, top, right, bottom; ellipse x, y, rx, ry; poly
    /// x, y pairs; default none.
    pub coords: Vec<f64>,
    /// What a point in it is worth (once, however many points it holds).
    pub value: f64,
}

/// A blank of a passage: words typed, or one of its own options picked.
#[derive(Debug, Clone, PartialEq)]
pub enum Blank {
    /// A text entry: its keys, every one with its value.
    Typed(Vec<TextKey>),
    /// An inline choice (a dropdown): its options; a correct one is worth its
    /// mapped value, an option without one the rule's default.
    Picked { options: Vec<Choice>, shuffle: bool },
}

impl Blank {
    /// A typed blank's keys; none for a picked one.
    pub fn typed_keys(&self) -> &[TextKey] {
        match self {
            Blank::Typed(keys) => keys,
            Blank::Picked { .. } => &[],
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct MatchOption {
    pub identifier: String,
    pub text: String,
    /// QTI's `fixed`: kept in place when the options are shuffled.
    pub fixed: bool,
}

/// A row paired with an option (indices into `rows` and `options`).
#[derive(Debug, Clone, PartialEq)]
pub struct PairKey {
    pub row: usize,
    pub option: usize,
    /// In the correct response.
    pub correct: bool,
    /// map_response's value for the pair, if the mapping names it.
    pub mapped_value: Option<f64>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    pub identifier: String,
    pub text: String,
    pub correct: bool,
    /// map_response's value for it, if the mapping names it.
    pub mapped_value: Option<f64>,
    /// QTI's `fixed`: kept in place when the choices are shuffled.
    pub fixed: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ChoiceScoring {
    /// The maximum for exactly the correct choices, else 0.
    MatchCorrect,
    /// The sum of the selected choices' values (unmapped ones: the default),
    /// within the bounds.
    MapResponse {
        default_value: f64,
        lower_bound: Option<f64>,
        upper_bound: Option<f64>,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub enum TextScoring {
    /// A person scores it.
    Person,
    /// Marked against keys: the first key the answer equals gives its value (a
    /// correct response's key, without a value: the maximum); none gives the
    /// default. Within the bounds.
    Key {
        keys: Vec<TextKey>,
        default_value: f64,
        lower_bound: Option<f64>,
        upper_bound: Option<f64>,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct TextKey {
    /// The key as written (for a number key: as people should read it).
    pub text: String,
    pub case_sensitive: bool,
    pub mapped_value: Option<f64>,
    /// A number key: the answers accepted, read as numbers.
    pub numeric: Option<NumberRange>,
}

/// Numbers from `low` to `high`, both included.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NumberRange {
    pub low: f64,
    pub high: f64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkippedItem {
    pub identifier: String,
    pub file: String,
    pub reason: String,
}
