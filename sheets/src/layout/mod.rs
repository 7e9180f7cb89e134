//! Where everything is on an answer sheet, in millimetres from the page's top left
//! corner (A4, portrait). One computation serves the printed page (absolute
//! positions in CSS millimetres) and the reading of a scan (the same positions
//! mapped through the registration marks), so the two cannot disagree.
//!
//! The page: four square registration marks near the corners; the code in the top
//! right; a header for the participant's name; then the questions in the
//! snapshot's order. Choice questions take a row each, two to a row where they
//! fit (a number, then a bubble per choice, A, B, …); an essay takes the width,
//! framed, taller the more it is worth; a short answer gets a one-line box beside
//! its number. What does not fit goes on the next page.

mod boxes;
mod geometry;
mod rows;

pub use geometry::{
    bubble_label, marks, Bubble, EssayArea, Mark, PageLayout, PictureArea, Point, Rect, Shape,
    SheetQuestion, BUBBLE_PITCH, BUBBLE_RADIUS, CODE, CONTENT, MARK_INSET, MARK_SIDE, NUMBER_KEYS,
    NUMBER_POSITIONS, NUMBER_WIDTH, PAGE_HEIGHT, PAGE_WIDTH, PART_INSET, PICTURE_MOST, ROW_CHOICES,
    ROW_HEIGHT, WRITTEN_BOX,
};
use geometry::{letter, new_page, number_key, ESSAY_GAP, ESSAY_LABEL, HALF_ROW_CHOICES};

/// An essay's frame height: more room the more it is worth.
fn essay_height(max_score: i32) -> f32 {
    (30.0 + 12.0 * max_score as f32).clamp(40.0, CONTENT.height - ESSAY_LABEL)
}

/// A frame `height` high at `(x, width)` under a label line that carries
/// `question`'s number, from `y` (on the next page when this one cannot hold
/// it): the page it is on, and the frame. `y` moves past it.
fn labelled_frame<'p>(
    question: i32,
    (x, width): (f32, f32),
    height: f32,
    pages: &'p mut Vec<PageLayout>,
    y: &mut f32,
) -> (&'p mut PageLayout, Rect) {
    if *y + ESSAY_LABEL + height > CONTENT.y + CONTENT.height {
        pages.push(new_page(pages.len() as u16 + 1));
        *y = CONTENT.y;
    }
    let page = pages.last_mut().expect("a page");
    page.numbers.push((
        question,
        Point {
            x: CONTENT.x,
            y: *y + ESSAY_LABEL / 2.0,
        },
    ));
    let frame = Rect {
        x,
        y: *y + ESSAY_LABEL,
        width,
        height,
    };
    *y += ESSAY_LABEL + height + ESSAY_GAP;
    (page, frame)
}

/// A picture's size on the sheet, in millimetres: as large as
/// [`PICTURE_MOST`] allows, its proportions kept.
fn picture_size(width: u32, height: u32) -> (f32, f32) {
    let (most_width, most_height) = PICTURE_MOST;
    let (width, height) = (width.max(1) as f32, height.max(1) as f32);
    let scale = (most_width / width).min(most_height / height);
    (width * scale, height * scale)
}

/// The questions as a sheet of layout `edition` (the code's) asks them: the
/// first edition had no short answers on it, and none before the fourth had
/// pictures.
pub fn printed_in(questions: &[SheetQuestion], edition: u8) -> Vec<SheetQuestion> {
    questions
        .iter()
        .filter(|question| {
            edition >= 2 || !matches!(question.shape, Shape::Written | Shape::Blanks { .. })
        })
        .filter(|question| edition >= 4 || !matches!(question.shape, Shape::Picture { .. }))
        .map(|question| match question.shape {
            // Edition 2 gave a number its box to write in.
            Shape::Number { .. } if edition < 3 => SheetQuestion {
                order: question.order,
                shape: Shape::Written,
            },
            _ => question.clone(),
        })
        .collect()
}

