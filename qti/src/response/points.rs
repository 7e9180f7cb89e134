//! A point marked on a picture (a select point) or an object placed on one (a
//! position object, on its stage's picture): the response is points in the
//! picture's own pixels, scored by the areas of the response's `areaMapping` as
//! QTI's `map_response_point` scores them. Points scored otherwise (a match
//! against a correct point, which no hand marks exactly) skip the item.

use super::rules::number;
use crate::item::{Area, ChoiceScoring, Response};
use crate::limits;
use crate::markup::coordinates;
use crate::xml::Element;

/// The most corners a polygon area has: a hand-drawn outline of a country has
/// a few dozen; a hostile one is refused rather than tested point by point.
const MOST_CORNERS: usize = 1000;

/// `interaction` answered on `picture` of `size` (in its pixels; `None`: not
/// known from the object nor from the image).
pub(super) fn points(
    item: &Element,
    interaction: &Element,
    size: Option<(f64, f64)>,
    declaration: &Element,
) -> Result<Response, String> {
    if declaration.attribute("baseType") != Some("point") {
        return Err(format!(
            "a <{}> whose response is not of base type point",
            interaction.name
        ));
    }
    let most = match declaration.attribute("cardinality").map(str::trim) {
        Some("single") | None => 1,
        Some("multiple") => interaction
            .attribute("maxChoices")
            .map(|m| {
                m.trim()
                    .parse::<usize>()
                    .map_err(|_| format!("maxChoices=\"{m}\" is not a whole number"))
            })
            .transpose()?
            .unwrap_or(1),
        Some(other) => {
            return Err(format!(
                "a point response of cardinality {other}; single and multiple are imported"
            ))
        }
    };
    if !scored_by_areas(item) {
        return Err(format!(
            "a <{}> is imported when its points are scored by its areas (map_response_point)",
            interaction.name
        ));
    }
    let (width, height) = size.ok_or(
        "the picture's size is not known (its <object> has no width and height, and the image does not say)",
    )?;
    let mapping = declaration
        .child("areaMapping")
        .ok_or("a point response without an <areaMapping> to score it by")?;
    let mut areas = Vec::new();
    for entry in mapping.children_named("areaMapEntry") {
        if areas.len() == limits::MAX_CHOICES {
            return Err(format!(
                "more than {} areas score the points",
                limits::MAX_CHOICES
            ));
        }
        let shape = entry.attribute("shape").unwrap_or("").trim().to_lowercase();
        let written = entry.attribute("coords").unwrap_or("");
        let coords = coordinates(written, width, height);
        let fits = match shape.as_str() {
            "circle" => coords.len() == 3 && coords[2] > 0.0,
            "rect" | "ellipse" => coords.len() == 4,
            "poly" => {
                coords.len() >= 6
                    && coords.len().is_multiple_of(2)
                    && coords.len() <= 2 * MOST_CORNERS
            }
            "default" => true,
            _ => false,
        };
        if !fits {
            return Err(format!(
                "an <areaMapEntry shape=\"{shape}\" coords=\"{}\"> that is not an area",
                written.chars().take(40).collect::<String>()
            ));
        }
        let value = number(entry, "mappedValue")?.ok_or("an <areaMapEntry> without mappedValue")?;
        areas.push(Area {
            coords: if shape == "default" {
                Vec::new()
            } else {
                coords
            },
            shape,
            value,
        });
    }
    if !areas.iter().any(|a| a.value > 0.0) {
        return Err("no area of the picture is worth anything".into());
    }
    Ok(Response::Points {
        width,
        height,
        most,
        areas,
        scoring: ChoiceScoring::MapResponse {
            default_value: number(mapping, "defaultValue")?.unwrap_or(0.0),
            lower_bound: number(mapping, "lowerBound")?,
            upper_bound: number(mapping, "upperBound")?,
        },
    })
}

/// Whether the response processing is `map_response_point`, or custom processing
/// that sets the score from `mapResponsePoint` alone.
fn scored_by_areas(item: &Element) -> bool {
    let Some(processing) = item.child("responseProcessing") else {
        return false;
    };
    if let Some(template) = processing
        .attribute("template")
        .or_else(|| processing.attribute("templateLocation"))
    {
        return template
            .trim_end_matches(".xml")
            .ends_with("map_response_point");
    }
    let steps = processing.descendants();
    steps.iter().any(|e| e.name == "mapResponsePoint")
        && !steps
            .iter()
            .any(|e| matches!(e.name.as_str(), "match" | "mapResponse" | "correct"))
}
