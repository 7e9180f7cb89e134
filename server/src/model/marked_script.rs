//! A marked script, as a coordinator prints it or returns it to the student
//! (docs/marking-quality.md, "The marked script"): each marked question of one
//! result with its answer, the marks drawn on it, its scores and comments. What
//! is pure here: where a tick, cross or note number goes on a scan, and how a
//! typed answer is cut into pieces around its marks (as the desktop shows them,
//! `ui/src/lib/annotations.ts`).

/// One result's marked questions.
#[derive(Debug, Clone)]
pub struct MarkedScript {
    pub result_id: i32,
    pub participant: Option<String>,
    pub assessment: String,
    pub total_score: i32,
    pub max_score: i32,
    pub questions: Vec<MarkedQuestion>,
}

#[derive(Debug, Clone)]
pub struct MarkedQuestion {
    /// Its number in the paper, as the answer has it.
    pub number: i32,
    pub description: Option<String>,
    /// The question's markup as stored (the renderer sanitises it).
    pub markup: String,
    pub max_score: i32,
    /// Status 3: its marks are final.
    pub scored: bool,
    pub score: Option<i32>,
    pub comments: Option<String>,
    pub dimensions: Vec<MarkedDimension>,
    pub answer: MarkedAnswer,
    pub marks: Vec<Mark>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarkedDimension {
    pub name: String,
    pub max_score: i32,
    pub score: Option<i32>,
    pub comment: Option<String>,
}

#[derive(Debug, Clone)]
pub enum MarkedAnswer {
    Text(String),
    /// A PNG or JPEG scan and its size in pixels.
    Scan {
        media_type: String,
        content: Vec<u8>,
        width: u32,
        height: u32,
    },
    /// Something that cannot be shown on paper.
    Other(String),
}

/// An annotation as the script shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mark {
    pub kind: String,
    pub points: Vec<(u32, u32)>,
    pub range: Option<(usize, usize)>,
    pub text: Option<String>,
}

/// `x,y x,y …` as stored, read back (a point that does not read is left out).
pub fn points_of(stored: &str) -> Vec<(u32, u32)> {
    stored
        .split_ascii_whitespace()
        .filter_map(|pair| {
            let (x, y) = pair.split_once(',')?;
            Some((x.parse().ok()?, y.parse().ok()?))
        })
        .collect()
}

/// A piece of a typed answer: its text, whether a highlight covers it, and
/// the marks (ticks, crosses, notes: their indexes in the question's marks)
/// whose range ends with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    pub text: String,
    pub highlighted: bool,
    pub marks: Vec<usize>,
}

/// The typed answer cut at every edge of a mark's range.
pub fn text_pieces(text: &str, marks: &[Mark]) -> Vec<Piece> {
    let chars: Vec<char> = text.chars().collect();
    let within = |at: usize| at.min(chars.len());
    let mut edges = vec![0, chars.len()];
    for (start, end) in marks.iter().filter_map(|mark| mark.range) {
        edges.push(within(start));
        edges.push(within(end));
    }
    edges.sort_unstable();
    edges.dedup();
    edges
        .windows(2)
        .map(|cut| {
            let (start, end) = (cut[0], cut[1]);
            Piece {
                text: chars[start..end].iter().collect(),
                highlighted: marks.iter().any(|mark| {
                    mark.kind == "highlighter"
                        && mark.range.is_some_and(|(s, e)| s <= start && e >= end)
                }),
                marks: marks
                    .iter()
                    .enumerate()
                    .filter(|(_, mark)| mark.kind != "highlighter")
                    .filter(|(_, mark)| mark.range.is_some_and(|(_, e)| within(e) == end))
                    .map(|(index, _)| index)
                    .collect(),
            }
        })
        .collect()
}