/// The pages that ask `questions`, in order.
pub fn lay_out(questions: &[SheetQuestion]) -> Vec<PageLayout> {
    let mut pages = vec![new_page(1)];
    let mut y = CONTENT.y;
    // The right half of the current row, when a half-width question left it free.
    let mut right_half_free = false;
    let bottom = CONTENT.y + CONTENT.height;
    for question in questions {
        match question.shape {
            Shape::Choices { count, .. } => {
                let half = count <= HALF_ROW_CHOICES;
                // A question's rows stay together on one page.
                let rows = count.div_ceil(ROW_CHOICES).max(1);
                let height = ROW_HEIGHT * rows as f32;
                let x = if half && right_half_free {
                    right_half_free = false;
                    y -= ROW_HEIGHT;
                    CONTENT.x + CONTENT.width / 2.0
                } else {
                    if y + height > bottom {
                        pages.push(new_page(pages.len() as u16 + 1));
                        y = CONTENT.y;
                    }
                    right_half_free = half;
                    CONTENT.x
                };
                let page = pages.last_mut().expect("a page");
                let middle = y + ROW_HEIGHT / 2.0;
                page.numbers.push((question.order, Point { x, y: middle }));
                for choice in 0..count {
                    let (row, column) = (choice / ROW_CHOICES, choice % ROW_CHOICES);
                    page.bubbles.push(Bubble {
                        question: question.order,
                        part: 0,
                        choice: choice as i32 + 1,
                        label: letter(choice as i32),
                        center: Point {
                            x: x + NUMBER_WIDTH + BUBBLE_PITCH * column as f32,
                            y: middle + ROW_HEIGHT * row as f32,
                        },
                    });
                }
                y += height;
            }
            Shape::Grid { parts, options } => {
                right_half_free = false;
                rows::lay_out_rows(question.order, parts, (options, letter), &mut pages, &mut y);
            }
            Shape::Number { positions } => {
                right_half_free = false;
                let keys: (usize, fn(i32) -> char) =
                    (NUMBER_KEYS.len(), |index| number_key(index + 1));
                rows::lay_out_rows(question.order, positions, keys, &mut pages, &mut y);
            }
            Shape::Essay { max_score } => {
                right_half_free = false;
                let (page, frame) = labelled_frame(
                    question.order,
                    (CONTENT.x, CONTENT.width),
                    essay_height(max_score),
                    &mut pages,
                    &mut y,
                );
                page.essays.push(EssayArea {
                    question: question.order,
                    frame,
                    part: 0,
                    typed: false,
                });
            }
            Shape::Written | Shape::Blanks { .. } => {
                right_half_free = false;
                boxes::lay_out_lines(question, &mut pages, &mut y);
            }
            Shape::Picture { width, height, .. } => {
                right_half_free = false;
                let (width, height) = picture_size(width, height);
                let (page, frame) = labelled_frame(
                    question.order,
                    (CONTENT.x + NUMBER_WIDTH, width),
                    height,
                    &mut pages,
                    &mut y,
                );
                page.pictures.push(PictureArea {
                    question: question.order,
                    frame,
                });
            }
        }
    }
    pages
}

