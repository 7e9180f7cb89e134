//! Taking an assessment's results out (issue 34, docs/exports.md): the report read
//! from the store, analysed, written in the chosen format, and put in place whole
//! (a temporary file beside the target, renamed), so that a failed export never
//! leaves half a file where a coordinator looks for one.

use std::path::Path;

use crate::documents::export::{csv, oneroster, xlsx};
use crate::model::area::CustomerArea;
use crate::model::report::analysis::{analyse, Analysis};
use crate::model::report::AssessmentReport;
use crate::store::{Store, StoreError};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Csv,
    Xlsx,
    OneRoster,
}

impl Format {
    pub fn parse(text: &str) -> Option<Self> {
        match text.to_ascii_lowercase().as_str() {
            "csv" => Some(Format::Csv),
            "xlsx" => Some(Format::Xlsx),
            "oneroster" => Some(Format::OneRoster),
            _ => None,
        }
    }

    /// The media type of the file.
    pub fn media_type(self) -> &'static str {
        match self {
            Format::Csv => "text/csv; charset=utf-8",
            Format::Xlsx => "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            Format::OneRoster => "application/zip",
        }
    }

    pub fn extension(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::Xlsx => "xlsx",
            Format::OneRoster => "zip",
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("customer area {area} has no assessment {assessment}")]
    NoAssessment { area: i32, assessment: i64 },
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("writing the {format} file: {message}")]
    Write {
        format: &'static str,
        message: String,
    },
}

/// What an export held.
#[derive(Debug, Clone)]
pub struct ExportSummary {
    pub assessment_name: String,
    pub results: usize,
    pub provisional: usize,
    pub analysis: Analysis,
}

/// The report and its analysis, for the feeds and the files.
pub async fn read_report(
    store: &Store,
    area: CustomerArea,
    assessment_id: i64,
) -> Result<(AssessmentReport, Analysis), ExportError> {
    let report =
        store
            .assessment_report(area, assessment_id)
            .await?
            .ok_or(ExportError::NoAssessment {
                area: area.id(),
                assessment: assessment_id,
            })?;
    let analysis = analyse(&report);
    Ok((report, analysis))
}

/// The file's bytes.
pub fn render(
    report: &AssessmentReport,
    analysis: &Analysis,
    format: Format,
) -> Result<Vec<u8>, ExportError> {
    let failed = |format: &'static str| {
        move |e: &dyn std::fmt::Display| ExportError::Write {
            format,
            message: e.to_string(),
        }
    };
    match format {
        Format::Csv => {
            let mut bytes = Vec::new();
            csv::write_results(report, &mut bytes).map_err(|e| failed("CSV")(&e))?;
            Ok(bytes)
        }
        Format::Xlsx => xlsx::workbook(report, analysis).map_err(|e| failed("XLSX")(&e)),
        Format::OneRoster => oneroster::gradebook(report).map_err(|e| failed("OneRoster")(&e)),
    }
}

/// Exports assessment `assessment_id` of `area` to `output` in `format`.
pub async fn export_results(
    store: &Store,
    area: CustomerArea,
    assessment_id: i64,
    format: Format,
    output: &Path,
) -> anyhow::Result<ExportSummary> {
    let (report, analysis) = read_report(store, area, assessment_id).await?;
    let summary = ExportSummary {
        assessment_name: report.name.clone(),
        results: report.results.len(),
        provisional: report.results.iter().filter(|r| r.provisional()).count(),
        analysis: analysis.clone(),
    };
    let bytes = tokio::task::spawn_blocking(move || render(&report, &analysis, format)).await??;
    let folder = output
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    // Removed on drop unless persisted: a failed write leaves nothing behind.
    let mut file = tempfile::NamedTempFile::new_in(folder)?;
    std::io::Write::write_all(&mut file, &bytes)?;
    file.as_file().sync_all()?;
    file.persist(output)?;
    Ok(summary)
}