/// What a mark on a scan is drawn as, in the scan's pixels: an SVG path (or
/// polyline) and, for a note, its number's place.
#[derive(Debug, Clone, PartialEq)]
pub struct Drawn {
    pub kind: String,
    /// `d` of a path, or `points` of a polyline for strokes.
    pub shape: String,
    pub stroke_width: f64,
    /// A note's number and where it is written.
    pub note: Option<(usize, f64, f64)>,
}

/// The marks on a scan of `width` × `height`, drawn as the desktop draws them
/// (`ui/src/desks/shared/AnnotationLayer.svelte`).
pub fn drawn_on_scan(marks: &[Mark], width: u32, height: u32) -> Vec<Drawn> {
    let side = f64::from(width.max(height));
    let stamp = side * 0.018;
    let mut notes = 0;
    marks
        .iter()
        .filter(|mark| !mark.points.is_empty())
        .map(|mark| {
            let (x, y) = (f64::from(mark.points[0].0), f64::from(mark.points[0].1));
            let line = || {
                mark.points
                    .iter()
                    .map(|(x, y)| format!("{x},{y}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            let (shape, stroke_width, note) = match mark.kind.as_str() {
                "pen" => (line(), side * 0.004, None),
                "highlighter" => (line(), side * 0.022, None),
                "tick" => (
                    format!(
                        "M {} {y} L {} {} L {} {}",
                        x - stamp,
                        x - stamp * 0.3,
                        y + stamp * 0.7,
                        x + stamp,
                        y - stamp
                    ),
                    stamp * 0.28,
                    None,
                ),
                "cross" => (
                    format!(
                        "M {} {} L {} {} M {} {} L {} {}",
                        x - stamp,
                        y - stamp,
                        x + stamp,
                        y + stamp,
                        x + stamp,
                        y - stamp,
                        x - stamp,
                        y + stamp
                    ),
                    stamp * 0.28,
                    None,
                ),
                _ => {
                    notes += 1;
                    (String::new(), stamp * 0.9, Some((notes, x, y)))
                }
            };
            Drawn {
                kind: mark.kind.clone(),
                shape,
                stroke_width,
                note,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranged(kind: &str, start: usize, end: usize) -> Mark {
        Mark {
            kind: kind.into(),
            points: Vec::new(),
            range: Some((start, end)),
            text: None,
        }
    }

    #[test]
    fn typed_text_is_cut_around_its_marks_in_characters() {
        let text = "één twee drie";
        let marks = [
            ranged("highlighter", 0, 8),
            ranged("tick", 4, 8),
            ranged("note", 9, 40),
        ];
        let pieces = text_pieces(text, &marks);
        let shown: Vec<(&str, bool, Vec<usize>)> = pieces
            .iter()
            .map(|p| (p.text.as_str(), p.highlighted, p.marks.clone()))
            .collect();
        assert_eq!(
            shown,
            [
                ("één ", true, vec![]),
                ("twee", true, vec![1]),
                (" ", false, vec![]),
                ("drie", false, vec![2]),
            ]
        );
        assert!(text_pieces("", &[]).is_empty());
    }

    #[test]
    fn marks_on_a_scan_are_drawn_at_their_points_and_notes_numbered() {
        let at = |kind: &str, points: Vec<(u32, u32)>| Mark {
            kind: kind.into(),
            points,
            range: None,
            text: None,
        };
        let drawn = drawn_on_scan(
            &[
                at("pen", vec![(1, 2), (30, 40)]),
                at("note", vec![(100, 200)]),
                at("tick", vec![(500, 500)]),
                at("note", vec![(7, 8)]),
            ],
            1000,
            500,
        );
        assert_eq!(drawn[0].shape, "1,2 30,40");
        assert_eq!(drawn[1].note, Some((1, 100.0, 200.0)));
        assert_eq!(drawn[2].shape, "M 482 500 L 494.6 512.6 L 518 482");
        assert_eq!(drawn[3].note, Some((2, 7.0, 8.0)));
        assert_eq!(points_of("1,2  3,4 x,5"), [(1, 2), (3, 4)]);
    }
}
