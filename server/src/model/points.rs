//! Point questions (docs/content.md, "Points on a picture"): places marked on a
//! picture (QTI's select point, and position object, an object placed on one),
//! answered with points in the picture's own pixels and marked by its areas as
//! QTI's `map_response_point` marks them. An area is stored as one of the
//! question's choices: its text the shape and coordinates (`circle 102 113 16`),
//! its mapped value what a point in it is worth.

use geo::{Coord, Intersects, LineString, Polygon, Rect};

use super::scoring_rule::{bounded, ScoringRule};

/// The picture the points are marked on: its size in its own pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Picture {
    pub width: f64,
    pub height: f64,
}

impl Picture {
    /// Whether `point` lies on the picture (its edges included).
    pub fn holds(&self, (x, y): (f64, f64)) -> bool {
        (0.0..=self.width).contains(&x) && (0.0..=self.height).contains(&y)
    }
}

/// An area of the picture: QTI's shapes, in the picture's pixels.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    Circle {
        x: f64,
        y: f64,
        r: f64,
    },
    Rect(Rect<f64>),
    Ellipse {
        x: f64,
        y: f64,
        rx: f64,
        ry: f64,
    },
    Poly(Polygon<f64>),
    /// The whole picture.
    Default,
}

impl Shape {
    /// The area as stored: a shape's name and its coordinates, separated by
    /// spaces (`circle 102 113 16`, `rect 10 10 100 50`, `default`).
    pub fn parse(text: &str) -> Option<Self> {
        let mut words = text.split_whitespace();
        let name = words.next()?;
        let c: Vec<f64> = words
            .map(|w| w.parse::<f64>().ok().filter(|v| v.is_finite()))
            .collect::<Option<_>>()?;
        match (name, c.as_slice()) {
            ("circle", [x, y, r]) => Some(Shape::Circle {
                x: *x,
                y: *y,
                r: *r,
            }),
            ("rect", [left, top, right, bottom]) => Some(Shape::Rect(Rect::new(
                Coord { x: *left, y: *top },
                Coord {
                    x: *right,
                    y: *bottom,
                },
            ))),
            ("ellipse", [x, y, rx, ry]) => Some(Shape::Ellipse {
                x: *x,
                y: *y,
                rx: *rx,
                ry: *ry,
            }),
            ("poly", corners) if corners.len() >= 6 && corners.len().is_multiple_of(2) => {
                let ring: Vec<Coord<f64>> = corners
                    .chunks_exact(2)
                    .map(|p| Coord { x: p[0], y: p[1] })
                    .collect();
                Some(Shape::Poly(Polygon::new(LineString::new(ring), Vec::new())))
            }
            ("default", []) => Some(Shape::Default),
            _ => None,
        }
    }

