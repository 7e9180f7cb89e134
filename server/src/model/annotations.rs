//! Annotations on a script (docs/marking-quality.md, "Annotations"): what a
//! marker may draw or write on one answer block, and where. On a scan a mark is
//! placed by points in the image's own pixels (as stored, before any rotation
//! of the view), so zooming or turning the view changes nothing stored; on a
//! typed answer by a range of its characters (Unicode scalar values of the text
//! as `Answers(...)/$value` serves it), since the text reflows with the window.

use std::io::Cursor;

/// The most points one stroke keeps: a long pen stroke sampled at the pointer's
/// rate stays well under it once thinned by the desktop.
pub const MAX_POINTS: usize = 4_000;
/// The longest note, in characters: as long as a dimension's comment.
pub const NOTE_LENGTH: usize = 4_000;
/// The longest `Points`, in characters: `MAX_POINTS` pairs of five-digit numbers.
pub const POINTS_LENGTH: usize = MAX_POINTS * 12;
/// How many annotations one marker may place on one task.
pub const PER_MARKER_AND_TASK: i64 = 1_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnnotationKind {
    /// A free stroke (scans only).
    Pen,
    /// A wide translucent stroke on a scan, or a highlighted range of text.
    Highlighter,
    Tick,
    Cross,
    /// Words placed on the script.
    Note,
}

impl AnnotationKind {
    pub const NAMES: &'static str = "pen, highlighter, tick, cross or note";

    pub fn parse(text: &str) -> Result<Self, String> {
        Ok(match text {
            "pen" => Self::Pen,
            "highlighter" => Self::Highlighter,
            "tick" => Self::Tick,
            "cross" => Self::Cross,
            "note" => Self::Note,
            other => {
                return Err(format!(
                    "Annotation.Kind is '{other}': it is one of {}",
                    Self::NAMES
                ))
            }
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pen => "pen",
            Self::Highlighter => "highlighter",
            Self::Tick => "tick",
            Self::Cross => "cross",
            Self::Note => "note",
        }
    }

    /// Strokes have a line of points; stamps and notes one point.
    fn is_stroke(self) -> bool {
        matches!(self, Self::Pen | Self::Highlighter)
    }
}

/// What an answer block is for annotating.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Canvas {
    /// An image of `width` × `height` pixels.
    Scan { width: u32, height: u32 },
    /// Typed text of `chars` characters.
    Text { chars: usize },
}

/// The canvas of a stored answer block: a PNG or JPEG scan by its header, typed
/// text by its characters; none for anything else (or an image that does not
/// decode), which takes no annotations.
pub fn canvas_of(media_type: &str, content: &[u8]) -> Option<Canvas> {
    let essence = media_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    match essence.as_str() {
        "text/plain" => Some(Canvas::Text {
            chars: String::from_utf8_lossy(content).chars().count(),
        }),
        "image/png" | "image/jpeg" => {
            let (width, height) = image::ImageReader::new(Cursor::new(content))
                .with_guessed_format()
                .ok()?
                .into_dimensions()
                .ok()?;
            Some(Canvas::Scan { width, height })
        }
        _ => None,
    }
}

/// An annotation as a client sends it, before it is checked.
#[derive(Debug, Clone, Copy)]
pub struct Placement<'a> {
    pub kind: AnnotationKind,
    pub points: Option<&'a str>,
    pub text_start: Option<i32>,
    pub text_end: Option<i32>,
    pub text: Option<&'a str>,
}

/// Where an annotation sits, checked against its canvas.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Position {
    /// Points on a scan, in its pixels, written back as `x,y x,y …`.
    Points(Vec<(u32, u32)>),
    /// Characters `[start, end)` of a typed answer.
    Range { start: i32, end: i32 },
}

/// An annotation ready to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckedAnnotation {
    pub kind: AnnotationKind,
    pub position: Position,
    /// A note's words or a mark's comment; none when empty.
    pub text: Option<String>,
}

