//! The assessment test: its items in order (sections walked depth first), each
//! item's category (its topic here), and score bands from a test-level outcome's
//! interpolation table.

use crate::error::PackageError;
use crate::item::ScoreBand;
use crate::names;
use crate::xml::Element;

pub struct Test {
    pub identifier: Option<String>,
    pub title: Option<String>,
    pub language: Option<String>,
    pub items: Vec<ItemRef>,
    pub score_bands: Vec<ScoreBand>,
    pub notes: Vec<String>,
}

pub struct ItemRef {
    pub path: String,
    pub category: Option<String>,
}

pub fn read(root: &Element, file: &str) -> Result<Test, PackageError> {
    if root.name != "assessmentTest" {
        return Err(PackageError::new(
            file,
            format!(
                "the document element is <{}>, not an assessment test",
                root.name
            ),
        ));
    }
    let mut items = Vec::new();
    let mut notes = Vec::new();
    for element in root.descendants() {
        match element.name.as_str() {
            "assessmentItemRef" => {
                let href = element.attribute("href").ok_or_else(|| {
                    PackageError::new(file, "an <assessmentItemRef> without href")
                })?;
                let path = names::resolve(file, href).map_err(|problem| {
                    PackageError::at_path(file, "assessmentItemRef href", href, &problem)
                })?;
                let category = element
                    .attribute("category")
                    .and_then(|c| c.split_whitespace().next())
                    .map(str::to_owned);
                items.push(ItemRef { path, category });
            }
            "selection" | "ordering" if !notes.iter().any(|n: &String| n.contains("selection")) => {
                notes.push(
                    "the test's selection and ordering rules are not imported: every item is kept, in the order written".into(),
                );
            }
            _ => {}
        }
    }
    Ok(Test {
        identifier: root.attribute("identifier").map(str::to_owned),
        title: root.attribute("title").map(str::to_owned),
        language: root.attribute("lang").map(str::to_owned),
        items,
        score_bands: score_bands(root, file)?,
        notes,
    })
}

/// A test-level outcome with an `interpolationTable` whose source values are
/// percentages of the test's maximum and whose targets are the bands' titles.
fn score_bands(root: &Element, file: &str) -> Result<Vec<ScoreBand>, PackageError> {
    let Some(table) = root
        .children_named("outcomeDeclaration")
        .find_map(|outcome| outcome.child("interpolationTable"))
    else {
        return Ok(Vec::new());
    };
    let mut bands = Vec::new();
    for entry in table.children_named("interpolationTableEntry") {
        let source = entry.attribute("sourceValue").unwrap_or_default();
        let min_percentage = source
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|p| (0.0..=100.0).contains(p))
            .ok_or_else(|| {
                PackageError::new(
                    format!("{file} <interpolationTableEntry sourceValue=\"{source}\">"),
                    "a score band's lower bound must be a percentage from 0 to 100",
                )
            })?;
        let title = entry
            .attribute("targetValue")
            .unwrap_or_default()
            .trim()
            .to_owned();
        if title.is_empty() {
            return Err(PackageError::new(
                format!("{file} <interpolationTableEntry sourceValue=\"{source}\">"),
                "a score band without a title (targetValue)",
            ));
        }
        bands.push(ScoreBand {
            min_percentage: min_percentage.ceil() as i32,
            title,
        });
    }
    bands.sort_by_key(|band| band.min_percentage);
    bands.dedup_by_key(|band| band.min_percentage);
    Ok(bands)
}
