//! Pencil and pen on a sheet's printed pages, as participants mark them, and
//! what a reader must make of each question.

use std::collections::BTreeMap;

use image::GrayImage;
use scoredesk_paper::strokes::write_letters;
use scoredesk_paper::{mark_bubble, write_essay, ChaCha8Rng, Pencil, Rng};
use scoredesk_sheets::layout::{PageLayout, Point, Shape, SheetQuestion};
use scoredesk_sheets::DoubtReason;

/// What a reader must make of a question.
#[derive(Debug, Clone, PartialEq)]
pub enum Expect {
    Choices(Vec<i32>),
    Doubt(DoubtReason),
    /// Where the handwriting's ink centres, or nothing written.
    Essay(Option<Point>),
    /// One or two letters in a large frame, centred there: written, or a doubt
    /// for a person; never no answer.
    ShortEssay(Point),
}

/// How a participant marks their choices, whatever the sheet asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Style {
    Fill,
    Tick,
    Cross,
    Circle,
}

impl Style {
    /// A participant's way, at random: fills 40 %, ticks, crosses and circles
    /// 20 % each.
    pub fn random(rng: &mut ChaCha8Rng) -> Style {
        match rng.random_range(0..10) {
            0..4 => Style::Fill,
            4 | 5 => Style::Tick,
            6 | 7 => Style::Cross,
            _ => Style::Circle,
        }
    }

    fn mark(self) -> Pencil {
        match self {
            Style::Fill => Pencil::Full,
            Style::Tick => Pencil::Tick,
            Style::Cross => Pencil::Cross,
            Style::Circle => Pencil::Circle,
        }
    }

    /// What a change of mind leaves: a fill rubbed out, or a cross.
    fn rubbed_out(self) -> Pencil {
        match self {
            Style::Fill => Pencil::Erased,
            _ => Pencil::CrossErased,
        }
    }
}

/// Pencil on one attempt's pages: per question a way of answering drawn at random
/// (left blank, marked fully or partly, erased and re-marked, marked lightly,
/// rubbed out badly, marked twice), what a reader must make of each question, and
/// each bubble's pencil.
pub struct Marked {
    pub pages: Vec<GrayImage>,
    pub expect: BTreeMap<i32, Expect>,
    pub pencil: BTreeMap<(i32, i32), Pencil>,
}

pub fn mark_sheet(
    layout: &[PageLayout],
    questions: &[SheetQuestion],
    printed: &[GrayImage],
    rng: &mut ChaCha8Rng,
) -> Marked {
    mark_sheet_as(Style::Fill, false, layout, questions, printed, rng)
}

/// Marks a sheet in `style`: fills as [`mark_sheet`] does (with light fills and
/// bad erasures, which a reader must leave to a person), or ticks, crosses or
/// circles (a cross rubbed out where a fill would be); with `short_essays`, one
/// essay in seven is one or two letters.
pub fn mark_sheet_as(
    style: Style,
    short_essays: bool,
    layout: &[PageLayout],
    questions: &[SheetQuestion],
    printed: &[GrayImage],
    rng: &mut ChaCha8Rng,
) -> Marked {
    let fill = style == Style::Fill;
    let mut pages: Vec<GrayImage> = printed.to_vec();
    let mut expect = BTreeMap::new();
    let mut pencil = BTreeMap::new();
    for question in questions {
        let Some((index, page)) = layout
            .iter()
            .enumerate()
            .find(|(_, p)| p.numbers.iter().any(|(q, _)| *q == question.order))
        else {
            continue;
        };
        match question.shape {
            // The paper test asks no matchings, short answers or pictures;
            // content_import_matching.rs marks a grid's rows itself,
            // sheet_short_answers.rs writes in the boxes, and
            // content_import_points.rs crosses the pictures.
            Shape::Grid { .. }
            | Shape::Written
            | Shape::Blanks { .. }
            | Shape::Number { .. }
            | Shape::Picture { .. } => {
                panic!("mark_sheet marks choices and essays, not grids, short answers or pictures")
            }
            Shape::Essay { .. } => {
                let area = page
                    .essays
                    .iter()
                    .find(|e| e.question == question.order)
                    .unwrap();
                let outcome = if short_essays && rng.random_bool(1.0 / 7.0) {
                    Expect::ShortEssay(write_letters(&mut pages[index], area.frame, rng))
                } else {
                    let written = rng
                        .random_bool(0.7)
                        .then(|| write_essay(&mut pages[index], area.frame, rng));
                    Expect::Essay(written)
                };
                expect.insert(question.order, outcome);
            }
            Shape::Choices { count, most } => {
                let single = most == 1;
                let mut choices: Vec<i32> = (1..=count as i32).collect();
                // Distinct choices in a random order.
                for i in (1..choices.len()).rev() {
                    choices.swap(i, rng.random_range(0..=i));
                }
                let (first, second, third) = (choices[0], choices[1], choices[2]);
                let mut put = |choice: i32, kind: Pencil| {
                    pencil.insert((question.order, choice), kind);
                };
                let mark = style.mark();
                let outcome = match rng.random_range(0..100) {
                    0..10 => Expect::Choices(vec![]),
                    10..50 => {
                        put(first, mark);
                        if !single && rng.random_bool(0.5) {
                            put(third, mark);
                            Expect::Choices(sorted(vec![first, third]))
                        } else {
                            Expect::Choices(vec![first])
                        }
                    }
                    50..60 => {
                        put(first, if fill { Pencil::Partial } else { mark });
                        Expect::Choices(vec![first])
                    }
                    60..70 => {
                        put(first, style.rubbed_out());
                        put(second, mark);
                        Expect::Choices(vec![second])
                    }
                    70..80 if fill => {
                        put(first, Pencil::Light);
                        Expect::Doubt(DoubtReason::Faint)
                    }
                    80..88 if fill => {
                        put(first, Pencil::Smudged);
                        put(second, mark);
                        Expect::Doubt(DoubtReason::Faint)
                    }
                    70..88 => {
                        put(first, mark);
                        Expect::Choices(vec![first])
                    }
                    _ => {
                        put(first, mark);
                        put(second, mark);
                        if single {
                            Expect::Doubt(DoubtReason::SeveralMarks)
                        } else {
                            Expect::Choices(sorted(vec![first, second]))
                        }
                    }
                };
                expect.insert(question.order, outcome);
            }
        }
    }
    for ((question, choice), kind) in &pencil {
        let (index, bubble) = layout
            .iter()
            .enumerate()
            .find_map(|(i, p)| {
                p.bubbles
                    .iter()
                    .find(|b| b.question == *question && b.choice == *choice)
                    .map(|b| (i, b))
            })
            .unwrap();
        mark_bubble(&mut pages[index], bubble.center, *kind, rng);
    }
    Marked {
        pages,
        expect,
        pencil,
    }
}

fn sorted(mut choices: Vec<i32>) -> Vec<i32> {
    choices.sort_unstable();
    choices
}
