//! The results as a OneRoster 1.1 bulk gradebook (a zip of CSV files that a
//! student information system imports, docs/exports.md): `manifest.csv`,
//! `categories.csv`, `lineItems.csv` (one line item per class that sat the
//! assessment) and `results.csv` (one per Result, its total as the score).

use std::collections::BTreeMap;
use std::io::Write;

use crate::documents::export::{iso_time, neutralised};
use crate::model::report::{AssessmentReport, ReportResult};

/// The category every line item of ScoreDesk belongs to.
const CATEGORY: &str = "scoredesk-assessments";

/// The zip's bytes.
pub fn gradebook(report: &AssessmentReport) -> std::io::Result<Vec<u8>> {
    let files = [
        ("manifest.csv", manifest()?),
        ("categories.csv", categories()?),
        ("lineItems.csv", line_items(report)?),
        ("results.csv", results(report)?),
    ];
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in files {
        zip.start_file(name, options)
            .map_err(std::io::Error::other)?;
        zip.write_all(&bytes)?;
    }
    Ok(zip.finish().map_err(std::io::Error::other)?.into_inner())
}

fn table(header: &[&str], rows: impl IntoIterator<Item = Vec<String>>) -> std::io::Result<Vec<u8>> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(header)?;
    for row in rows {
        writer.write_record(row.iter().map(|cell| neutralised(cell).into_owned()))?;
    }
    writer.into_inner().map_err(|e| e.into_error())
}

fn manifest() -> std::io::Result<Vec<u8>> {
    let present = ["categories", "lineItems", "results"];
    let absent = [
        "academicSessions",
        "classes",
        "classResources",
        "courses",
        "courseResources",
        "demographics",
        "enrollments",
        "orgs",
        "resources",
        "users",
    ];
    let rows = [("manifest.version", "1.0"), ("oneroster.version", "1.1")]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .chain(present.iter().map(|f| (format!("file.{f}"), "bulk")))
        .chain(absent.iter().map(|f| (format!("file.{f}"), "absent")))
        .map(|(k, v)| vec![k, v.to_string()]);
    table(&["propertyName", "value"], rows)
}

fn categories() -> std::io::Result<Vec<u8>> {
    table(
        &["sourcedId", "status", "dateLastModified", "title"],
        [vec![
            CATEGORY.to_string(),
            String::new(),
            String::new(),
            "Assessments".to_string(),
        ]],
    )
}

/// The class a result counts for: its group's sourcedId from the school's
/// roster, else the group's name (a group made by hand has no sourcedId), else
/// none.
fn class_of(result: &ReportResult) -> String {
    result
        .group_key
        .clone()
        .or_else(|| result.group.clone())
        .unwrap_or_default()
}

fn line_item_id(report: &AssessmentReport, class: &str) -> String {
    if class.is_empty() {
        format!("scoredesk-{}", report.assessment_id)
    } else {
        format!("scoredesk-{}-{class}", report.assessment_id)
    }
}

fn line_items(report: &AssessmentReport) -> std::io::Result<Vec<u8>> {
    let max: i32 = report.questions.iter().map(|q| q.max_score).sum();
    let mut classes: BTreeMap<String, Option<i64>> = BTreeMap::new();
    for result in &report.results {
        let first = classes
            .entry(class_of(result))
            .or_insert(result.when_finished);
        *first = match (*first, result.when_finished) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
    }
    let rows = classes.iter().map(|(class, first)| {
        let date = first.map(iso_time).unwrap_or_default();
        vec![
            line_item_id(report, class),
            String::new(),
            String::new(),
            report.name.clone(),
            format!("ScoreDesk assessment {}", report.assessment_id),
            date.clone(),
            date,
            class.clone(),
            CATEGORY.to_string(),
            String::new(),
            "0".to_string(),
            max.to_string(),
        ]
    });
    table(
        &[
            "sourcedId",
            "status",
            "dateLastModified",
            "title",
            "description",
            "assignDate",
            "dueDate",
            "classSourcedId",
            "categorySourcedId",
            "gradingPeriodSourcedId",
            "resultValueMin",
            "resultValueMax",
        ],
        rows,
    )
}

/// `fully graded` when final, `partially graded` while answers wait for a
/// scorer, `submitted` for a result not finished (paused or terminated).
fn score_status(result: &ReportResult) -> &'static str {
    match (result.status, result.provisional()) {
        (3, false) => "fully graded",
        (3, true) => "partially graded",
        _ => "submitted",
    }
}

fn results(report: &AssessmentReport) -> std::io::Result<Vec<u8>> {
    let rows = report.results.iter().map(|result| {
        vec![
            format!("scoredesk-result-{}", result.id),
            String::new(),
            String::new(),
            line_item_id(report, &class_of(result)),
            result
                .participant_key
                .clone()
                .or_else(|| result.participant.clone())
                .unwrap_or_default(),
            score_status(result).to_string(),
            result.total_score.to_string(),
            result
                .when_finished
                .and_then(|at| iso_time(at).get(..10).map(str::to_string))
                .unwrap_or_default(),
            String::new(),
        ]
    });
    table(
        &[
            "sourcedId",
            "status",
            "dateLastModified",
            "lineItemSourcedId",
            "studentSourcedId",
            "scoreStatus",
            "score",
            "scoreDate",
            "comment",
        ],
        rows,
    )
}
