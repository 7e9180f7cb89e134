//! `imsmanifest.xml`: the package's resources (items, the test, media), its title,
//! and per resource the topic its metadata classifies it under.

use crate::error::PackageError;
use crate::names;
use crate::xml::Element;

pub const FILE: &str = "imsmanifest.xml";

pub struct Manifest {
    pub identifier: String,
    pub title: Option<String>,
    pub resources: Vec<Resource>,
}

pub struct Resource {
    pub identifier: String,
    /// The resource's type (`imsqti_item_xmlv2p1`, `webcontent`, ...).
    pub kind: String,
    /// The member its `href` names, if it has one.
    pub path: Option<String>,
    /// A taxon path from its LOM classification (`Biology/Cells`).
    pub topic: Option<String>,
}

pub fn read(root: &Element) -> Result<Manifest, PackageError> {
    if root.name != "manifest" {
        return Err(PackageError::new(
            FILE,
            format!("the document element is <{}>, not <manifest>", root.name),
        ));
    }
    let mut resources = Vec::new();
    if let Some(list) = root.child("resources") {
        for resource in list.children_named("resource") {
            let identifier = resource
                .attribute("identifier")
                .unwrap_or_default()
                .to_owned();
            let kind = resource.attribute("type").unwrap_or_default().to_owned();
            // Canvas names a QTI 1.2 quiz's file only in <file href>, Blackboard a
            // pool's only in bb:file. Only the resources read here must have a
            // path that stays in the package: others (Blackboard's course
            // settings, "/res00001") are ignored whatever they name.
            let href = resource
                .attribute("href")
                .or_else(|| resource.attribute("file"))
                .or_else(|| {
                    resource
                        .children_named("file")
                        .find_map(|file| file.attribute("href"))
                });
            let read_here = kind.starts_with("imsqti") || is_blackboard_pool(&kind);
            let path = match href.map(|href| (href, names::resolve(FILE, href))) {
                Some((_, Ok(path))) => Some(path),
                Some((href, Err(problem))) if read_here => {
                    return Err(PackageError::at_path(FILE, "resource href", href, &problem))
                }
                _ => None,
            };
            resources.push(Resource {
                identifier,
                kind,
                path,
                topic: resource.child("metadata").and_then(taxon_path),
            });
        }
    }
    Ok(Manifest {
        identifier: root.attribute("identifier").unwrap_or_default().to_owned(),
        title: root.child("metadata").and_then(title),
        resources,
    })
}

/// LOM's `general/title/string` (or IMS MD 1.2's `langstring`).
/// A Blackboard pool or test: QTI 1.2 in Blackboard's dialect, in a `.dat` file.
pub fn is_blackboard_pool(kind: &str) -> bool {
    kind.starts_with("assessment/x-bb-qti")
}

fn title(metadata: &Element) -> Option<String> {
    metadata
        .descendants()
        .into_iter()
        .find(|e| e.name == "title")
        .map(|title| {
            title
                .text()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        })
        .filter(|t| !t.is_empty())
}

/// LOM's `classification/taxonPath/taxon/entry`, joined with `/`.
fn taxon_path(metadata: &Element) -> Option<String> {
    let path = metadata
        .descendants()
        .into_iter()
        .find(|e| e.name == "taxonPath")?;
    let taxa: Vec<String> = path
        .descendants()
        .into_iter()
        .filter(|e| e.name == "taxon")
        .filter_map(|taxon| taxon.child("entry"))
        .map(|entry| {
            entry
                .text()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        })
        .filter(|t| !t.is_empty())
        .collect();
    (!taxa.is_empty()).then(|| taxa.join("/"))
}
