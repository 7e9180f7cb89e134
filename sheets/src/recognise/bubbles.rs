//! Deciding each bubble by what its ink looks like (docs/paper-sheets.md,
//! "Recognition", steps 8 and 9). Its darkness is the mean, over the disc inside
//! its printed ring, of how far each point lies from the paper's grey towards
//! the marks' ink (0 is paper, 1 is as dark as the registration marks): a fill
//! reads well over half. A tick, a cross or a ring drawn round the letter covers
//! much less, so the participant's strokes are measured too, against the
//! page's own printing of the bubble (`bubble_ink`): strokes that meet in the
//! disc on clean paper are a tick or a cross, ink all round the ring a circled
//! letter. What none of the rules decides, and anything between blank and
//! marked, is unsure: a person decides, and a marked bubble is never read as
//! blank unseen.

use image::GrayImage;

use crate::layout::Bubble;

use super::bubble_ink::{self, measure, Ink, Patch, SECTORS};
use super::geometry::PageGeometry;
use super::levels::Levels;

/// At least this dark: filled, marked.
pub const MARKED: f32 = 0.47;
/// At most this dark, and no strokes: blank.
pub const BLANK: f32 = 0.20;
/// A stroke is this share of the page's printed ring's darkness or darker ...
const STROKE_OF_RING: f32 = 0.4;
/// ... within these bounds.
const STROKE_LEAST: f32 = 0.2;
const STROKE_MOST: f32 = 0.5;
/// Strokes over this share of the inside, with the rest of the disc paper and
/// not a line passing through, are a tick or a cross.
const STROKES_MARKED: f32 = 0.03;
/// The disc between the strokes at most this dark is clean: paper, or
/// paper greyed by a cross's blurred strokes (a light fill reads 0.23 or more,
/// and its points stand out from its own grey by too little to be strokes).
const REST_PAPER: f32 = 0.22;
/// Ink narrower than this is one straight line.
const LINE: f32 = 0.06;
/// Ink in this many directions of [`SECTORS`] around the ring is a circle.
const CIRCLE: usize = 10;
/// Blank only under all of these: strokes inside, ink around, faint ink.
const STROKES_BLANK: f32 = 0.006;
const AROUND_BLANK: f32 = 0.005;
const FAINT_BLANK: f32 = 0.05;
/// ... and the inside's darkness beyond its own ground (a stroke too thin or
/// too blurred to show a dark point still adds to it; a rubbed-out fill's even
/// grey does not).
const MASS_BLANK: f32 = 0.05;
/// A cross's ink reaches every quarter around the centre with this share.
const CROSS_QUARTER: f32 = 0.1;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Marked,
    Blank,
    /// A light mark, a poor erasure, a smudge, strokes the rules cannot tell.
    Unsure,
}

/// What a bubble's ink looks like: why it is marked, or what a person is asked
/// to look at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MarkKind {
    /// No ink of the participant's.
    #[default]
    Nothing,
    /// The disc filled.
    Fill,
    Tick,
    Cross,
    /// A ring drawn round the letter.
    Circle,
    /// Grey over the disc: a light fill, or one rubbed out badly.
    Faint,
    /// Ink that is none of these: a line, a dot, a scribble.
    Stray,
}

impl MarkKind {
    /// In words, for the person deciding.
    pub fn words(self) -> &'static str {
        match self {
            MarkKind::Nothing => "nothing",
            MarkKind::Fill => "a fill",
            MarkKind::Tick => "a tick",
            MarkKind::Cross => "a cross",
            MarkKind::Circle => "a circle round the letter",
            MarkKind::Faint => "a faint fill",
            MarkKind::Stray => "a stray stroke",
        }
    }
}

