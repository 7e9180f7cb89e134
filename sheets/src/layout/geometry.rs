//! The sheet's geometry: the page's measures (millimetres from its top left
//! corner) and what a page's layout is made of, shared by the layouts of each
//! kind of question.

/// The page, in millimetres.
pub const PAGE_WIDTH: f32 = 210.0;
pub const PAGE_HEIGHT: f32 = 297.0;
/// A registration mark's side, and its centre's distance from the page's edges.
pub const MARK_SIDE: f32 = 8.0;
pub const MARK_INSET: f32 = 15.0;
/// The code's square.
pub const CODE: Rect = Rect {
    x: 160.0,
    y: 24.0,
    width: 26.0,
    height: 26.0,
};
/// Where questions go.
pub const CONTENT: Rect = Rect {
    x: 20.0,
    y: 58.0,
    width: 170.0,
    height: 214.0,
};
/// A bubble's radius, the distance between bubbles' centres, and a row's height.
pub const BUBBLE_RADIUS: f32 = 2.6;
pub const BUBBLE_PITCH: f32 = 9.0;
pub const ROW_HEIGHT: f32 = 9.0;
/// Room for the question's number before its first bubble.
pub const NUMBER_WIDTH: f32 = 16.0;
/// Where a grid row's part number stands, right of its question's number.
pub const PART_INSET: f32 = 7.0;
/// The most choices a half-width row holds; more take the whole width.
pub(super) const HALF_ROW_CHOICES: usize = 7;
/// The most choices a whole row holds (the last bubble within the content's
/// width); more go on to further rows under the first, beside no number.
pub const ROW_CHOICES: usize =
    ((CONTENT.width - NUMBER_WIDTH - 2.0 * BUBBLE_RADIUS) / BUBBLE_PITCH) as usize + 1;
/// An essay's frame: its label line above it, and its height by marks.
pub(super) const ESSAY_LABEL: f32 = 6.0;
pub(super) const ESSAY_GAP: f32 = 4.0;
/// What a number's row offers, by choice number (1: `0`, …, 10: `9`, 11: the
/// point, 12: the minus): the bubbles' labels, and the characters read.
pub const NUMBER_KEYS: [char; 12] = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '.', '-'];
/// What a bubble says on the sheet (and to a person deciding it): a number's
/// row its character; any other row a letter from A, `first` being the row's
/// first choice number (a picked blank's options go on from the blanks before).
pub fn bubble_label(shape: &Shape, first: i32, choice: i32) -> String {
    match shape {
        Shape::Number { .. } => number_key(choice).to_string(),
        _ => letter(choice - first).to_string(),
    }
}

/// A number's row's character for `choice` (1 is `0`).
pub(super) fn number_key(choice: i32) -> char {
    usize::try_from(choice - 1)
        .ok()
        .and_then(|index| NUMBER_KEYS.get(index))
        .copied()
        .unwrap_or('?')
}

/// The letter of a row's `index`th bubble (0 is A), from A again after Z.
pub(super) fn letter(index: i32) -> char {
    char::from(b'A' + u8::try_from(index.rem_euclid(26)).unwrap_or(0))
}

/// A number's rows on the sheet: a sign, digits and a point, six in all.
pub const NUMBER_POSITIONS: usize = 6;
/// A short answer's box: a line of handwriting (a word, a number, a few words),
/// small enough that one written letter is a fair share of it.
pub const WRITTEN_BOX: (f32, f32) = (100.0, 14.0);
pub(super) const WRITTEN_GAP: f32 = 4.0;
/// The most room a picture takes: it is printed as large as fits, its
/// proportions kept.
pub const PICTURE_MOST: (f32, f32) = (150.0, 110.0);

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    pub x: f32,
    pub y: f32,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    pub x: f32,
    pub y: f32,
    pub width: f32,
    pub height: f32,
}

