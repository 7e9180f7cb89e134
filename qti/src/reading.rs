//! One item read into an [`Item`] (its markup, its interaction and scoring), or
//! skipped with its reason; and the items a translation (QTI 1.2, Moodle XML)
//! gave, read the same way.

use crate::archive::Archive;
use crate::build::Translated;
use crate::error::PackageError;
use crate::images::Images;
use crate::item::{Item, SkippedItem};
use crate::xml::Element;
use crate::{markup, response, template};

/// Each translated item of the document at `path` read into `items`, or into
/// `skipped` with why.
pub fn add_translated(
    translated: Vec<Translated>,
    path: &str,
    images: &mut Images<'_>,
    items: &mut Vec<Item>,
    skipped: &mut Vec<SkippedItem>,
) -> Result<(), PackageError> {
    for one in translated {
        match one {
            Translated::Item { element, topic } => {
                match read_item(&element, path, topic, images)? {
                    Ok(item) => items.push(item),
                    Err(skip) => skipped.push(skip),
                }
            }
            Translated::Skipped { identifier, reason } => skipped.push(SkippedItem {
                identifier,
                file: path.to_owned(),
                reason,
            }),
        }
    }
    Ok(())
}

/// One item: `Err` refuses the package (the item is hostile or broken), `Ok(Err)`
/// skips it (it is sound but asks what the service cannot). A template item is
/// read by its draws (`template`); an adaptive one is refused for that first.
pub fn read_item(
    root: &Element,
    path: &str,
    topic: Option<String>,
    images: &mut Images<'_>,
) -> Result<Result<Item, SkippedItem>, PackageError> {
    if root.name == "assessmentItem"
        && root.attribute("adaptive") != Some("true")
        && template::is_template(root)
    {
        return read_template(root, path, topic, images);
    }
    read_plain(root, path, topic, images)
}

/// How many draws an import reads before it takes a template in: it skips the
/// template, naming why, unless every draw reads as the same kind of question
/// with the same maximum, so that a template that cannot be drawn, or draws
/// something else now and then, never reaches a snapshot.
pub const CHECKED_DRAWS: u64 = 8;

/// The draw an import shows (the content desk's preview).
const PREVIEW_SEED: u64 = 0;

/// Where a kept template's messages say it is.
const KEPT: &str = "template";

/// An empty zip: a kept template reads no file but its own.
const NO_ARCHIVE: &[u8] = b"PK\x05\x06\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0";

/// A template item read: its preview draw, with the template kept; or skipped.
fn read_template(
    root: &Element,
    path: &str,
    topic: Option<String>,
    images: &mut Images<'_>,
) -> Result<Result<Item, SkippedItem>, PackageError> {
    let skip = |reason: String| {
        Ok(Err(SkippedItem {
            identifier: root.attribute("identifier").unwrap_or("").trim().to_owned(),
            file: path.to_owned(),
            reason,
        }))
    };
    let kept = template::kept(root, path, images)?;
    let mut item = match instantiate(&kept, PREVIEW_SEED) {
        Ok(item) => item,
        Err(reason) => return skip(reason),
    };
    for seed in 1..CHECKED_DRAWS {
        match instantiate(&kept, seed) {
            Ok(other) if other.max_score != item.max_score => {
                return skip(format!(
                    "its draws differ in their maximum ({} and {})",
                    item.max_score, other.max_score
                ))
            }
            Ok(other)
                if std::mem::discriminant(&other.response)
                    != std::mem::discriminant(&item.response) =>
            {
                return skip("its draws are questions of different kinds".into())
            }
            Ok(_) => {}
            Err(reason) => return skip(format!("draw {seed} of its template: {reason}")),
        }
    }
    let shown: Vec<String> = item
        .values
        .iter()
        .map(|(name, value)| match value.char_indices().nth(40) {
            Some((at, _)) => format!("{name} = {}…", &value[..at]),
            None => format!("{name} = {value}"),
        })
        .collect();
    item.notes.push(format!(
        "a template item: each snapshot draws its own values (this preview: {})",
        shown.join(", ")
    ));
    item.file = path.to_owned();
    item.topic = topic;
    item.template = Some(kept);
    Ok(Ok(item))
}

