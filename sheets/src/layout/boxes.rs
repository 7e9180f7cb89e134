//! Short answers on the sheet: a text entry's one box, and a fill-in-the-blanks
//! question's blanks, each beside its number: a box for a typed blank, a row of
//! bubbles (like a grid's row) for a blank picked from its own list. A picked
//! blank's bubbles carry the snapshot's numbers of its options, which follow each
//! other blank by blank.

use super::geometry::{
    letter, new_page, Bubble, EssayArea, PageLayout, Point, Rect, Shape, SheetQuestion,
    BUBBLE_PITCH, BUBBLE_RADIUS, CONTENT, NUMBER_WIDTH, PART_INSET, ROW_CHOICES, ROW_HEIGHT,
    WRITTEN_BOX, WRITTEN_GAP,
};

/// What stands on one line of a short answer: its part (0: a text entry's one
/// box) and, for a picked blank, its first choice number and how many options.
struct Line {
    part: i32,
    picked: Option<(i32, usize)>,
}

fn lines(shape: &Shape) -> Vec<Line> {
    match shape {
        Shape::Blanks { options } => {
            let mut next_choice = 1;
            options
                .iter()
                .enumerate()
                .map(|(index, &count)| {
                    let picked = (count > 0).then_some((next_choice, count));
                    next_choice += count as i32;
                    Line {
                        part: index as i32 + 1,
                        picked,
                    }
                })
                .collect()
        }
        _ => vec![Line {
            part: 0,
            picked: None,
        }],
    }
}

/// Lays `question`'s lines out from `y`, on over the page where they must.
pub(super) fn lay_out_lines(question: &SheetQuestion, pages: &mut Vec<PageLayout>, y: &mut f32) {
    let bottom = CONTENT.y + CONTENT.height;
    let (width, box_height) = WRITTEN_BOX;
    for line in lines(&question.shape) {
        let height = match line.picked {
            Some((_, count)) => ROW_HEIGHT * count.div_ceil(ROW_CHOICES).max(1) as f32,
            None => box_height,
        };
        if *y + height > bottom {
            pages.push(new_page(pages.len() as u16 + 1));
            *y = CONTENT.y;
        }
        let page = pages.last_mut().expect("a page");
        let middle = match line.picked {
            Some(_) => *y + ROW_HEIGHT / 2.0,
            None => *y + height / 2.0,
        };
        if line.part <= 1 {
            let at = Point {
                x: CONTENT.x,
                y: middle,
            };
            page.numbers.push((question.order, at));
        }
        if line.part > 0 {
            let at = Point {
                x: CONTENT.x + PART_INSET,
                y: middle,
            };
            page.parts.push((question.order, line.part, at));
        }
        match line.picked {
            Some((first, count)) => {
                for option in 0..count {
                    let (row, column) = (option / ROW_CHOICES, option % ROW_CHOICES);
                    page.bubbles.push(Bubble {
                        question: question.order,
                        part: line.part,
                        choice: first + option as i32,
                        label: letter(option as i32),
                        center: Point {
                            x: CONTENT.x + NUMBER_WIDTH + BUBBLE_PITCH * column as f32,
                            y: middle + ROW_HEIGHT * row as f32,
                        },
                    });
                }
                *y += height + WRITTEN_GAP / 2.0;
            }
            None => {
                page.essays.push(EssayArea {
                    question: question.order,
                    part: line.part,
                    frame: Rect {
                        x: CONTENT.x + NUMBER_WIDTH - BUBBLE_RADIUS,
                        y: *y,
                        width,
                        height,
                    },
                    typed: true,
                });
                *y += height + WRITTEN_GAP;
            }
        }
    }
}