impl CheckedAnnotation {
    /// `Points` as stored, or none on a typed answer.
    pub fn points_text(&self) -> Option<String> {
        match &self.position {
            Position::Points(points) => Some(
                points
                    .iter()
                    .map(|(x, y)| format!("{x},{y}"))
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
            Position::Range { .. } => None,
        }
    }

    pub fn range(&self) -> Option<(i32, i32)> {
        match self.position {
            Position::Range { start, end } => Some((start, end)),
            Position::Points(_) => None,
        }
    }
}

/// Checks an annotation against the block it is placed on: each refusal names
/// the property that is wrong and what would be right.
pub fn check_annotation(
    placement: Placement<'_>,
    canvas: Canvas,
) -> Result<CheckedAnnotation, String> {
    let kind = placement.kind;
    let position = match canvas {
        Canvas::Scan { width, height } => {
            if placement.text_start.is_some() || placement.text_end.is_some() {
                return Err("Annotation.TextStart and TextEnd place a mark on a typed \
                            answer: on a scan, place it by Points"
                    .into());
            }
            let points = placement.points.ok_or_else(|| {
                format!(
                    "Annotation.Points is required on a scan: 'x,y' pairs in the image's \
                     pixels (0 to {} across, 0 to {} down), separated by spaces",
                    width.saturating_sub(1),
                    height.saturating_sub(1)
                )
            })?;
            Position::Points(check_points(kind, points, width, height)?)
        }
        Canvas::Text { chars } => {
            if kind == AnnotationKind::Pen {
                return Err(
                    "Annotation.Kind is 'pen', which draws on a scan: on a typed \
                            answer, mark a range of its text (highlighter, tick, cross or note)"
                        .into(),
                );
            }
            if placement.points.is_some() {
                return Err(
                    "Annotation.Points places a mark on a scan: on a typed answer, \
                            place it by TextStart and TextEnd"
                        .into(),
                );
            }
            let (Some(start), Some(end)) = (placement.text_start, placement.text_end) else {
                return Err(format!(
                    "Annotation.TextStart and TextEnd are required on a typed answer: the \
                     range of its characters marked, from 0 to {chars}"
                ));
            };
            let chars = i64::try_from(chars).unwrap_or(i64::MAX);
            if start < 0 || i64::from(end) > chars || start >= end {
                return Err(format!(
                    "Annotation.TextStart {start} and TextEnd {end} are not a range of the \
                     answer's {chars} characters: 0 <= TextStart < TextEnd <= {chars}"
                ));
            }
            Position::Range { start, end }
        }
    };
    let text = placement
        .text
        .map(str::trim)
        .filter(|text| !text.is_empty())
        .map(str::to_owned);
    if let Some(text) = &text {
        let length = text.chars().count();
        if length > NOTE_LENGTH {
            return Err(format!(
                "Annotation.Text has {length} characters; at most {NOTE_LENGTH}"
            ));
        }
    } else if kind == AnnotationKind::Note {
        return Err("Annotation.Text is required for a note: the words it places".into());
    }
    Ok(CheckedAnnotation {
        kind,
        position,
        text,
    })
}

/// `x,y x,y …`: whole pixels inside the image, as many as the kind takes.
fn check_points(
    kind: AnnotationKind,
    points: &str,
    width: u32,
    height: u32,
) -> Result<Vec<(u32, u32)>, String> {
    let mut parsed = Vec::new();
    for (index, pair) in points.split_ascii_whitespace().enumerate() {
        if parsed.len() == MAX_POINTS {
            return Err(format!(
                "Annotation.Points has more than {MAX_POINTS} points: thin the stroke"
            ));
        }
        let point = pair
            .split_once(',')
            .and_then(|(x, y)| Some((whole(x)?, whole(y)?)))
            .ok_or_else(|| {
                format!(
                    "Annotation.Points: point {} is '{pair}', not 'x,y' in whole pixels",
                    index + 1
                )
            })?;
        if point.0 >= width || point.1 >= height {
            return Err(format!(
                "Annotation.Points: point {} ({},{}) is outside the scan, which is {width} \
                 × {height} pixels",
                index + 1,
                point.0,
                point.1
            ));
        }
        parsed.push(point);
    }
    let wanted = if kind.is_stroke() {
        "at least 2 points"
    } else {
        "exactly 1 point"
    };
    let fits = if kind.is_stroke() {
        parsed.len() >= 2
    } else {
        parsed.len() == 1
    };
    if !fits {
        return Err(format!(
            "Annotation.Points has {} points: a {} takes {wanted}",
            parsed.len(),
            kind.as_str()
        ));
    }
    Ok(parsed)
}

/// A whole number of pixels: digits only (no sign, no fraction).
fn whole(text: &str) -> Option<u32> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCAN: Canvas = Canvas::Scan {
        width: 1000,
        height: 1400,
    };
    const TEXT: Canvas = Canvas::Text { chars: 12 };

