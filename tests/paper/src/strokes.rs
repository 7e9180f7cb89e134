//! Marks made with strokes rather than fills, as participants really mark a
//! sheet whatever it asks (issue 36): ticks, crosses, a ring round the letter,
//! and a cross rubbed out. Each is drawn with a pencil's or a pen's line of its
//! own width and grey, from a seed, at varied sizes, angles and places.

use image::GrayImage;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use scoredesk_sheets::layout::Point;

use crate::px;

/// A line's look: its width (millimetres) and its grey with the grain's spread.
#[derive(Debug, Clone, Copy)]
pub struct Line {
    pub width: f32,
    pub grey: f32,
}

impl Line {
    /// Graphite or a ballpoint, at random: 0.3 to 0.5 mm, grey 30 to 110.
    pub fn random(rng: &mut ChaCha8Rng) -> Line {
        Line {
            width: rng.random_range(0.3..0.5),
            grey: if rng.random_bool(0.3) {
                rng.random_range(30.0..60.0)
            } else {
                rng.random_range(60.0..110.0)
            },
        }
    }

    /// What rubbing a line out leaves: grey 215 to 238.
    pub fn rubbed_out(self, rng: &mut ChaCha8Rng) -> Line {
        Line {
            grey: rng.random_range(215.0..238.0),
            ..self
        }
    }
}

/// A line from `a` to `b` (millimetres on a 300 dpi page), its grain a grey
/// spread of ±18 and a few bare points.
pub fn draw_line(
    page: &mut GrayImage,
    a: (f32, f32),
    b: (f32, f32),
    line: Line,
    rng: &mut ChaCha8Rng,
) {
    let length = (b.0 - a.0).hypot(b.1 - a.1);
    let steps = (px(length) * 2.0).ceil().max(1.0) as i32;
    let radius = px(line.width / 2.0);
    for step in 0..=steps {
        let t = step as f32 / steps as f32;
        let (cx, cy) = (px(a.0 + t * (b.0 - a.0)), px(a.1 + t * (b.1 - a.1)));
        for y in (cy - radius).floor() as i32..=(cy + radius).ceil() as i32 {
            for x in (cx - radius).floor() as i32..=(cx + radius).ceil() as i32 {
                let inside = (x as f32 + 0.5 - cx).hypot(y as f32 + 0.5 - cy) <= radius;
                if !inside || rng.random_bool(0.05) {
                    continue;
                }
                let (Ok(x), Ok(y)) = (u32::try_from(x), u32::try_from(y)) else {
                    continue;
                };
                if let Some(pixel) = page.get_pixel_mut_checked(x, y) {
                    let value = line.grey + rng.random_range(-18.0..18.0);
                    pixel.0[0] = pixel.0[0].min(value.clamp(0.0, 255.0) as u8);
                }
            }
        }
    }
}

/// A tick over the bubble at `center`: a short stroke down to its corner near
/// the middle, then a long one up and to the right, the long one 2 to 5.5 mm
/// (a small tick stays in the bubble, a hurried one leaves it far behind).
pub fn tick(page: &mut GrayImage, center: Point, line: Line, rng: &mut ChaCha8Rng) {
    let corner = (
        center.x + rng.random_range(-0.8..0.6),
        center.y + rng.random_range(-0.2..1.2),
    );
    let short: f32 = rng.random_range(1.0..2.2);
    let short_angle: f32 = rng.random_range(200.0f32..245.0).to_radians();
    let long: f32 = rng.random_range(2.0..5.5);
    let long_angle: f32 = rng.random_range(-75.0f32..-45.0).to_radians();
    let start = (
        corner.0 + short * short_angle.cos(),
        corner.1 + short * short_angle.sin(),
    );
    let end = (
        corner.0 + long * long_angle.cos(),
        corner.1 + long * long_angle.sin(),
    );
    draw_line(page, start, corner, line, rng);
    draw_line(page, corner, end, line, rng);
}

