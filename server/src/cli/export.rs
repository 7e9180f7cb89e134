//! `scoredesk-server export results`: an assessment's results to a CSV file, an
//! Excel workbook or a OneRoster gradebook (docs/exports.md).

use std::path::PathBuf;

use anyhow::Context;
use clap::Subcommand;

use crate::cli::import::area;
use crate::export::{export_results, ExportSummary, Format};
use crate::store::Store;

#[derive(Subcommand)]
pub enum ExportCommand {
    /// One row per Result: each question's and topic's score, the total, the
    /// band, and whether answers are still to be scored.
    Results {
        #[arg(long)]
        customer: i32,
        /// The AssessmentID.
        #[arg(long)]
        assessment: i64,
        /// csv, xlsx (with the item analysis and its charts) or oneroster (a zip
        /// of lineItems.csv and results.csv).
        #[arg(long, value_parser = parse_format)]
        format: Format,
        /// The file to write; replaced whole, or left as it was if the export fails.
        #[arg(long)]
        output: PathBuf,
    },
}

fn parse_format(text: &str) -> Result<Format, String> {
    Format::parse(text).ok_or_else(|| format!("{text:?}: the formats are csv, xlsx and oneroster"))
}

pub async fn run(store: &Store, command: ExportCommand) -> anyhow::Result<()> {
    match command {
        ExportCommand::Results {
            customer,
            assessment,
            format,
            output,
        } => {
            let summary = export_results(
                store,
                area(store, customer).await?,
                assessment,
                format,
                &output,
            )
            .await
            .with_context(|| format!("exporting the results to {}", output.display()))?;
            let _ = std::io::Write::write_all(
                &mut std::io::stdout(),
                text(&summary, &output).as_bytes(),
            );
            Ok(())
        }
    }
}

fn text(summary: &ExportSummary, output: &std::path::Path) -> String {
    let analysis = &summary.analysis;
    let mut out = format!(
        "{}: {} results written to {} ({} provisional: answers still to score)\n",
        summary.assessment_name,
        summary.results,
        output.display(),
        summary.provisional
    );
    let figure = |value: Option<f64>| value.map_or("-".to_string(), |v| format!("{v:.3}"));
    out.push_str(&format!(
        "item analysis over {} final results: mean {:.3}, SD {}, alpha {}, SEM {}\n",
        analysis.n,
        analysis.test.mean,
        figure(analysis.test.standard_deviation),
        figure(analysis.test.alpha),
        figure(analysis.test.standard_error_of_measurement),
    ));
    out
}