    fn placed(kind: AnnotationKind) -> Placement<'static> {
        Placement {
            kind,
            points: None,
            text_start: None,
            text_end: None,
            text: None,
        }
    }

    #[test]
    fn strokes_and_stamps_on_a_scan_are_points_inside_it() {
        let pen = Placement {
            points: Some("10,20  999,1399\n5,5"),
            ..placed(AnnotationKind::Pen)
        };
        let checked = check_annotation(pen, SCAN).unwrap();
        assert_eq!(checked.points_text().as_deref(), Some("10,20 999,1399 5,5"));
        assert_eq!(checked.range(), None);
        let tick = Placement {
            points: Some("500,700"),
            ..placed(AnnotationKind::Tick)
        };
        assert!(check_annotation(tick, SCAN).is_ok());
        for (points, named) in [
            ("1000,5 6,6", "outside the scan"),
            ("5,1400 6,6", "outside the scan"),
            ("5,5", "at least 2 points"),
            ("-1,5 6,6", "point 1 is '-1,5'"),
            ("5.5,5 6,6", "not 'x,y'"),
            ("5;5 6,6", "not 'x,y'"),
            ("5,5,5 6,6", "not 'x,y'"),
            ("", "at least 2 points"),
        ] {
            let pen = Placement {
                points: Some(points),
                ..placed(AnnotationKind::Pen)
            };
            let refusal = check_annotation(pen, SCAN).unwrap_err();
            assert!(refusal.contains(named), "{points}: {refusal}");
        }
        let two_ticks = Placement {
            points: Some("1,1 2,2"),
            ..placed(AnnotationKind::Cross)
        };
        assert!(check_annotation(two_ticks, SCAN)
            .unwrap_err()
            .contains("exactly 1 point"));
        let many = vec!["1,1"; MAX_POINTS + 1].join(" ");
        let long = Placement {
            points: Some(&many),
            ..placed(AnnotationKind::Pen)
        };
        assert!(check_annotation(long, SCAN)
            .unwrap_err()
            .contains("more than"));
    }

    #[test]
    fn a_scan_takes_no_range_and_text_no_points_or_pen() {
        let ranged = Placement {
            points: Some("1,1"),
            text_start: Some(0),
            text_end: Some(2),
            ..placed(AnnotationKind::Tick)
        };
        assert!(check_annotation(ranged, SCAN)
            .unwrap_err()
            .contains("TextStart"));
        assert!(check_annotation(placed(AnnotationKind::Tick), SCAN)
            .unwrap_err()
            .contains("Points is required"));
        let pen = Placement {
            text_start: Some(0),
            text_end: Some(2),
            ..placed(AnnotationKind::Pen)
        };
        assert!(check_annotation(pen, TEXT).unwrap_err().contains("'pen'"));
        let pointed = Placement {
            points: Some("1,1"),
            ..placed(AnnotationKind::Tick)
        };
        assert!(check_annotation(pointed, TEXT)
            .unwrap_err()
            .contains("Points places a mark on a scan"));
    }

    #[test]
    fn a_range_of_text_lies_inside_the_answer() {
        let marked = |start, end| Placement {
            text_start: Some(start),
            text_end: Some(end),
            ..placed(AnnotationKind::Highlighter)
        };
        let checked = check_annotation(marked(0, 12), TEXT).unwrap();
        assert_eq!(checked.range(), Some((0, 12)));
        assert_eq!(checked.points_text(), None);
        for (start, end) in [(-1, 3), (3, 3), (4, 2), (0, 13)] {
            let refusal = check_annotation(marked(start, end), TEXT).unwrap_err();
            assert!(refusal.contains("not a range"), "{start}..{end}: {refusal}");
        }
        let half = Placement {
            text_start: Some(1),
            ..placed(AnnotationKind::Highlighter)
        };
        assert!(check_annotation(half, TEXT)
            .unwrap_err()
            .contains("are required"));
    }

    #[test]
    fn a_note_has_words_and_other_marks_may() {
        let note = |text| Placement {
            points: Some("3,4"),
            text,
            ..placed(AnnotationKind::Note)
        };
        assert!(check_annotation(note(None), SCAN)
            .unwrap_err()
            .contains("required for a note"));
        assert!(check_annotation(note(Some("  \n ")), SCAN).is_err());
        let kept = check_annotation(note(Some("  see line 3 ")), SCAN).unwrap();
        assert_eq!(kept.text.as_deref(), Some("see line 3"));
        let long = "é".repeat(NOTE_LENGTH + 1);
        assert!(check_annotation(note(Some(&long)), SCAN)
            .unwrap_err()
            .contains("at most"));
        let tick = Placement {
            points: Some("3,4"),
            text: Some(""),
            ..placed(AnnotationKind::Tick)
        };
        assert_eq!(check_annotation(tick, SCAN).unwrap().text, None);
    }

    #[test]
    fn kinds_are_named_as_stored() {
        for kind in [
            AnnotationKind::Pen,
            AnnotationKind::Highlighter,
            AnnotationKind::Tick,
            AnnotationKind::Cross,
            AnnotationKind::Note,
        ] {
            assert_eq!(AnnotationKind::parse(kind.as_str()), Ok(kind));
        }
        assert!(AnnotationKind::parse("Tick")
            .unwrap_err()
            .contains("one of"));
    }

    #[test]
    fn a_canvas_is_a_scan_by_its_header_or_text_by_its_characters() {
        let mut png = Vec::new();
        image::RgbImage::new(31, 17)
            .write_to(&mut Cursor::new(&mut png), image::ImageFormat::Png)
            .unwrap();
        assert_eq!(
            canvas_of("image/png", &png),
            Some(Canvas::Scan {
                width: 31,
                height: 17
            })
        );
        assert_eq!(canvas_of("image/png", b"not a png"), None);
        assert_eq!(
            canvas_of("text/plain; charset=utf-8", "ça va".as_bytes()),
            Some(Canvas::Text { chars: 5 })
        );
        assert_eq!(canvas_of("application/pdf", b"%PDF"), None);
    }
}