/// How a participant marked `bubbles` (those read as marked), in words: what
/// a person deciding one of their doubts sees of their way of marking, e.g.
/// "14 ticks and 1 fill" ("nothing marked" when none is).
pub fn marking_in_words<'a>(bubbles: impl IntoIterator<Item = &'a BubbleReading>) -> String {
    let kinds = [
        (MarkKind::Fill, "fill", "fills"),
        (MarkKind::Tick, "tick", "ticks"),
        (MarkKind::Cross, "cross", "crosses"),
        (
            MarkKind::Circle,
            "circle round a letter",
            "circles round letters",
        ),
    ];
    let mut counts = [0usize; 4];
    for bubble in bubbles {
        if bubble.verdict == Verdict::Marked {
            if let Some(at) = kinds.iter().position(|(kind, ..)| *kind == bubble.kind) {
                counts[at] += 1;
            }
        }
    }
    let parts: Vec<String> = kinds
        .iter()
        .zip(counts)
        .filter(|(_, count)| *count > 0)
        .map(|((_, one, many), count)| format!("{count} {}", if count == 1 { one } else { many }))
        .collect();
    match parts.as_slice() {
        [] => "nothing marked".to_owned(),
        [only] => only.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// One bubble as read.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BubbleReading {
    pub question: i32,
    /// A grid's row (0 for a choice question).
    pub part: i32,
    pub choice: i32,
    /// The disc's darkness: 0 (paper) to 1 (the marks' ink).
    pub darkness: f32,
    pub verdict: Verdict,
    /// What the ink looks like.
    pub kind: MarkKind,
}

/// The verdict on a disc's darkness alone (a fill, or nothing).
pub fn verdict(darkness: f32) -> Verdict {
    if darkness >= MARKED {
        Verdict::Marked
    } else if darkness <= BLANK {
        Verdict::Blank
    } else {
        Verdict::Unsure
    }
}

/// Every bubble of a page, each measured against the page's printing of its
/// label and against how dark this scan prints a ring.
pub(crate) fn read_bubbles(
    scan: &GrayImage,
    geometry: &PageGeometry,
    levels: Levels,
    bubbles: &[Bubble],
) -> Vec<BubbleReading> {
    let patches: Vec<(char, Patch)> = bubbles
        .iter()
        .map(|bubble| (bubble.label, Patch::cut(scan, geometry, levels, bubble)))
        .collect();
    let mut rings: Vec<f32> = patches.iter().map(|(_, p)| p.ring_darkness()).collect();
    let ring = if rings.is_empty() {
        1.0
    } else {
        let middle = rings.len() / 2;
        *rings.select_nth_unstable_by(middle, f32::total_cmp).1
    };
    let stroke = (STROKE_OF_RING * ring).clamp(STROKE_LEAST, STROKE_MOST);
    let printing = bubble_ink::printing(&patches);
    bubbles
        .iter()
        .zip(&patches)
        .map(|(bubble, (label, patch))| {
            let own = printing.get(&Some(*label));
            let printed = own.or_else(|| printing.get(&None)).map(Vec::as_slice);
            let ink = measure(patch, printed, own.is_some(), stroke);
            let (verdict, kind) = decide(&ink);
            BubbleReading {
                question: bubble.question,
                part: bubble.part,
                choice: bubble.choice,
                darkness: ink.disc,
                verdict,
                kind,
            }
        })
        .collect()
}

/// The rules, in order: a fill; a circle round clean paper; strokes that meet
/// on clean paper; nothing at all. Anything else goes to a person.
pub(super) fn decide(ink: &Ink) -> (Verdict, MarkKind) {
    let clean = ink.disc_rest <= REST_PAPER && ink.disc <= MARKED;
    if ink.disc >= MARKED {
        return (Verdict::Marked, MarkKind::Fill);
    }
    let strokes = stroke_kind(ink);
    if clean && ink.sectors >= CIRCLE {
        return (Verdict::Marked, MarkKind::Circle);
    }
    let passing = ink.through && ink.roundness < LINE;
    if clean && ink.inside >= STROKES_MARKED && !passing {
        return (Verdict::Marked, strokes);
    }
    let nothing = ink.inside < STROKES_BLANK
        && ink.mass - ink.disc_rest.max(0.0) < MASS_BLANK
        && ink.around < AROUND_BLANK
        && ink.faint < FAINT_BLANK
        && ink.sectors <= 1;
    if ink.disc <= BLANK && nothing {
        return (Verdict::Blank, MarkKind::Nothing);
    }
    let kind = if ink.sectors >= SECTORS / 4 && ink.inside < STROKES_BLANK {
        MarkKind::Circle
    } else if ink.inside >= STROKES_BLANK && !passing {
        strokes
    } else if ink.disc > BLANK {
        MarkKind::Faint
    } else {
        MarkKind::Stray
    };
    (Verdict::Unsure, kind)
}

/// A cross reaches every quarter round the centre; a tick does not.
fn stroke_kind(ink: &Ink) -> MarkKind {
    if ink.quarters.iter().all(|share| *share >= CROSS_QUARTER) {
        MarkKind::Cross
    } else {
        MarkKind::Tick
    }
}
