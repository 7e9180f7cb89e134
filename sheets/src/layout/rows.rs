//! Rows of bubbles that each take one mark: a matching's rows (a bubble per
//! option) and a number's positions (a bubble per digit, the point and the
//! minus). The question's number by the first row, each row's number beside it.
//! The rows stay on one page when one holds them; more go on over the page
//! between rows.

use super::geometry::{
    new_page, Bubble, PageLayout, Point, BUBBLE_PITCH, CONTENT, NUMBER_WIDTH, PART_INSET,
    ROW_CHOICES, ROW_HEIGHT,
};

pub(super) fn lay_out_rows(
    question: i32,
    parts: usize,
    (options, label): (usize, fn(i32) -> char),
    pages: &mut Vec<PageLayout>,
    y: &mut f32,
) {
    let bottom = CONTENT.y + CONTENT.height;
    let part_height = ROW_HEIGHT * options.div_ceil(ROW_CHOICES).max(1) as f32;
    let whole = part_height * parts as f32;
    if *y + whole.min(CONTENT.height) > bottom {
        pages.push(new_page(pages.len() as u16 + 1));
        *y = CONTENT.y;
    }
    let x = CONTENT.x;
    let first = Point {
        x,
        y: *y + ROW_HEIGHT / 2.0,
    };
    pages
        .last_mut()
        .expect("a page")
        .numbers
        .push((question, first));
    for part in 1..=parts as i32 {
        if *y + part_height > bottom {
            pages.push(new_page(pages.len() as u16 + 1));
            *y = CONTENT.y;
        }
        let page = pages.last_mut().expect("a page");
        let middle = *y + ROW_HEIGHT / 2.0;
        let at = Point {
            x: x + PART_INSET,
            y: middle,
        };
        page.parts.push((question, part, at));
        for choice in 0..options {
            let (row, column) = (choice / ROW_CHOICES, choice % ROW_CHOICES);
            page.bubbles.push(Bubble {
                question,
                part,
                choice: choice as i32 + 1,
                label: label(choice as i32),
                center: Point {
                    x: x + NUMBER_WIDTH + BUBBLE_PITCH * column as f32,
                    y: middle + ROW_HEIGHT * row as f32,
                },
            });
        }
        *y += part_height;
    }
}