/// A cross (×) over the bubble at `center`: two strokes crossing near its
/// middle, each arm 1.4 to 3.4 mm, tilted a little.
pub fn cross(page: &mut GrayImage, center: Point, line: Line, rng: &mut ChaCha8Rng) {
    let middle = (
        center.x + rng.random_range(-0.6..0.6),
        center.y + rng.random_range(-0.6..0.6),
    );
    let tilt: f32 = rng.random_range(-0.3..0.3);
    for direction in [std::f32::consts::FRAC_PI_4, -std::f32::consts::FRAC_PI_4] {
        let angle = direction + tilt + rng.random_range(-0.15..0.15);
        let (dx, dy) = (angle.cos(), angle.sin());
        let (back, on): (f32, f32) = (rng.random_range(1.4..3.4), rng.random_range(1.4..3.4));
        draw_line(
            page,
            (middle.0 - back * dx, middle.1 - back * dy),
            (middle.0 + on * dx, middle.1 + on * dy),
            line,
            rng,
        );
    }
}

/// A ring drawn round the bubble at `center`, outside its printed ring: radius
/// 3.2 to 3.9 mm, a little oval, begun anywhere and closed short or overlapping.
pub fn circle(page: &mut GrayImage, center: Point, line: Line, rng: &mut ChaCha8Rng) {
    let middle = (
        center.x + rng.random_range(-0.3..0.3),
        center.y + rng.random_range(-0.3..0.3),
    );
    let (rx, ry): (f32, f32) = (rng.random_range(3.2..3.9), rng.random_range(3.2..3.9));
    let start: f32 = rng.random_range(0.0..std::f32::consts::TAU);
    let sweep: f32 = rng.random_range(330.0f32..400.0).to_radians();
    let pieces = 48;
    let at = |t: f32| {
        let angle = start + sweep * t;
        (middle.0 + rx * angle.cos(), middle.1 + ry * angle.sin())
    };
    for piece in 0..pieces {
        let (t0, t1) = (
            piece as f32 / pieces as f32,
            (piece + 1) as f32 / pieces as f32,
        );
        draw_line(page, at(t0), at(t1), line, rng);
    }
}

/// A pen stroke from one point to another of a letter's unit box.
type Stroke = ((f32, f32), (f32, f32));

/// Capital letters as pen strokes in a unit box (x right, y down): what a
/// one- or two-letter answer is written with.
const LETTERS: [&[Stroke]; 6] = [
    // A
    &[
        ((0.0, 1.0), (0.5, 0.0)),
        ((0.5, 0.0), (1.0, 1.0)),
        ((0.25, 0.55), (0.75, 0.55)),
    ],
    // N
    &[
        ((0.0, 1.0), (0.0, 0.0)),
        ((0.0, 0.0), (1.0, 1.0)),
        ((1.0, 1.0), (1.0, 0.0)),
    ],
    // X
    &[((0.0, 0.0), (1.0, 1.0)), ((1.0, 0.0), (0.0, 1.0))],
    // V
    &[((0.0, 0.0), (0.5, 1.0)), ((0.5, 1.0), (1.0, 0.0))],
    // 4
    &[
        ((0.7, 1.0), (0.7, 0.0)),
        ((0.7, 0.0), (0.0, 0.7)),
        ((0.0, 0.7), (1.0, 0.7)),
    ],
    // Z
    &[
        ((0.0, 0.0), (1.0, 0.0)),
        ((1.0, 0.0), (0.0, 1.0)),
        ((0.0, 1.0), (1.0, 1.0)),
    ],
];

/// One or two capital letters, 3 to 5 mm high, somewhere in `frame`
/// (millimetres): a very short answer in a frame made for an essay. Returns
/// where their ink centres.
pub fn write_letters(
    page: &mut GrayImage,
    frame: scoredesk_sheets::layout::Rect,
    rng: &mut ChaCha8Rng,
) -> Point {
    let height: f32 = rng.random_range(3.0..5.0);
    let width = height * 0.7;
    let count = rng.random_range(1..=2);
    let left = frame.x + rng.random_range(5.0..(frame.width - 20.0).max(6.0));
    let top = frame.y + rng.random_range(4.0..(frame.height - 10.0).max(5.0));
    let line = Line {
        width: rng.random_range(0.35..0.5),
        grey: rng.random_range(45.0..100.0),
    };
    for letter in 0..count {
        let x0 = left + letter as f32 * (width + 1.5);
        let strokes = LETTERS[rng.random_range(0..LETTERS.len())];
        for ((ax, ay), (bx, by)) in strokes {
            let a = (x0 + ax * width, top + ay * height);
            let b = (x0 + bx * width, top + by * height);
            draw_line(page, a, b, line, rng);
        }
    }
    let across = count as f32 * width + (count - 1) as f32 * 1.5;
    Point {
        x: left + across / 2.0,
        y: top + height / 2.0,
    }
}