/// A question as the sheet asks it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SheetQuestion {
    /// The snapshot's number (1, 2, …): the upload's QuestionOrderNumber.
    pub order: i32,
    pub shape: Shape,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shape {
    /// `count` choices, at most `most` of which may be marked (1: a single
    /// choice; `count`: any number). More marks than that go to a person.
    Choices { count: usize, most: usize },
    /// A written answer worth `max_score`, read back as an image.
    Essay { max_score: i32 },
    /// A matching's parts: `parts` rows of `options` bubbles, one of which may be
    /// marked in each row.
    Grid { parts: usize, options: usize },
    /// A short answer written in a box, which a person types from the scan and
    /// its keys then mark (a text entry). Not on sheets of edition 1.
    Written,
    /// A number (a numeric entry): `positions` rows, one character each, read
    /// left to right from the first row: a bubble per [`NUMBER_KEYS`]. Not on
    /// sheets before edition 3, which gave it a box ([`Shape::Written`]).
    Number { positions: usize },
    /// Blanks (a fill-in-the-blanks question): per blank, how many options its
    /// own list has. A typed blank (0) gets a box, typed by a person and marked
    /// by that blank's keys; a picked one a row of bubbles, read as a grid's row.
    Blanks { options: Vec<usize> },
    /// Places marked on a picture (a point question): the picture printed
    /// faint in a frame of its proportions (`width` by `height`, in hundredths
    /// of the picture's own pixels: a place is read in its pixels), at most
    /// `most` places marked with a cross (0: any number). Not on sheets before
    /// edition 4.
    Picture {
        width: u32,
        height: u32,
        most: usize,
    },
}

/// A registration mark: a filled square centred on `center`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mark {
    pub center: Point,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bubble {
    pub question: i32,
    /// A grid's row: the upload's PartNumber (1, 2, …); 0 for a choice question.
    pub part: i32,
    /// The snapshot's choice number (1, 2, …): the upload's ChoiceOrderNumber.
    pub choice: i32,
    pub center: Point,
    /// What is printed inside it (A, B, …; a number's row its character): the
    /// reader calibrates a bubble against the page's others of the same label.
    pub label: char,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EssayArea {
    pub question: i32,
    /// The frame the answer is written in.
    pub frame: Rect,
    /// A blank's number (the upload's PartNumber); 0 for an essay or one short
    /// answer.
    pub part: i32,
    /// A short answer's box ([`Shape::Written`], [`Shape::Blanks`]), not an
    /// essay's frame.
    pub typed: bool,
}

/// A picture to mark places on, in its frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PictureArea {
    pub question: i32,
    /// The picture's own extent on the page: a place is read as where in it
    /// the mark is, from its top left corner.
    pub frame: Rect,
}

/// One page of a sheet.
#[derive(Debug, Clone, PartialEq)]
pub struct PageLayout {
    /// 1, 2, …
    pub number: u16,
    pub marks: [Mark; 4],
    pub code: Rect,
    /// Each choice question's number, where it is printed (left of its bubbles).
    pub numbers: Vec<(i32, Point)>,
    /// Each grid row's part number, where it is printed: `(question, part, at)`.
    pub parts: Vec<(i32, i32, Point)>,
    pub bubbles: Vec<Bubble>,
    pub essays: Vec<EssayArea>,
    pub pictures: Vec<PictureArea>,
}

/// The marks' centres: top left, top right, bottom right, bottom left.
pub fn marks() -> [Mark; 4] {
    let (left, right) = (MARK_INSET, PAGE_WIDTH - MARK_INSET);
    let (top, bottom) = (MARK_INSET, PAGE_HEIGHT - MARK_INSET);
    [(left, top), (right, top), (right, bottom), (left, bottom)].map(|(x, y)| Mark {
        center: Point { x, y },
    })
}

/// An empty page numbered `number`.
pub(super) fn new_page(number: u16) -> PageLayout {
    PageLayout {
        number,
        marks: marks(),
        code: CODE,
        numbers: Vec::new(),
        parts: Vec::new(),
        bubbles: Vec::new(),
        essays: Vec::new(),
        pictures: Vec::new(),
    }
}
