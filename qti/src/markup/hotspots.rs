//! A hotspot interaction on screen and on paper: its picture with each area
//! outlined and lettered (A, B, …, in the item's order: the letters the paper's
//! choices carry), drawn as one SVG that holds the picture itself, so that the
//! markup keeps one `data:` image. The areas' shapes are QTI's (HTML's image-map
//! shapes): `circle` (x, y, r), `rect` (left, top, right, bottom), `ellipse`
//! (x, y, rx, ry), `poly` (x, y pairs), `default` (the whole picture); a
//! coordinate may be a percentage of the picture's width or height. A graphic
//! order and a graphic associate show their areas (`associableHotspot`s for the
//! latter) on their picture the same way, then their positions or pairs.

use base64::Engine;

use super::Writer;
use crate::error::PackageError;
use crate::images::dimensions;
use crate::xml::Element;

/// The longer side of a hotspot picture as shown, at least: in CSS pixels.
const SHOWN: f64 = 360.0;

/// `A`, `B`, …, `Z`, then `AA`, …: as the paper letters choices.
pub fn area_letter(position: usize) -> String {
    let letter = |n: usize| char::from(b'A' + (n % 26) as u8);
    if position < 26 {
        letter(position).to_string()
    } else {
        format!("{}{}", letter(position / 26 - 1), letter(position))
    }
}

/// The areas of a graphic interaction, in the item's order.
pub fn areas(interaction: &Element) -> impl Iterator<Item = &Element> {
    interaction
        .elements()
        .filter(|e| matches!(e.name.as_str(), "hotspotChoice" | "associableHotspot"))
}

/// A picture to place's words (a graphic gap match's `gapImg`): its label, else
/// its picture's alternative text, else its number among the pictures ("picture
/// 2"), which the markup prints beside it.
pub fn picture_words(gap: &Element, position: usize) -> String {
    gap.attribute("objectLabel")
        .map(str::to_owned)
        .or_else(|| gap.child("object").map(|o| o.text()))
        .map(|words| words.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|words| !words.is_empty())
        .unwrap_or_else(|| format!("picture {}", position + 1))
}

/// An area's words, which it has none of: its label, or the letter its picture
/// shows it by ("the area marked A").
pub fn area_words(area: &Element, position: usize) -> String {
    area.attribute("hotspotLabel")
        .map(|label| label.trim().to_owned())
        .filter(|label| !label.is_empty())
        .unwrap_or_else(|| format!("the area marked {}", area_letter(position)))
}

impl Writer<'_, '_> {
    pub(super) fn hotspots(&mut self, interaction: &Element) -> Result<(), PackageError> {
        self.prompt(interaction)?;
        if self.picture(interaction)? {
            self.out.push_str("<ol class=\"choices\">");
            for (index, _) in areas(interaction).enumerate() {
                self.out
                    .push_str(&format!("<li>{}</li>", area_letter(index)));
            }
            self.out.push_str("</ol>");
        }
        Ok(())
    }

    /// A graphic order: its picture, then its areas as the options each
    /// position picks from.
    pub(super) fn graphic_order(&mut self, interaction: &Element) -> Result<(), PackageError> {
        self.prompt(interaction)?;
        self.picture(interaction)?;
        self.out.push_str("<ol class=\"choices options\">");
        for (index, area) in areas(interaction).enumerate() {
            let words = area_words(area, index);
            self.out.push_str(&format!(
                "<li>{}</li>",
                quick_xml::escape::escape(words.as_str())
            ));
        }
        self.out.push_str("</ol>");
        Ok(())
    }

    /// A graphic gap match: its picture with its areas lettered, then each
    /// picture to place with the words that name it (on paper too: the grid's
    /// options are those words).
    pub(super) fn graphic_gaps(&mut self, interaction: &Element) -> Result<(), PackageError> {
        self.prompt(interaction)?;
        self.picture(interaction)?;
        self.out.push_str("<ul class=\"pictures\">");
        let places = interaction
            .elements()
            .filter(|e| matches!(e.name.as_str(), "gapImg" | "gapText"));
        for (index, place) in places.enumerate() {
            self.out.push_str("<li>");
            if let Some(object) = place.child("object") {
                self.object(object)?;
                self.out.push(' ');
            }
            let words = if place.name == "gapImg" {
                picture_words(place, index)
            } else {
                super::choice_text(place)
            };
            self.out
                .push_str(&quick_xml::escape::escape(words.as_str()));
            self.out.push_str("</li>");
        }
        self.out.push_str("</ul>");
        Ok(())
    }

