//! A package read whole: the manifest, the test's order (or the manifest's), and
//! each item read into an [`Item`] or skipped with its reason.

use std::collections::HashSet;

use crate::archive::Archive;
use crate::error::PackageError;
use crate::images::Images;
use crate::item::{Package, QtiVersion, SkippedItem};
use crate::{document, limits, manifest, reading, template, test_order, v1, xml};

const ITEM_TYPES: [&str; 4] = [
    "imsqti_item_xmlv2p0",
    "imsqti_item_xmlv2p1",
    "imsqti_item_xmlv2p2",
    "imsqti_item_xmlv3p0",
];

/// Reads the package in `bytes`. `Err` refuses it whole (hostile, damaged or
/// unreadable); items that are well-formed but not importable are in `skipped`.
pub fn read_package(bytes: &[u8]) -> Result<Package, PackageError> {
    read_package_with_progress(bytes, &mut |_, _| {})
}

/// As [`read_package`], calling `progress(items read, items in all)` as it goes.
pub fn read_package_with_progress(
    bytes: &[u8],
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Package, PackageError> {
    if document::is_document(bytes) {
        return document::read(bytes, progress);
    }
    let mut archive = Archive::open(bytes)?;
    if !archive.contains(manifest::FILE) {
        return Err(PackageError::package(
            "no imsmanifest.xml at the top of the zip, so it is not a content package",
        ));
    }
    let manifest_bytes = archive.read(manifest::FILE, limits::MAX_XML_BYTES)?;
    let manifest = manifest::read(&xml::parse(&manifest_bytes, manifest::FILE)?)?;
    drop(manifest_bytes);

    let mut version = QtiVersion::V2;
    let mut item_resources = Vec::new();
    let mut tests = Vec::new();
    let mut v1_files: Vec<String> = Vec::new();
    for resource in &manifest.resources {
        let kind = resource.kind.as_str();
        let part = || {
            format!(
                "{} <resource identifier=\"{}\" type=\"{kind}\">",
                manifest::FILE,
                resource.identifier
            )
        };
        if kind.starts_with("imsqti_xmlv1") || manifest::is_blackboard_pool(kind) {
            let path = resource
                .path
                .clone()
                .ok_or_else(|| PackageError::new(part(), "the resource has no href"))?;
            if !archive.contains(&path) {
                return Err(PackageError::new(
                    part(),
                    format!("the package has no file {path}"),
                ));
            }
            version = QtiVersion::V1;
            v1_files.push(path);
            continue;
        }
        let is_item = kind.starts_with("imsqti_item_");
        let is_test = kind.starts_with("imsqti_test_") || kind.starts_with("imsqti_assessment_");
        if is_item && !ITEM_TYPES.contains(&kind) {
            return Err(PackageError::new(
                part(),
                "an item type that is not QTI 2.x or 3.0",
            ));
        }
        if !(is_item || is_test) {
            continue;
        }
        let path = resource
            .path
            .clone()
            .ok_or_else(|| PackageError::new(part(), "the resource has no href"))?;
        // A missing item file skips that item (below); a missing test is the
        // package's order gone, and refuses it.
        if is_test && !archive.contains(&path) {
            return Err(PackageError::new(
                part(),
                format!("the package has no file {path}"),
            ));
        }
        if kind.ends_with("v3p0") {
            version = QtiVersion::V3;
        }
        if is_item {
            item_resources.push((path, resource.topic.clone()));
        } else {
            tests.push(path);
        }
    }

    let mut notes = Vec::new();
    let test = match tests.first() {
        Some(path) => {
            if tests.len() > 1 {
                notes.push(format!(
                    "{} assessment tests: {path}, the first, is imported",
                    tests.len()
                ));
            }
            let bytes = archive.read(path, limits::MAX_XML_BYTES)?;
            Some(test_order::read(&xml::parse(&bytes, path)?, path)?)
        }
        None => None,
    };
    // The items in order, each with its topic.
    let order: Vec<(String, Option<String>)> = match &test {
        Some(test) => test
            .items
            .iter()
            .map(|item| {
                let manifest_topic = item_resources
                    .iter()
                    .find(|(path, _)| *path == item.path)
                    .and_then(|(_, topic)| topic.clone());
                (item.path.clone(), item.category.clone().or(manifest_topic))
            })
            .collect(),
        None => item_resources.clone(),
    };
    if order.len() > limits::MAX_ITEMS {
        return Err(PackageError::package(format!(
            "{} items; at most {} are imported from one package",
            order.len(),
            limits::MAX_ITEMS
        )));
    }

    let mut images = Images::new(archive);
    let mut items = Vec::new();
    let mut skipped = Vec::new();
    let mut seen_files = HashSet::new();
    let mut seen_identifiers = HashSet::new();
    let mut templates = 0usize;
    let total = order.len();
    for (done, (path, topic)) in order.into_iter().enumerate() {
        progress(done, total);
        if !seen_files.insert(path.clone()) {
            skipped.push(SkippedItem {
                identifier: String::new(),
                file: path,
                reason: "the test names this item again; a question is asked once".into(),
            });
            continue;
        }
        if !images.archive().contains(&path) {
            skipped.push(SkippedItem {
                identifier: String::new(),
                reason: format!(
                    "the package has no file {path}, which its {} names",
                    if test.is_some() { "test" } else { "manifest" }
                ),
                file: path,
            });
            continue;
        }
        let bytes = images.archive().read(&path, limits::MAX_XML_BYTES)?;
        let root = xml::parse(&bytes, &path)?;
        drop(bytes);
        if template::is_template(&root) {
            templates += 1;
            if let Some(reason) = template::too_many(templates, &root) {
                skipped.push(SkippedItem {
                    identifier: root.attribute("identifier").unwrap_or("").trim().to_owned(),
                    file: path,
                    reason,
                });
                continue;
            }
        }
        match reading::read_item(&root, &path, topic, &mut images)? {
            Ok(item) => {
                if !seen_identifiers.insert(item.identifier.clone()) {
                    notes.push(format!(
                        "{path} has the identifier \"{}\" of an item before it; both are imported",
                        item.identifier
                    ));
                }
                items.push(item);
            }
            Err(skip) => skipped.push(skip),
        }
    }
    let mut v1_title = None;
    for path in v1_files {
        let bytes = images.archive().read(&path, limits::MAX_XML_BYTES)?;
        let root = xml::parse(&bytes, &path)?;
        drop(bytes);
        let document = v1::read(&root, &path)?;
        if items.len() + skipped.len() + document.items.len() > limits::MAX_ITEMS {
            return Err(PackageError::package(format!(
                "more than {} items; at most {} are imported from one package",
                limits::MAX_ITEMS,
                limits::MAX_ITEMS
            )));
        }
        v1_title = v1_title.or(document.title);
        reading::add_translated(document.items, &path, &mut images, &mut items, &mut skipped)?;
    }
    progress(total, total);
    let (test_identifier, test_title, test_language, score_bands) = match test {
        Some(test) => {
            notes.extend(test.notes);
            (test.identifier, test.title, test.language, test.score_bands)
        }
        None => (None, None, None, Vec::new()),
    };
    Ok(Package {
        version,
        identifier: manifest.identifier,
        test_identifier,
        title: test_title
            .or(v1_title)
            .or(manifest.title)
            .map(|t| t.trim().to_owned())
            .unwrap_or_default(),
        language: test_language,
        items,
        skipped,
        score_bands,
        images: images.count(),
        notes,
    })
}