    /// The stored form of a shape named `name` with `coords`.
    pub fn stored(name: &str, coords: &[f64]) -> String {
        std::iter::once(name.to_owned())
            .chain(coords.iter().map(|c| number(*c)))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The area in words, for an answer key: "a circle of radius 16 round
    /// (102, 113)".
    pub fn describe(&self) -> String {
        let at = |x: f64, y: f64| format!("({}, {})", number(x), number(y));
        match self {
            Shape::Circle { x, y, r } => {
                format!("a circle of radius {} round {}", number(*r), at(*x, *y))
            }
            Shape::Rect(rect) => format!(
                "the rectangle from {} to {}",
                at(rect.min().x, rect.min().y),
                at(rect.max().x, rect.max().y)
            ),
            Shape::Ellipse { x, y, rx, ry } => format!(
                "an ellipse round {}, {} across and {} down",
                at(*x, *y),
                number(2.0 * rx),
                number(2.0 * ry)
            ),
            Shape::Poly(polygon) => {
                let corners =
                    polygon.exterior().0.len() - usize::from(polygon.exterior().is_closed());
                let first = polygon.exterior().0[0];
                format!("a shape of {corners} corners from {}", at(first.x, first.y))
            }
            Shape::Default => "anywhere on the picture".to_owned(),
        }
    }

    /// Whether `point` is in the area: its edge counts as in, as QTI's
    /// reference implementation counts a rectangle's and a polygon's (a circle's
    /// edge too here: a cross drawn on the line is meant for the place).
    pub fn contains(&self, (px, py): (f64, f64)) -> bool {
        match self {
            Shape::Circle { x, y, r } => (px - x).powi(2) + (py - y).powi(2) <= r * r,
            Shape::Rect(rect) => rect.intersects(&Coord { x: px, y: py }),
            Shape::Ellipse { x, y, rx, ry } => {
                *rx > 0.0 && *ry > 0.0 && ((px - x) / rx).powi(2) + ((py - y) / ry).powi(2) <= 1.0
            }
            Shape::Poly(polygon) => polygon.intersects(&Coord { x: px, y: py }),
            Shape::Default => true,
        }
    }
}

/// An area and what a point in it is worth.
#[derive(Debug, Clone, PartialEq)]
pub struct Area {
    pub shape: Shape,
    pub value: f64,
}

/// The score of `points` on a picture with `areas`: under map_response (QTI's
/// map_response_point) each area holding a point adds its value once, however
/// many it holds; no area holding one gives the default; the sum within the
/// bounds. Under match_correct, the maximum when every area worth something holds
/// a point and no point lies outside them. No point at all scores 0.
pub fn points_score(
    rule: &ScoringRule,
    max_score: i32,
    areas: &[Area],
    points: &[(f64, f64)],
) -> i32 {
    if points.is_empty() {
        return 0;
    }
    let held = |area: &Area| points.iter().any(|p| area.shape.contains(*p));
    match rule {
        ScoringRule::MapResponse {
            default_value,
            lower_bound,
            upper_bound,
        } => {
            let hit: Vec<f64> = areas.iter().filter(|a| held(a)).map(|a| a.value).collect();
            if hit.is_empty() {
                bounded(*default_value, None, None, max_score)
            } else {
                bounded(hit.iter().sum(), *lower_bound, *upper_bound, max_score)
            }
        }
        ScoringRule::MatchCorrect | ScoringRule::Service => {
            let worth: Vec<&Area> = areas.iter().filter(|a| a.value > 0.0).collect();
            let all_held = worth.iter().all(|a| held(a));
            let none_astray = points
                .iter()
                .all(|p| worth.iter().any(|a| a.shape.contains(*p)));
            if all_held && none_astray {
                max_score
            } else {
                0
            }
        }
    }
}

/// Points as an answer stores them (the Answer's `$value`): `x y` in the
/// picture's pixels, comma-separated, in the order given (`102 113,96.5 114`).
pub fn stored_points(points: &[(f64, f64)]) -> String {
    points
        .iter()
        .map(|(x, y)| format!("{} {}", number(*x), number(*y)))
        .collect::<Vec<_>>()
        .join(",")
}

/// A coordinate as written: a whole number without its point, otherwise to two
/// decimals at most.
fn number(value: f64) -> String {
    let rounded = (value * 100.0).round() / 100.0;
    if rounded == rounded.trunc() {
        format!("{}", rounded as i64)
    } else {
        format!("{rounded}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn area(text: &str, value: f64) -> Area {
        Area {
            shape: Shape::parse(text).unwrap_or_else(|| panic!("{text}")),
            value,
        }
    }

    const MAPPED: ScoringRule = ScoringRule::MapResponse {
        default_value: 0.0,
        lower_bound: None,
        upper_bound: None,
    };

    #[test]
    fn each_shape_holds_its_inside_and_its_edge_and_nothing_else() {
        let circle = Shape::parse("circle 102 113 16").unwrap();
        assert!(circle.contains((102.0, 113.0)) && circle.contains((118.0, 113.0)));
        assert!(!circle.contains((113.4, 124.4)) && !circle.contains((119.0, 113.0)));
        let rect = Shape::parse("rect 10 10 100 50").unwrap();
        assert!(rect.contains((10.0, 50.0)) && rect.contains((55.0, 30.0)));
        assert!(!rect.contains((9.9, 30.0)) && !rect.contains((55.0, 50.1)));
        let ellipse = Shape::parse("ellipse 150 50 20 10").unwrap();
        assert!(ellipse.contains((169.0, 50.0)) && !ellipse.contains((150.0, 61.0)));
        // A triangle's hypotenuse, a corner, and a point beside it.
        let triangle = Shape::parse("poly 0 0 100 0 0 100").unwrap();
        assert!(triangle.contains((50.0, 50.0)) && triangle.contains((0.0, 0.0)));
        assert!(triangle.contains((20.0, 20.0)) && !triangle.contains((60.0, 50.0)));
        // A concave outline: the notch is outside.
        let notched = Shape::parse("poly 0 0 100 0 100 100 50 50 0 100").unwrap();
        assert!(!notched.contains((50.0, 80.0)) && notched.contains((50.0, 20.0)));
        assert!(Shape::parse("default").unwrap().contains((1e6, -5.0)));
    }

    #[test]
    fn each_area_says_where_it_is() {
        let said = |text: &str| Shape::parse(text).unwrap().describe();
        assert_eq!(
            said("circle 102 113 16"),
            "a circle of radius 16 round (102, 113)"
        );
        assert_eq!(
            said("rect 100 50 10 10.5"),
            "the rectangle from (10, 10.5) to (100, 50)"
        );
        assert_eq!(
            said("ellipse 150 50 20 10"),
            "an ellipse round (150, 50), 40 across and 20 down"
        );
        assert_eq!(
            said("poly 0 0 100 0 0 100"),
            "a shape of 3 corners from (0, 0)"
        );
        assert_eq!(said("default"), "anywhere on the picture");
    }

    #[test]
    fn what_is_not_an_area_is_not_read_as_one() {
        for text in [
            "",
            "circle 1 2",
            "rect 1 2 3",
            "poly 1 2 3 4",
            "poly 1 2 3 4 5 6 7",
            "star 1 2 3",
            "circle 1 2 NaN",
            "circle 1 2 x",
            "default 1",
        ] {
            assert_eq!(Shape::parse(text), None, "{text}");
        }
        assert_eq!(
            Shape::stored("circle", &[102.0, 113.5, 16.0]),
            "circle 102 113.5 16"
        );
        assert_eq!(
            Shape::parse(&Shape::stored("rect", &[1.0, 2.0, 3.0, 4.0])),
            Shape::parse("rect 1 2 3 4")
        );
    }

    #[test]
    fn an_area_counts_once_however_many_points_it_holds() {
        let airports = [
            area("circle 118 184 12", 1.0),
            area("circle 150 235 12", 1.0),
            area("circle 96 114 12", 1.0),
        ];
        assert_eq!(
            points_score(
                &MAPPED,
                3,
                &airports,
                &[(118.0, 184.0), (150.0, 240.0), (96.0, 114.0)]
            ),
            3
        );
        assert_eq!(
            points_score(
                &MAPPED,
                3,
                &airports,
                &[(118.0, 184.0), (120.0, 186.0), (119.0, 183.0)]
            ),
            1
        );
        assert_eq!(
            points_score(&MAPPED, 3, &airports, &[(118.0, 184.0), (10.0, 10.0)]),
            1
        );
        assert_eq!(points_score(&MAPPED, 3, &airports, &[]), 0);
    }

    #[test]
    fn the_default_counts_when_no_area_holds_a_point_and_the_bounds_hold_the_sum() {
        let rule = ScoringRule::MapResponse {
            default_value: 1.0,
            lower_bound: Some(0.0),
            upper_bound: Some(2.0),
        };
        let areas = [
            area("rect 0 0 10 10", 2.0),
            area("rect 20 0 30 10", 2.0),
            area("rect 40 0 50 10", -3.0),
        ];
        // Nothing held: the default (QTI's reference implementation does not bound it).
        assert_eq!(points_score(&rule, 4, &areas, &[(100.0, 100.0)]), 1);
        assert_eq!(
            points_score(&rule, 4, &areas, &[(5.0, 5.0), (25.0, 5.0)]),
            2
        );
        assert_eq!(
            points_score(&rule, 4, &areas, &[(5.0, 5.0), (45.0, 5.0)]),
            0
        );
        // Halves round away from zero, as every mapped sum does.
        let half = [area("circle 0 0 5", 0.5), area("circle 20 0 5", 1.0)];
        assert_eq!(
            points_score(&MAPPED, 2, &half, &[(0.0, 0.0), (20.0, 0.0)]),
            2
        );
        assert_eq!(points_score(&MAPPED, 2, &half, &[(0.0, 0.0)]), 1);
    }

    #[test]
    fn match_correct_wants_every_area_and_no_stray_point() {
        let areas = [
            area("circle 0 0 5", 1.0),
            area("circle 20 0 5", 1.0),
            area("circle 40 0 5", 0.0),
        ];
        assert_eq!(
            points_score(
                &ScoringRule::MatchCorrect,
                2,
                &areas,
                &[(0.0, 0.0), (20.0, 1.0)]
            ),
            2
        );
        assert_eq!(
            points_score(&ScoringRule::MatchCorrect, 2, &areas, &[(0.0, 0.0)]),
            0
        );
        assert_eq!(
            points_score(
                &ScoringRule::MatchCorrect,
                2,
                &areas,
                &[(0.0, 0.0), (20.0, 1.0), (40.0, 0.0)]
            ),
            0
        );
    }

    #[test]
    fn points_are_stored_as_written_whole_or_to_two_decimals() {
        assert_eq!(
            stored_points(&[(102.0, 113.0), (96.456, 114.5)]),
            "102 113,96.46 114.5"
        );
        assert_eq!(stored_points(&[]), "");
        let picture = Picture {
            width: 196.0,
            height: 280.0,
        };
        assert!(
            picture.holds((0.0, 280.0))
                && !picture.holds((196.5, 10.0))
                && !picture.holds((-1.0, 0.0))
        );
    }
}