    /// A graphic associate: its picture, then its candidate pairs of areas.
    pub(super) fn graphic_pairs(&mut self, interaction: &Element) -> Result<(), PackageError> {
        self.prompt(interaction)?;
        self.picture(interaction)?;
        let words: Vec<String> = areas(interaction)
            .enumerate()
            .map(|(index, area)| area_words(area, index))
            .collect();
        self.pair_list(&words);
        Ok(())
    }

    /// A select point: its picture, on which the answer is a point (or several)
    /// marked; its areas are the key, so never shown.
    pub(super) fn select_point(&mut self, interaction: &Element) -> Result<(), PackageError> {
        self.prompt(interaction)?;
        self.stage(interaction)?;
        self.hint("p", &mark_places(interaction));
        Ok(())
    }

    /// A position object stage: each of its interactions' prompt, then the
    /// stage's picture, then the object to place with how many times.
    pub(super) fn position_stage(&mut self, stage: &Element) -> Result<(), PackageError> {
        let interactions: Vec<&Element> =
            stage.children_named("positionObjectInteraction").collect();
        for interaction in &interactions {
            self.prompt(interaction)?;
        }
        self.stage(stage)?;
        for interaction in interactions {
            // What to place is part of the question, on paper too; how to mark it
            // is a hint, which paper says its own way.
            if let Some(object) = interaction.child("object") {
                self.out.push_str("<p class=\"place\">Place ");
                self.object(object)?;
                self.out.push_str(" on the picture.</p>");
            }
            self.hint("p", &mark_places(interaction));
        }
        Ok(())
    }

    /// The picture points are marked on, in `<div class="stage">` (the answer
    /// sheet prints it again from there).
    fn stage(&mut self, holder: &Element) -> Result<(), PackageError> {
        self.out.push_str("<div class=\"stage\">");
        self.picture(holder)?;
        self.out.push_str("</div>");
        Ok(())
    }

    /// The interaction's picture with its areas outlined and lettered; false
    /// when it has none (`response` skips such an item).
    fn picture(&mut self, interaction: &Element) -> Result<bool, PackageError> {
        let picture = interaction.child("object");
        let data = picture.and_then(|o| o.attribute("data"));
        let Some((object, data)) = picture.zip(data) else {
            return Ok(false);
        };
        let url = self.images.data_url(self.file, "object data", data)?;
        let size = |name: &str| {
            object
                .attribute(name)
                .and_then(|v| v.trim().trim_end_matches("px").parse::<f64>().ok())
                .filter(|v| v.is_finite() && *v > 0.0)
        };
        let (width, height) = match (size("width"), size("height"), dimensions(&url)) {
            (Some(w), Some(h), _) => (w, h),
            (_, _, Some((w, h))) => (f64::from(w), f64::from(h)),
            // An SVG picture of no written size: as large as its areas reach.
            _ => reach(interaction),
        };
        // A small picture is shown larger (areas a few pixels apart stay apart on
        // paper); the areas keep the picture's own coordinates (the viewBox).
        let scale = (SHOWN / width.max(height)).max(1.0);
        let (shown_width, shown_height) = (round(width * scale), round(height * scale));
        let mut svg = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{shown_width}" height="{shown_height}"><image href="{url}" width="{width}" height="{height}"/>"#
        );
        let stroke = round(width.max(height) / 200.0);
        // A letter's disc, in its area's middle: it marks a small area itself
        // (airports on a map), and a large one keeps its outline around it.
        let r = round((width.max(height) / 40.0).max(5.0));
        for (index, area) in areas(interaction).enumerate() {
            let shape = area.attribute("shape").unwrap_or("default").trim();
            let coords = coordinates(area.attribute("coords").unwrap_or(""), width, height);
            let (outline, (x, y)) = outline(shape, &coords, width, height);
            svg.push_str(&format!(
                r##"<g fill="none" stroke="#000" stroke-width="{stroke}">{outline}</g>"##
            ));
            let (x, y) = (round(x), round(y));
            svg.push_str(&format!(
                r##"<circle cx="{x}" cy="{y}" r="{r}" fill="#fff" stroke="#000" stroke-width="{stroke}"/><text x="{x}" y="{y}" font-family="sans-serif" font-weight="bold" font-size="{}" text-anchor="middle" dominant-baseline="central">{}</text>"##,
                round(r * 1.3),
                area_letter(index)
            ));
        }
        svg.push_str("</svg>");
        let alt = quick_xml::escape::escape(object.text().trim()).into_owned();
        self.out.push_str(&format!(
            r#"<img src="data:image/svg+xml;base64,{}" alt="{alt}" width="{shown_width}" height="{shown_height}"/>"#,
            base64::engine::general_purpose::STANDARD.encode(svg)
        ));
        Ok(true)
    }
}