/// The item template `template` (as an import kept it) gives with `seed`: its
/// variables drawn, its markup and keys those of that draw; or why it cannot.
pub fn instantiate(template: &str, seed: u64) -> Result<Item, String> {
    let root = crate::xml::parse(template.as_bytes(), KEPT).map_err(|e| e.to_string())?;
    let (drawn, values) = template::draw(&root, seed)?;
    let mut images = Images::new(Archive::open(NO_ARCHIVE).map_err(|e| e.to_string())?);
    match read_plain(&drawn, KEPT, None, &mut images).map_err(|e| e.to_string())? {
        Ok(mut item) => {
            item.values = values;
            Ok(item)
        }
        Err(skipped) => Err(skipped.reason),
    }
}

/// An item without template variables.
fn read_plain(
    root: &Element,
    path: &str,
    topic: Option<String>,
    images: &mut Images<'_>,
) -> Result<Result<Item, SkippedItem>, PackageError> {
    if root.name != "assessmentItem" {
        return Err(PackageError::new(
            path,
            format!(
                "the document element is <{}>, not an assessment item",
                root.name
            ),
        ));
    }
    let identifier = root
        .attribute("identifier")
        .filter(|i| !i.trim().is_empty())
        .ok_or_else(|| PackageError::new(path, "<assessmentItem> without an identifier"))?
        .trim()
        .to_owned();
    let skip = |reason: String| SkippedItem {
        identifier: identifier.clone(),
        file: path.to_owned(),
        reason,
    };
    let Some(body) = root.child("itemBody") else {
        return Ok(Err(skip("the item has no <itemBody>".into())));
    };
    if let Some(missing) = missing_image(body, path, images.archive()) {
        return Ok(Err(skip(missing)));
    }
    let mut picture_size = |object: &Element| {
        let size = |name: &str| {
            object
                .attribute(name)
                .and_then(|v| v.trim().trim_end_matches("px").parse::<f64>().ok())
                .filter(|v| v.is_finite() && *v > 0.0)
        };
        size("width").zip(size("height")).or_else(|| {
            let url = images
                .data_url(path, "object data", object.attribute("data")?)
                .ok()?;
            crate::images::dimensions(&url).map(|(w, h)| (f64::from(w), f64::from(h)))
        })
    };
    let reading = match response::read(root, body, &mut picture_size) {
        Ok(reading) => reading,
        Err(reason) => return Ok(Err(skip(reason))),
    };
    let markup = markup::Writer::new(path, images).body(body)?;
    Ok(Ok(Item {
        title: root
            .attribute("title")
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .unwrap_or(&identifier)
            .to_owned(),
        stem: markup::stem_text(body, 160),
        identifier,
        file: path.to_owned(),
        language: root.attribute("lang").map(str::to_owned),
        topic,
        markup,
        response: reading.response,
        max_score: reading.max_score,
        notes: reading.notes,
        template: None,
        values: Vec::new(),
    }))
}

/// The first image the item shows that the package does not hold, as the reason
/// to skip the item (a package exported without one of its images: the other
/// items still come in). A path that leaves the package is not this: the markup
/// writer refuses the package for it.
fn missing_image(body: &Element, path: &str, archive: &Archive<'_>) -> Option<String> {
    body.descendants().into_iter().find_map(|element| {
        let (what, src) = match element.name.as_str() {
            "img" => ("img src", element.attribute("src")?),
            "object" if element.attribute("type")?.trim().starts_with("image/") => {
                ("object data", element.attribute("data")?)
            }
            _ => return None,
        };
        if src.trim().starts_with("data:") {
            return None;
        }
        let file = crate::names::resolve(path, src).ok()?;
        (!archive.contains(&file))
            .then(|| format!("the package has no file {file}, which <{what}=\"{src}\"> names"))
    })
}