impl PageLayout {
    /// The strip of the page that shows a choice question (or a grid's row:
    /// `part` > 0): its number and its bubbles, with a margin; what a person
    /// looks at to decide an unsure mark.
    pub fn question_row(&self, question: i32, part: i32) -> Option<Rect> {
        // A picture's marks are looked at on the picture.
        if let Some(picture) = self.pictures.iter().find(|p| p.question == question) {
            let frame = picture.frame;
            return Some(Rect {
                x: frame.x - 2.0,
                y: frame.y - 2.0,
                width: frame.width + 4.0,
                height: frame.height + 4.0,
            });
        }
        let number = if part == 0 {
            self.numbers.iter().find(|(q, _)| *q == question)?.1
        } else {
            let (_, _, at) = self
                .parts
                .iter()
                .find(|(q, p, _)| *q == question && *p == part)?;
            Point {
                x: at.x - PART_INSET,
                y: at.y,
            }
        };
        let own = || {
            self.bubbles
                .iter()
                .filter(|b| b.question == question && (part == 0 || b.part == part))
        };
        let last = own().next_back()?;
        let right = own().map(|b| b.center.x).fold(f32::MIN, f32::max);
        let x = number.x - 2.0;
        Some(Rect {
            x,
            y: number.y - ROW_HEIGHT / 2.0 - 1.0,
            width: right + BUBBLE_RADIUS + 3.0 - x,
            height: last.center.y - number.y + ROW_HEIGHT + 2.0,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::geometry::WRITTEN_GAP;
    use super::*;

    fn choices(order: i32, count: usize) -> SheetQuestion {
        SheetQuestion {
            order,
            shape: Shape::Choices { count, most: 1 },
        }
    }

    fn essay(order: i32, max_score: i32) -> SheetQuestion {
        SheetQuestion {
            order,
            shape: Shape::Essay { max_score },
        }
    }

    fn inside(rect: Rect, point: Point) -> bool {
        point.x >= rect.x
            && point.x <= rect.x + rect.width
            && point.y >= rect.y
            && point.y <= rect.y + rect.height
    }

    #[test]
    fn two_short_choice_questions_share_a_row_and_a_long_one_takes_the_width() {
        let pages = lay_out(&[choices(1, 4), choices(2, 4), choices(3, 12)]);
        assert_eq!(pages.len(), 1);
        let first = |q: i32| {
            pages[0]
                .bubbles
                .iter()
                .find(|b| b.question == q)
                .expect("bubble")
                .center
        };
        assert_eq!(first(1).y, first(2).y, "one row");
        assert!(
            first(2).x > CONTENT.x + CONTENT.width / 2.0,
            "the right half"
        );
        assert!(first(3).y > first(1).y, "the next row");
        assert_eq!(
            pages[0].bubbles.iter().filter(|b| b.question == 3).count(),
            12
        );
    }

    #[test]
    fn everything_stays_inside_the_content_and_clear_of_the_marks_and_code() {
        let mut questions: Vec<SheetQuestion> = (1..=60).map(|q| choices(q, 5)).collect();
        questions.push(essay(61, 6));
        questions.push(essay(62, 20));
        let pages = lay_out(&questions);
        assert!(pages.len() >= 2, "{} pages", pages.len());
        for page in &pages {
            for bubble in &page.bubbles {
                let reach = Rect {
                    x: CONTENT.x,
                    y: CONTENT.y,
                    width: CONTENT.width,
                    height: CONTENT.height,
                };
                assert!(inside(reach, bubble.center), "{bubble:?}");
                assert!(!inside(CODE, bubble.center));
            }
            for area in &page.essays {
                assert!(area.frame.y + area.frame.height <= CONTENT.y + CONTENT.height + 0.01);
            }
        }
        let asked: Vec<i32> = pages
            .iter()
            .flat_map(|p| p.numbers.iter().map(|(q, _)| *q))
            .collect();
        assert_eq!(
            asked,
            (1..=62).collect::<Vec<_>>(),
            "every question once, in order"
        );
    }

    #[test]
    fn a_question_of_many_choices_wraps_within_the_content_and_its_row_holds_them_all() {
        assert_eq!(ROW_CHOICES, 17);
        let pages = lay_out(&[choices(1, 25), choices(2, 4)]);
        let right = CONTENT.x + CONTENT.width;
        for bubble in &pages[0].bubbles {
            assert!(
                bubble.center.x + BUBBLE_RADIUS <= right,
                "choice {} of question {} at {} mm",
                bubble.choice,
                bubble.question,
                bubble.center.x
            );
        }
        let first = pages[0].bubbles[0].center;
        let last = pages[0].bubbles[24].center;
        assert_eq!(last.y, first.y + ROW_HEIGHT, "a second row");
        assert_eq!(
            pages[0].bubbles[17].center.x, first.x,
            "begun again at the left"
        );
        let next = pages[0].bubbles.iter().find(|b| b.question == 2).unwrap();
        assert_eq!(next.center.y, first.y + 2.0 * ROW_HEIGHT, "below both rows");
        let row = pages[0].question_row(1, 0).unwrap();
        for bubble in pages[0].bubbles.iter().filter(|b| b.question == 1) {
            assert!(inside(row, bubble.center), "{bubble:?} in {row:?}");
        }
    }

    #[test]
    fn a_question_row_holds_its_number_and_bubbles() {
        let pages = lay_out(&[choices(1, 4), choices(2, 5), essay(3, 2)]);
        let row = pages[0].question_row(2, 0).expect("a choice question");
        for bubble in pages[0].bubbles.iter().filter(|b| b.question == 2) {
            assert!(inside(row, bubble.center), "{bubble:?}");
        }
        assert!(!pages[0]
            .bubbles
            .iter()
            .filter(|b| b.question == 1)
            .any(|b| inside(row, b.center)));
        assert_eq!(pages[0].question_row(3, 0), None, "an essay has no row");
    }

    #[test]
    fn a_short_answer_has_a_box_beside_its_number_and_the_first_edition_had_none() {
        let written = SheetQuestion {
            order: 2,
            shape: Shape::Written,
        };
        let questions = [choices(1, 4), written, choices(3, 4)];
        let pages = lay_out(&questions);
        let boxes: Vec<&EssayArea> = pages[0].essays.iter().collect();
        assert_eq!(boxes.len(), 1);
        let frame = boxes[0].frame;
        assert!(boxes[0].typed && boxes[0].question == 2);
        assert_eq!((frame.width, frame.height), WRITTEN_BOX);
        let number = pages[0].numbers.iter().find(|(q, _)| *q == 2).unwrap().1;
        assert!(number.x < frame.x && number.y > frame.y && number.y < frame.y + frame.height);
        let after = pages[0].bubbles.iter().find(|b| b.question == 3).unwrap();
        assert!(
            after.center.y - BUBBLE_RADIUS > frame.y + frame.height,
            "below the box"
        );
        assert!(frame.x + frame.width <= CONTENT.x + CONTENT.width);
        assert_eq!(
            pages[0].question_row(2, 0),
            None,
            "a box has no row of bubbles"
        );

        // Blanks: a box a blank, each beside its number, the question's by the first.
        let blanks = lay_out(&[SheetQuestion {
            order: 1,
            shape: Shape::Blanks {
                options: vec![0, 0, 0],
            },
        }]);
        let parts: Vec<i32> = blanks[0].essays.iter().map(|e| e.part).collect();
        assert_eq!(parts, [1, 2, 3]);
        assert_eq!(blanks[0].numbers.len(), 1);
        assert_eq!(blanks[0].parts.len(), 3);
        let boxes = &blanks[0].essays;
        assert_eq!(
            boxes[1].frame.y - boxes[0].frame.y,
            WRITTEN_BOX.1 + WRITTEN_GAP
        );

        // A picked blank is a row of bubbles beside its number, numbered on from
        // the options of the picked blanks before it; typed ones stay boxes.
        let mixed = lay_out(&[SheetQuestion {
            order: 1,
            shape: Shape::Blanks {
                options: vec![3, 0, 2],
            },
        }]);
        let page = &mixed[0];
        let parts: Vec<i32> = page.essays.iter().map(|e| e.part).collect();
        assert_eq!(parts, [2], "one box, for the typed blank");
        let bubbles: Vec<(i32, i32)> = page.bubbles.iter().map(|b| (b.part, b.choice)).collect();
        assert_eq!(bubbles, [(1, 1), (1, 2), (1, 3), (3, 4), (3, 5)]);
        assert_eq!(page.parts.len(), 3);
        assert!(page.bubbles[0].center.y < page.essays[0].frame.y);
        assert!(page.bubbles[3].center.y > page.essays[0].frame.y + WRITTEN_BOX.1);
        assert!(page.question_row(1, 3).is_some(), "a picked blank's row");

        // A number: six rows of a bubble per key; edition 2 asked it in a box.
        let number = [SheetQuestion {
            order: 1,
            shape: Shape::Number {
                positions: NUMBER_POSITIONS,
            },
        }];
        let rows = lay_out(&number);
        assert_eq!(rows[0].bubbles.len(), 6 * 12);
        assert_eq!(rows[0].parts.len(), 6);
        assert!(rows[0].essays.is_empty());
        assert_eq!(printed_in(&number, 2)[0].shape, Shape::Written);
        assert_eq!(printed_in(&number, 3), number.to_vec());

        // Edition 1 printed the same questions without the box.
        let first = lay_out(&printed_in(&questions, 1));
        assert!(first[0].essays.is_empty());
        assert_eq!(first[0].numbers.len(), 2);
        assert_eq!(printed_in(&questions, 2), questions.to_vec());
    }

    #[test]
    fn the_marks_are_the_pages_corners() {
        let [top_left, top_right, bottom_right, bottom_left] = marks();
        assert_eq!(top_left.center, Point { x: 15.0, y: 15.0 });
        assert_eq!(top_right.center.x, 195.0);
        assert_eq!(bottom_right.center, Point { x: 195.0, y: 282.0 });
        assert_eq!(bottom_left.center.y, 282.0);
    }

    #[test]
    fn a_grid_has_a_row_of_bubbles_per_part_and_goes_on_over_the_page_between_them() {
        let grid = SheetQuestion {
            order: 2,
            shape: Shape::Grid {
                parts: 3,
                options: 4,
            },
        };
        let pages = lay_out(&[choices(1, 4), grid, choices(3, 4)]);
        let rows: Vec<f32> = (1..=3)
            .map(|part| {
                let own: Vec<&Bubble> = pages[0]
                    .bubbles
                    .iter()
                    .filter(|b| b.question == 2 && b.part == part)
                    .collect();
                assert_eq!(own.len(), 4, "part {part}");
                assert!(own.iter().all(|b| b.center.y == own[0].center.y));
                own[0].center.y
            })
            .collect();
        assert_eq!(rows[1] - rows[0], ROW_HEIGHT);
        assert_eq!(rows[2] - rows[1], ROW_HEIGHT);
        let labels: Vec<i32> = pages[0].parts.iter().map(|(_, part, _)| *part).collect();
        assert_eq!(labels, [1, 2, 3]);
        let row = pages[0].question_row(2, 2).unwrap();
        for bubble in &pages[0].bubbles {
            let own_row = bubble.question == 2 && bubble.part == 2;
            assert_eq!(inside(row, bubble.center), own_row, "{bubble:?} in {row:?}");
        }
        let next = pages[0].bubbles.iter().find(|b| b.question == 3).unwrap();
        assert!(next.center.y > rows[2], "the next question below the grid");

        // Forty rows do not fit one page: they go on over the page.
        let long = SheetQuestion {
            order: 1,
            shape: Shape::Grid {
                parts: 40,
                options: 5,
            },
        };
        let pages = lay_out(&[long]);
        assert_eq!(pages.len(), 2);
        let parts: Vec<i32> = pages
            .iter()
            .flat_map(|p| p.parts.iter().map(|(_, part, _)| *part))
            .collect();
        assert_eq!(parts, (1..=40).collect::<Vec<_>>());
        for page in &pages {
            for bubble in &page.bubbles {
                assert!(bubble.center.y + BUBBLE_RADIUS <= CONTENT.y + CONTENT.height);
            }
        }
    }
}
