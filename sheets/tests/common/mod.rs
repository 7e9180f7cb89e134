//! What the written-answer tests share: pencil strokes on a page drawn at 200 dpi.

use image::{GrayImage, Luma};
use imageproc::drawing::draw_line_segment_mut;
use scoredesk_sheets::layout::Rect;

/// The resolution the tests draw their pages at.
pub const DPI: f32 = 200.0;

/// A pencil stroke from one point to another, in millimetres from the frame's
/// (or box's) top left corner.
pub type Stroke = ((f32, f32), (f32, f32));

/// Pencil `strokes` in `frame`, each about 0.4 mm wide: three one-pixel lines
/// side by side.
pub fn write(image: &mut GrayImage, frame: Rect, strokes: &[Stroke]) {
    let px = |mm: f32| mm * DPI / 25.4;
    for ((x0, y0), (x1, y1)) in strokes {
        for offset in 0..3 {
            let dy = offset as f32;
            draw_line_segment_mut(
                image,
                (px(frame.x + x0), px(frame.y + y0) + dy),
                (px(frame.x + x1), px(frame.y + y1) + dy),
                Luma([70]),
            );
        }
    }
}