/// "Mark the place with a cross (×).", or at most how many places.
fn mark_places(interaction: &Element) -> String {
    let most = interaction
        .attribute("maxChoices")
        .and_then(|m| m.trim().parse::<usize>().ok())
        .unwrap_or(1);
    match most {
        1 => "Mark the place with a cross (×).".to_owned(),
        0 => "Mark each place with a cross (×).".to_owned(),
        most => format!("Mark at most {most} places, each with a cross (×)."),
    }
}

/// How far the areas' pixel coordinates reach, with a margin: the size of a
/// picture whose own is not known.
fn reach(interaction: &Element) -> (f64, f64) {
    let mut far = (1.0_f64, 1.0_f64);
    for area in areas(interaction) {
        let coords = coordinates(area.attribute("coords").unwrap_or(""), 0.0, 0.0);
        for (at, value) in coords.iter().enumerate() {
            if at % 2 == 0 {
                far.0 = far.0.max(*value);
            } else {
                far.1 = far.1.max(*value);
            }
        }
    }
    (far.0 * 1.1, far.1 * 1.1)
}

/// `value` to two decimals, as written into the SVG.
fn round(value: f64) -> f64 {
    (value * 100.0).round() / 100.0
}

/// The numbers of `coords`, a percentage read against the picture's width (x,
/// even places) or height (y, odd places).
pub fn coordinates(coords: &str, width: f64, height: f64) -> Vec<f64> {
    coords
        .split(',')
        .enumerate()
        .filter_map(|(at, value)| {
            let value = value.trim();
            let whole = if at % 2 == 0 { width } else { height };
            match value.strip_suffix('%') {
                Some(percent) => percent
                    .trim()
                    .parse::<f64>()
                    .ok()
                    .map(|p| p * whole / 100.0),
                None => value.parse::<f64>().ok(),
            }
        })
        .filter(|v| v.is_finite())
        .collect()
}

/// An area's outline as SVG, and its middle (where its letter goes).
fn outline(shape: &str, c: &[f64], width: f64, height: f64) -> (String, (f64, f64)) {
    match (shape, c) {
        ("circle", [x, y, r, ..]) => (format!(r#"<circle cx="{x}" cy="{y}" r="{r}"/>"#), (*x, *y)),
        ("ellipse", [x, y, rx, ry, ..]) => (
            format!(r#"<ellipse cx="{x}" cy="{y}" rx="{rx}" ry="{ry}"/>"#),
            (*x, *y),
        ),
        ("rect", [left, top, right, bottom, ..]) => (
            format!(
                r#"<rect x="{}" y="{}" width="{}" height="{}"/>"#,
                left.min(*right),
                top.min(*bottom),
                (right - left).abs(),
                (bottom - top).abs()
            ),
            ((left + right) / 2.0, (top + bottom) / 2.0),
        ),
        ("poly", points) if points.len() >= 6 => {
            let pairs: Vec<(f64, f64)> = points.chunks_exact(2).map(|p| (p[0], p[1])).collect();
            let n = pairs.len() as f64;
            let middle = (
                pairs.iter().map(|p| p.0).sum::<f64>() / n,
                pairs.iter().map(|p| p.1).sum::<f64>() / n,
            );
            let written: Vec<String> = pairs.iter().map(|(x, y)| format!("{x},{y}")).collect();
            (
                format!(r#"<polygon points="{}"/>"#, written.join(" ")),
                middle,
            )
        }
        // The whole picture (`default`), or coordinates that do not fit the
        // shape: lettered in the middle, nothing outlined.
        _ => (String::new(), (width / 2.0, height / 2.0)),
    }
}
